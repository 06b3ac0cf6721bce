/**
 * Lucene's CombinedFieldQuery (lucene-sandbox, Lucene 9.1+, which Elasticsearch 8's combined_fields
 * builds): terms looked for in several text fields, scored as if the fields were one (BM25F). Read
 * from CombinedFieldQuery.CombinedFieldWeight and MultiNormsLeafSimScorer:
 *
 * - term statistics: docFreq = the largest document frequency of any (field, term) pair in the
 *   index (Math.max);
 * - collection statistics of the "pseudo field", over the fields in name order: docCount the
 *   largest docCount, sumTotalTermFreq the weighted sum, each step `long += (double) weight * sttf`
 *   (so truncated to an integer at each field);
 * - the scorer: the searcher's similarity for those statistics (Elasticsearch's LegacyBM25: the
 *   boost times 1 + k1), as legacyBm25Scorer builds it;
 * - a document's frequency: the float sum of weight * freq over the pairs it holds (the pairs in
 *   field then term order here; Lucene sums them in the order of its disjunction queue, which gives
 *   the same float whenever the products are exact, as with integer or half weights);
 * - a document's norm: the float sum, over the fields in name order, of weight * the decoded length
 *   of its norm byte (0 without the field), rounded (Math.round) and encoded again with
 *   SmallFloat.intToByte4;
 * - without scores: the disjunction of the pairs' term queries (rewriteToBoolean), constant 0.
 *
 * Single fields are not rewritten (LUCENE-10039: a lone field's weight still multiplies its
 * frequencies and lengths), unlike Lucene 8's BM25FQuery.
 */
import { FieldIndex } from '../fieldIndex';
import { InvertedIndex } from '../invertedIndex';
import { BM25Scorer, CollectionStats, LENGTH_TABLE, legacyBm25Scorer } from '../similarity';
import { intToByte4 } from '../smallFloat';
import { FREQ_OVERFLOW_MARK, TermPostings } from '../termPostings';
import { sortedUnion } from './docSets';
import { Matches, advance } from './matches';
import { BooleanQuery, CombinedFieldQuery, booleanQuery, termQuery } from './query';
import { livePostings } from './termMatches';

const f = Math.fround;

/** CombinedFieldQuery.rewriteToBoolean: every (field, term) pair as a SHOULD term query. */
export function combinedFieldAsBoolean(query: CombinedFieldQuery): BooleanQuery {
  return booleanQuery(query.fields.flatMap(({ field }) => query.terms.map((term) => ({ occur: 'should' as const, query: termQuery(field, term) }))));
}

/** One (field, term) pair present in the index: its live documents and their frequencies. */
interface Pair {
  readonly field: FieldIndex;
  readonly weight: number;
  readonly t: number;
  readonly docs: Int32Array;
  /** Position in the stored postings of each live document (null: the same as in `docs`). */
  readonly index: Int32Array | null;
  readonly size: number;
}

function pairsOf(query: CombinedFieldQuery, index: InvertedIndex): Pair[] {
  const pairs: Pair[] = [];
  for (const { field: name, weight } of query.fields) {
    const field = index.field(name);
    if (field === undefined || field.terms === null) continue;
    for (const term of query.terms) {
      const t = field.termId(term);
      if (t < 0) continue;
      pairs.push({ field, weight, t, ...livePostings(field, t) });
    }
  }
  return pairs;
}

/** The merged statistics and the scorer of CombinedFieldWeight (null when no pair is in the index). */
export function combinedFieldScorer(query: CombinedFieldQuery, index: InvertedIndex, boost: number): { scorer: BM25Scorer; docFreq: number; stats: CollectionStats } | null {
  let docFreq = 0;
  for (const { field: name } of query.fields) {
    const field = index.field(name);
    if (field === undefined || field.terms === null) continue;
    for (const term of query.terms) {
      const t = field.termId(term);
      if (t >= 0) docFreq = Math.max(docFreq, field.terms.df[t]);
    }
  }
  if (docFreq === 0) return null;
  let docCount = 0;
  let sumTotalTermFreq = 0;
  for (const { field: name, weight } of query.fields) {
    const field = index.field(name);
    // IndexSearcher.collectionStatistics: null for a field no live document has
    if (field === undefined || field.docCount === 0) continue;
    docCount = Math.max(docCount, field.docCount);
    sumTotalTermFreq = Math.trunc(sumTotalTermFreq + weight * field.sumTotalTermFreq);
  }
  const stats = { docCount, sumTotalTermFreq };
  return { scorer: legacyBm25Scorer(boost, stats, [docFreq]), docFreq, stats };
}

type NormFields = readonly { readonly field: FieldIndex; readonly weight: number }[];

/** The query's fields that have norms in the index, in name order. */
function normFields(query: CombinedFieldQuery, index: InvertedIndex): NormFields {
  const out: { field: FieldIndex; weight: number }[] = [];
  for (const { field: name, weight } of query.fields) {
    const field = index.field(name);
    if (field !== undefined && field.hasNorms) out.push({ field, weight });
  }
  return out;
}

/** MultiFieldNormValues.advanceExact: the combined norm byte of a document. */
function normOf(fields: NormFields, doc: number): number {
  let normValue = 0;
  for (const { field, weight } of fields) normValue = f(normValue + f(weight * LENGTH_TABLE[field.norm(doc)]));
  return intToByte4(Math.min(Math.round(normValue), 0x7fffffff));
}

/** The combined norm byte of a document. */
export function combinedNorm(query: CombinedFieldQuery, index: InvertedIndex, doc: number): number {
  return normOf(normFields(query, index), doc);
}

/** The combined frequency of a document (the float sum of weight * freq over the pairs it holds; 0: none). */
export function combinedFreq(query: CombinedFieldQuery, index: InvertedIndex, doc: number): number {
  let freq = 0;
  for (const pair of pairsOf(query, index)) {
    const at = advance(pair.docs, 0, pair.size, doc);
    if (at < pair.size && pair.docs[at] === doc) freq = f(freq + pairFreq(pair, at, doc));
  }
  return freq;
}

function pairFreq(pair: Pair, at: number, doc: number): number {
  const freqs = (pair.field.terms as TermPostings).freqs(pair.t);
  let freq = freqs === null ? 1 : freqs[pair.index === null ? at : pair.index[at]];
  if (freq === FREQ_OVERFLOW_MARK) freq = pair.field.freq(pair.t, doc, freq);
  return f(pair.weight * freq);
}

/** The query's matches (null when none of its pairs is in the index: Lucene has no scorer then). */
export function combinedFieldMatches(query: CombinedFieldQuery, index: InvertedIndex, boost: number, needsScores: boolean): Matches | null {
  const pairs = pairsOf(query, index);
  if (pairs.length === 0) return null;
  const { docs, size: n } = sortedUnion(pairs);
  if (!needsScores) return Matches.list(docs, n, null, 0);
  const { scorer } = combinedFieldScorer(query, index, boost) as NonNullable<ReturnType<typeof combinedFieldScorer>>;
  // the weighted frequencies, summed pair by pair (each pair's documents walked once)
  const freqs = new Float32Array(n);
  for (const pair of pairs) {
    let at = 0;
    for (let i = 0; i < pair.size; i++) {
      const doc = pair.docs[i];
      at = advance(docs, at, n, doc);
      freqs[at] = f(freqs[at] + pairFreq(pair, i, doc));
    }
  }
  const norms = normFields(query, index);
  const scores = new Float32Array(n);
  for (let i = 0; i < n; i++) scores[i] = scorer.score(freqs[i], normOf(norms, docs[i]));
  return Matches.list(docs, n, scores, 0);
}
