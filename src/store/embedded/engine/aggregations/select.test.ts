import { UNLIMITED, runToEnd } from '../budget/budget';
import { selectTop } from './select';
import { AggContext } from './types';

const ctx = { budget: UNLIMITED } as AggContext;

describe('selectTop', () => {
  it('gives the first k in order, as a full sort would', () => {
    const items = Array.from({ length: 5000 }, (_, i) => (i * 7919) % 5003);
    const compare = (a: number, b: number) => b - a;
    expect(runToEnd(selectTop(items, 10, compare, ctx))).toEqual([...items].sort(compare).slice(0, 10));
    expect(runToEnd(selectTop(items, 99999, compare, ctx))).toEqual([...items].sort(compare));
    expect(runToEnd(selectTop(items, 0, compare, ctx))).toEqual([]);
  });
});
