import fc from 'fast-check';
import { SloppyPhraseMatcher, exactPhraseFreq } from './phrase';

const f = Math.fround;

/** Positions of each phrase term in a tokenized document. */
function positionsOf(doc: string[], terms: string[]): number[][] {
  return terms.map((t) => doc.flatMap((token, i) => (token === t ? [i] : [])));
}

describe('exact phrase frequency', () => {
  it('counts every occurrence, overlapping ones included', () => {
    expect(exactPhraseFreq(positionsOf(['a', 'b', 'x', 'a', 'b'], ['a', 'b']), [0, 1])).toBe(2);
    expect(exactPhraseFreq(positionsOf(['a', 'a', 'a'], ['a', 'a']), [0, 1])).toBe(2);
    expect(exactPhraseFreq(positionsOf(['b', 'a'], ['a', 'b']), [0, 1])).toBe(0);
  });
});

describe('sloppy phrase frequency (Lucene SloppyPhraseMatcher)', () => {
  const sloppy = (doc: string[], terms: string[], slop: number) => new SloppyPhraseMatcher(terms, terms.map((_, i) => i), slop).freq(positionsOf(doc, terms));

  it('weighs matches by 1 / (1 + distance)', () => {
    expect(sloppy(['a', 'b'], ['a', 'b'], 1)).toBe(1);
    expect(sloppy(['a', 'x', 'b'], ['a', 'b'], 1)).toBe(f(1 / 2));
    expect(sloppy(['a', 'x', 'b'], ['a', 'b'], 0)).toBe(0);
    // reversed order costs 2: "b a" matches "a b"~2
    expect(sloppy(['b', 'a'], ['a', 'b'], 2)).toBe(f(1 / 3));
    expect(sloppy(['b', 'a'], ['a', 'b'], 1)).toBe(0);
  });

  it('finds the two matches of Lucene\'s documented example ("a b"~2 on "x a b a y")', () => {
    expect(sloppy(['x', 'a', 'b', 'a', 'y'], ['a', 'b'], 2)).toBe(f(f(0 + 1) + f(1 / 3)));
  });

  it('handles repeated phrase terms', () => {
    expect(sloppy(['a', 'a'], ['a', 'a'], 1)).toBe(1);
    expect(sloppy(['a'], ['a', 'a'], 5)).toBe(0); // one occurrence cannot stand for two positions
    expect(sloppy(['a', 'b', 'a'], ['a', 'b', 'a'], 1)).toBe(1);
  });

  it('takes several terms at a position (MultiPhraseQuery), repeats across positions never sharing a document position', () => {
    // "a (a|b)"~1 on "a a": the two phrase positions share the term "a" (a multi-term repeat group)
    expect(new SloppyPhraseMatcher([['a'], ['a', 'b']], [0, 1], 1).freq([[0, 1], [0, 1]])).toBe(1);
    // on "a": one occurrence cannot stand for both positions
    expect(new SloppyPhraseMatcher([['a'], ['a', 'b']], [0, 1], 3).freq([[0], [0]])).toBe(0);
    // "a (b|c)"~2 on "c a": reversed, distance 2
    expect(new SloppyPhraseMatcher(['a', ['b', 'c']], [0, 1], 2).freq([[1], [0]])).toBe(f(1 / 3));
  });

  it('matches exactly when some placement of distinct terms fits the slop', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'x'), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 }), (doc, slop) => {
        const terms = ['a', 'b', 'c'];
        const positions = positionsOf(doc, terms);
        if (positions.some((p) => p.length === 0)) return;
        let best = Infinity;
        for (const pa of positions[0]) for (const pb of positions[1]) for (const pc of positions[2]) {
          const shifted = [pa, pb - 1, pc - 2];
          best = Math.min(best, Math.max(...shifted) - Math.min(...shifted));
        }
        const freq = new SloppyPhraseMatcher(terms, [0, 1, 2], slop).freq(positions);
        expect(freq > 0).toBe(best <= slop);
      }),
    );
  });
});
