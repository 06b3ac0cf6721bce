import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { expectedScore } from '../testing';
import { phraseMatches, termMatches } from './termMatches';

describe('term and phrase matches', () => {
  const mapping = new IndexMapping({ keyword: ['k'] });
  const index = new InvertedIndex();
  for (const [id, doc] of [
    ['0', { t: 'a b a', k: 'x' }],
    ['1', { t: ['b', 'a b'], k: 'x' }],
    ['2', { t: 'c', k: 'y' }],
  ] as const) {
    index.addSource(id, doc, mapping);
  }
  const t = index.field('t')!;

  it('score BM25 with frequencies and norms, and keywords with one constant', () => {
    const a = termMatches(t, t.termId('a'), 1, true);
    expect([...a.docList()]).toEqual([0, 1]);
    // N = 3, avgdl = (3 + 3 + 1) / 3; doc 0: freq 2, dl 3; doc 1: freq 1, dl 3
    expect(a.scoreAt(0)).toBe(expectedScore({ N: 3, n: 2, freq: 2, dl: 3, avgdl: 7 / 3 }));
    expect(a.scoreAt(1)).toBe(expectedScore({ N: 3, n: 2, freq: 1, dl: 3, avgdl: 7 / 3 }));
    const k = index.field('k')!;
    const x = termMatches(k, k.termId('x'), 1, true);
    expect(x.scores).toBeNull();
    expect(x.constant).toBe(expectedScore({ N: 3, n: 2, freq: 1, dl: 1, avgdl: 1 }));
  });

  it('find phrases from the token streams, across values only with enough slop', () => {
    const phrase = (terms: string[], slop: number) => phraseMatches(t, { type: 'phrase', field: 't', terms, positions: terms.map((_, i) => i), slop }, 1, true);
    expect([...phrase(['b', 'a'], 0)!.docList()]).toEqual([0]); // doc 1: "b" ends one value, "a" starts the next, 101 positions later
    expect([...phrase(['b', 'a'], 101)!.docList()]).toEqual([0, 1]);
    expect([...phrase(['a', 'b'], 0)!.docList()]).toEqual([0, 1]);
    // "b" then "a" in another value: 100 positions apart
    expect(phrase(['b', 'z'], 0)).toBeNull();
    expect([...phrase(['a', 'c'], 0)!.docList()]).toEqual([]);
  });

  it('skip removed documents', () => {
    index.remove('0');
    expect([...termMatches(t, t.termId('a'), 1, false).docList()]).toEqual([1]);
  });
});
