import { legacyBm25Scorer } from './similarity';
import { byte4ToInt, intToByte4 } from './smallFloat';
import { COUNTRIES, expectedIdf, expectedScore, indexAll } from './testing';

describe('test support', () => {
  it('writes out the same float arithmetic as the similarity module', () => {
    for (const [N, n, freq, length, sum] of [
      [3, 1, 1, 1, 5],
      [10, 4, 3, 45, 130],
      [1000, 1, 2, 7, 5000],
    ]) {
      const scorer = legacyBm25Scorer(1, { docCount: N, sumTotalTermFreq: sum }, [n]);
      const norm = intToByte4(length);
      expect(scorer.score(freq, norm)).toBe(expectedScore({ N, n, freq, dl: byte4ToInt(norm), avgdl: sum / N }));
    }
    expect(expectedIdf(3, 1)).toBe(0.9808292388916016);
  });

  it('indexes fixtures', () => {
    const seen: string[] = [];
    indexAll({ put: (id: string) => seen.push(id) }, COUNTRIES);
    expect(seen).toEqual(['1', '2', '3']);
  });
});
