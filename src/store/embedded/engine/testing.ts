/**
 * Test support (no test framework needed): the LegacyBM25 score of one term written out step by step
 * in float32, so that tests state their statistics (N, n, freq, dl, avgdl) and get Lucene's float.
 */

const f = Math.fround;

export interface TermScoreInput {
  /** Documents having the field (docCount). */
  N: number;
  /** Documents having the term (docFreq). */
  n: number;
  /** Term frequency in the document (1 for keyword and boolean fields). */
  freq: number;
  /** Decoded document length (1 for fields without norms). */
  dl: number;
  /** Average length, sumTotalTermFreq / docCount, before the float cast. */
  avgdl: number;
  boost?: number;
  /** A phrase's summed idf, instead of the idf of n. */
  idf?: number;
}

/** idf = (float) ln(1 + (N - n + 0.5) / (n + 0.5)) */
export function expectedIdf(N: number, n: number): number {
  return f(Math.log(1 + (N - n + 0.5) / (n + 0.5)));
}

/**
 * weight = (boost * (1 + k1)) * idf; normInverse = 1 / (k1 * ((1 - b) + b * dl / avgdl));
 * score = weight - weight / (1 + freq * normInverse), every operation rounded to float.
 */
export function expectedScore({ N, n, freq, dl, avgdl, boost = 1, idf }: TermScoreInput): number {
  const k1 = f(1.2);
  const b = f(0.75);
  const idfValue = idf ?? expectedIdf(N, n);
  const weight = f(f(boost * f(1 + k1)) * idfValue);
  const normInverse = f(1 / f(k1 * f(f(1 - b) + f(f(b * dl) / f(avgdl)))));
  return f(weight - f(weight / f(1 + f(freq * normInverse))));
}

/** Three countries, the reference example: name "France", "French Guiana", "South Africa". */
export const COUNTRIES: readonly [string, Record<string, unknown>][] = [
  ['1', { id: '1', name: 'France', code: 'FR', population: 68, area: 551.5, eu: true, created: '1958-10-04', tags: ['wine', 'cheese'] }],
  ['2', { id: '2', name: 'French Guiana', code: 'GF', population: 0, area: 83.5, eu: true, created: '1946-03-19', tags: ['space'] }],
  ['3', { id: '3', name: 'South Africa', code: 'ZA', population: 60, area: 1221, eu: false, created: '1961-05-31' }],
];

/** A SearchIndex-like target, to keep this module free of imports from the engine. */
interface Indexable {
  put(id: string, source: Record<string, unknown>): void;
}

export function indexAll<T extends Indexable>(index: T, docs: readonly [string, Record<string, unknown>][]): T {
  for (const [id, doc] of docs) index.put(id, doc);
  return index;
}
