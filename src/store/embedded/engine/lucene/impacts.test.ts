import { FieldIndex } from '../fieldIndex';
import { BLOCK, Impacts, impactsOf } from './impacts';

describe('impacts', () => {
  it('bound each block by its largest frequency and shortest length, kept up to date as postings grow', () => {
    const field = new FieldIndex('t', 'text');
    // every document has x, so posting i is document i: x three times in multiples of 97, else once;
    // "x" alone (norm byte 1) in the other multiples of 3, else 3 tokens
    const add = (from: number, to: number) => {
      for (let doc = from; doc < to; doc++) field.add(doc, [doc % 97 === 0 ? 'x x x filler' : doc % 3 === 0 ? 'x' : 'x filler filler']);
    };
    const check = (impacts: Impacts, len: number) => {
      expect(impacts.len).toBe(len);
      expect(impacts.maxFreq.length).toBe(Math.ceil(len / BLOCK));
      for (let b = 0; b < impacts.maxFreq.length; b++) {
        const docs = Array.from({ length: Math.min(len, (b + 1) * BLOCK) - b * BLOCK }, (_, i) => b * BLOCK + i);
        expect(impacts.maxFreq[b]).toBe(docs.some((doc) => doc % 97 === 0) ? 3 : 1);
        expect(impacts.minNorm[b]).toBe(docs.some((doc) => doc % 3 === 0 && doc % 97 !== 0) ? 1 : 3);
      }
    };
    add(0, 300);
    const t = field.termId('x');
    const first = impactsOf(field, t);
    check(first, 300);
    expect(impactsOf(field, t)).toBe(first); // cached
    add(300, 400);
    check(impactsOf(field, t), 400);
  });
});
