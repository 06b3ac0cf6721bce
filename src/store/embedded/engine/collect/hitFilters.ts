/**
 * What Elasticsearch's QueryPhaseCollector does between the query and the collectors, over the
 * query's matches (documents ascending, as Lucene collects them): `min_score` drops the documents
 * scoring less, for the hits and the aggregations; `post_filter` then filters the hits only (and so
 * the total); `terminate_after` stops once that many documents passed both, the aggregations
 * having seen every document before the one that stopped it ("terminate_after is purposely
 * applied after post_filter, and terminates aggs collection based on number of filtered top hits").
 */
import { conjunction } from '../lucene/combine';
import { Matches, advance } from '../lucene/matches';

/** The documents scoring at least `minScore` (QueryPhaseCollector.isDocWithinMinScore). */
export function withMinScore(matches: Matches, minScore: number): Matches {
  if (matches.scores === null) return matches.constant >= minScore ? matches : Matches.EMPTY;
  const docs = matches.docs as Int32Array;
  const scores = matches.scores;
  const outDocs = new Int32Array(matches.size);
  const outScores = new Float32Array(matches.size);
  let n = 0;
  for (let i = 0; i < matches.size; i++) {
    if (scores[i] < minScore) continue;
    outDocs[n] = docs[i];
    outScores[n++] = scores[i];
  }
  return Matches.list(outDocs, n, outScores);
}

/** The matches that the post filter's documents also hold, with their own scores. */
export function withPostFilter(matches: Matches, filter: Matches | null, needsScores: boolean): Matches {
  if (filter === null || matches.size === 0) return Matches.EMPTY;
  return conjunction([matches, filter], [matches], needsScores);
}

export interface Terminated {
  /** The first `terminateAfter` hits. */
  hits: Matches;
  /** What the aggregations see: their matches before the first hit left out. */
  aggs: Matches;
  terminated: boolean;
}

/** `terminate_after`: the first `limit` hits, and the aggregations' matches up to the next hit. */
export function terminateAfter(hits: Matches, aggs: Matches, limit: number): Terminated {
  if (limit <= 0 || hits.size <= limit) return { hits, aggs, terminated: false };
  const list = hits.toList();
  const stop = (list.docs as Int32Array)[limit];
  return { hits: prefix(list, limit), aggs: before(aggs, stop), terminated: true };
}

/** The first `n` documents of a list. */
function prefix(list: Matches, n: number): Matches {
  return Matches.list((list.docs as Int32Array).subarray(0, n), n, list.scores === null ? null : list.scores.subarray(0, n), list.constant);
}

/** The documents before `doc`. */
function before(matches: Matches, doc: number): Matches {
  const list = matches.toList();
  return prefix(list, advance(list.docs as Int32Array, 0, list.size, doc));
}
