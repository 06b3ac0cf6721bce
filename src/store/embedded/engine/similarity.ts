/**
 * Elasticsearch 8's default similarity: LegacyBM25Similarity (org.elasticsearch.lucene.similarity),
 * a thin wrapper around Lucene 9's BM25Similarity that multiplies the query boost by (1 + k1):
 *
 *   LegacyBM25Similarity.scorer(boost, stats, terms) = BM25Similarity.scorer(boost * (1 + k1), stats, terms)
 *
 * What Lucene 9 computes, in Java float (32-bit) arithmetic, reproduced here with Math.fround after
 * every operation (float +, -, *, / are correctly rounded, and so is a double operation on two floats
 * rounded back with fround, since 53 >= 2 * 24 + 2):
 *
 *   idf(n, N)    = (float) Math.log(1 + (N - n + 0.5D) / (n + 0.5D))        computed in double, then cast
 *   phrase idf   = (float) (sum in double of the float idf of every term)
 *   avgdl        = (float) (sumTotalTermFreq / (double) docCount)
 *   weight       = boost' * idf                  with boost' = boost * (1 + k1), k1 = 1.2f, b = 0.75f
 *   cache[i]     = 1f / (k1 * ((1 - b) + b * LENGTH_TABLE[i] / avgdl))     for the 256 norm bytes
 *   score        = weight - weight / (1f + freq * cache[norm])
 *
 * The last line is the form BM25Scorer.score has had since the Lucene 8.x work on BM25 scoring
 * (LUCENE-9071 and follow-ups), unchanged in Lucene 9.x (Elasticsearch 8) and 10.x: freq / (freq + norm)
 * is rewritten 1 - 1 / (1 + freq * (1 / norm)) so that scores are monotonic in float arithmetic, then
 * expanded as weight - weight / (1 + freq * normInverse), with the cache holding 1 / norm. It differs
 * from the textbook weight * freq / (freq + norm) in the last bits (the reference example below:
 * 1.1727304 with this form, 1.1727306 with the textbook one), which is why we follow it exactly.
 *
 * Reference example (similarity.test.ts, query/match.test.ts): name = "France", "French Guiana",
 * "South Africa"; match name "france": N = 3, n = 1, freq = 1, dl = 1, avgdl = (float) 5/3:
 * idf = 0.98082924, weight = 2.2f * idf = 2.1578243, normInverse = 1.1904761, score = 1.1727304.
 *
 * Fields without norms (keyword, boolean) score as if the norm byte were 1 (LeafSimScorer reads 1
 * when a field has no norms), i.e. dl = 1, with avgdl still sumTotalTermFreq / docCount (for
 * docs-only fields Lucene reports sumTotalTermFreq = sumDocFreq).
 */
import { byte4ToInt } from './smallFloat';

const f = Math.fround;

export const K1 = f(1.2);
export const B = f(0.75);

/** Decoded field length for every norm byte (BM25Similarity.LENGTH_TABLE). */
export const LENGTH_TABLE: Float32Array = (() => {
  const table = new Float32Array(256);
  for (let i = 0; i < 256; i++) table[i] = byte4ToInt(i);
  return table;
})();

export interface CollectionStats {
  /** Number of live documents with at least one term in the field. */
  docCount: number;
  /** Sum of field lengths (text), or of per-document distinct term counts (docs-only fields). */
  sumTotalTermFreq: number;
}

export function idf(docFreq: number, docCount: number): number {
  return f(Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5)));
}

/** Sum of the per-term idfs, in double, cast once (BM25Similarity.idfExplain for several terms). */
export function phraseIdf(docFreqs: readonly number[], docCount: number): number {
  let sum = 0;
  for (const n of docFreqs) sum += idf(n, docCount);
  return f(sum);
}

export function avgFieldLength(stats: CollectionStats): number {
  return f(stats.sumTotalTermFreq / stats.docCount);
}

const cacheByAvgdl = new Map<number, Float32Array>();

/** The 256 precomputed norm inverses for one average length (memoized: they depend on avgdl only). */
export function normInverseCache(avgdl: number): Float32Array {
  let cache = cacheByAvgdl.get(avgdl);
  if (cache === undefined) {
    cache = new Float32Array(256);
    const oneMinusB = f(1 - B);
    for (let i = 0; i < 256; i++) {
      cache[i] = f(1 / f(K1 * f(oneMinusB + f(f(B * LENGTH_TABLE[i]) / avgdl))));
    }
    if (cacheByAvgdl.size > 4096) cacheByAvgdl.clear();
    cacheByAvgdl.set(avgdl, cache);
  }
  return cache;
}

export class BM25Scorer {
  readonly weight: number;
  private readonly cache: Float32Array;

  /** @param boost the boost BM25Similarity receives (already multiplied by 1 + k1 for the legacy form). */
  constructor(boost: number, idfValue: number, avgdl: number) {
    this.weight = f(boost * idfValue);
    this.cache = normInverseCache(avgdl);
  }

  /** @param freq term (or sloppy phrase) frequency, a float. @param norm the field's norm byte (1 without norms). */
  score(freq: number, norm: number): number {
    const normInverse = this.cache[norm & 0xff];
    return f(this.weight - f(this.weight / f(1 + f(freq * normInverse))));
  }
}

/** (1 + k1) in float, the factor LegacyBM25Similarity applies to every boost. */
export const LEGACY_BOOST_FACTOR = f(1 + K1);

/**
 * The scorer Elasticsearch creates for a term (one docFreq) or a phrase (several) under a query
 * boost: LegacyBM25Similarity.scorer(boost, collectionStats, termStats...).
 */
export function legacyBm25Scorer(boost: number, stats: CollectionStats, docFreqs: readonly number[]): BM25Scorer {
  const idfValue = docFreqs.length === 1 ? idf(docFreqs[0], stats.docCount) : phraseIdf(docFreqs, stats.docCount);
  return new BM25Scorer(f(boost * LEGACY_BOOST_FACTOR), idfValue, avgFieldLength(stats));
}
