import { FieldIndex } from '../fieldIndex';
import { BLOCK, impactsOf } from './impacts';

describe('impacts', () => {
  it('bound each block by its largest frequency and shortest length, kept up to date as postings grow', () => {
    const field = new FieldIndex('t', 'text');
    const add = (from: number, to: number) => {
      for (let doc = from; doc < to; doc++) field.add(doc, [doc % 97 === 0 ? 'x x x filler' : doc % 3 === 0 ? 'x' : 'x filler filler']);
    };
    add(0, 300);
    const t = field.termId('x');
    const first = impactsOf(field, t);
    expect(first.len).toBe(300);
    expect([...first.maxFreq]).toEqual([3, 3, 3]); // docs 0, 97, 194, 291 have x three times
    expect(impactsOf(field, t)).toBe(first); // cached
    add(300, 400);
    const next = impactsOf(field, t);
    expect(next.len).toBe(400);
    expect(next.maxFreq.length).toBe(Math.ceil(400 / BLOCK));
    expect(next.minNorm[0]).toBe(1); // "x" alone: one token
    expect(next.maxFreq[3]).toBe(3); // doc 388
  });
});
