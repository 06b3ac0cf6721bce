import { B, BM25Scorer, K1, LEGACY_BOOST_FACTOR, LENGTH_TABLE, avgFieldLength, idf, legacyBm25Scorer, normInverseCache, phraseIdf } from './similarity';

const f = Math.fround;

describe('LegacyBM25 similarity, in float32 as Lucene computes it', () => {
  it('uses k1 = 1.2f, b = 0.75f and boosts by 1 + k1 = 2.2f', () => {
    expect(K1).toBe(f(1.2));
    expect(B).toBe(0.75);
    expect(LEGACY_BOOST_FACTOR).toBe(f(f(1.2) + 1));
    expect(LEGACY_BOOST_FACTOR).toBe(2.200000047683716);
  });

  it('computes idf in double then casts to float', () => {
    // N = 3 documents with the field, n = 1: ln(1 + 2.5 / 1.5) = ln(8/3)
    expect(idf(1, 3)).toBe(f(Math.log(1 + 2.5 / 1.5)));
    expect(idf(1, 3)).toBe(0.9808292388916016);
    // a term in every document still has a positive idf
    expect(idf(3, 3)).toBe(f(Math.log(1 + 0.5 / 3.5)));
  });

  it('sums phrase idfs in double and casts once', () => {
    const sum = idf(1, 3) + idf(2, 3);
    expect(phraseIdf([1, 2], 3)).toBe(f(sum));
  });

  it('casts avgdl to float', () => {
    expect(avgFieldLength({ docCount: 3, sumTotalTermFreq: 5 })).toBe(f(5 / 3));
  });

  it('caches 1 / (k1 * ((1 - b) + b * dl / avgdl)) per norm byte', () => {
    const avgdl = f(5 / 3);
    const cache = normInverseCache(avgdl);
    expect(cache[1]).toBe(f(1 / f(K1 * f(f(1 - B) + f(f(B * 1) / avgdl)))));
    expect(LENGTH_TABLE[40]).toBe(40);
    expect(LENGTH_TABLE[41]).toBe(42);
  });

  it('scores weight - weight / (1 + freq * normInverse)', () => {
    // the reference example: "france" in "France", 3 docs, avgdl 5/3, dl 1, freq 1
    const scorer = legacyBm25Scorer(1, { docCount: 3, sumTotalTermFreq: 5 }, [1]);
    const weight = f(f(1 * f(1 + K1)) * idf(1, 3));
    expect(scorer.weight).toBe(weight);
    const normInverse = f(1 / f(K1 * f(0.25 + f(0.75 / f(5 / 3)))));
    const expected = f(weight - f(weight / f(1 + f(1 * normInverse))));
    expect(scorer.score(1, 1)).toBe(expected);
    expect(expected).toBe(1.1727304458618164);
    // not the textbook form's float: it differs in the last bits
    expect(f((weight * 1) / (1 + K1 * (0.25 + (0.75 * 1) / (5 / 3))))).not.toBe(expected);
  });

  it('applies a query boost before multiplying by idf', () => {
    const s = legacyBm25Scorer(2, { docCount: 10, sumTotalTermFreq: 30 }, [3]);
    expect(s.weight).toBe(f(f(2 * LEGACY_BOOST_FACTOR) * idf(3, 10)));
    const plain = new BM25Scorer(1, 1, 1);
    expect(plain.weight).toBe(1);
  });
});
