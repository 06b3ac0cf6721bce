/**
 * Aggregations as a search runs them (searchIndex.ts): over the documents the search matched (its
 * query and the caller's filter), with the context every aggregation reads — the index and its
 * mapping, the search's `now` and time budget, the bucket counter of search.max_buckets, the
 * documents the caller may see (`global`), query evaluation for `filter`/`filters`, and the search's
 * scores (`top_hits`).
 */
import { Budget, Steps, TimeExceeded, UNLIMITED, runToEnd } from '../budget/budget';
import { InvertedIndex } from '../invertedIndex';
import { QueryLimits } from '../limits';
import { evaluateSteps } from '../lucene/evaluate';
import { Matches, advance } from '../lucene/matches';
import { MATCH_ALL, matchNone } from '../lucene/query';
import { IndexMapping } from '../mapping';
import { ParsedQuery } from '../query/context';
import { buildQuery } from '../search';
import { BucketCounter, DEFAULT_MAX_BUCKETS } from './bucketCounter';
import { runAggregations } from './run';
import { AggContext, AggNode, AggResult, EMPTY_DOCS } from './types';

export interface AggregationInput {
  readonly nodes: readonly AggNode[];
  readonly index: InvertedIndex;
  readonly mapping: IndexMapping;
  readonly limits: QueryLimits;
  readonly now: number;
  readonly budget: Budget;
  /** What the search matched (with scores when it computed them). */
  readonly matches: Matches;
  /** The caller's filter (tenant visibility), null when the caller sees everything. */
  readonly filter: ParsedQuery | null;
}

const MATCH_ALL_QUERY: ParsedQuery = { toLucene: () => MATCH_ALL };
const MATCH_NONE_QUERY: ParsedQuery = { toLucene: () => matchNone('timed out') };

export function* aggregate(input: AggregationInput): Steps<AggResult> {
  const { index, mapping, limits, now, budget, matches } = input;
  const evaluate = function* (query: ParsedQuery): Steps<Matches> {
    return (yield* evaluateSteps(buildQuery({ main: query, filter: null }, mapping, now, limits), index, 1, false, budget)) ?? Matches.EMPTY;
  };
  let visible: Int32Array | null = null;
  const list = matches.scores === null ? null : matches.toList();
  const ctx: AggContext = {
    index,
    mapping,
    limits,
    now,
    budget,
    buckets: new BucketCounter(limits.maxBuckets ?? DEFAULT_MAX_BUCKETS),
    *visibleDocs() {
      return (visible ??= (yield* evaluate(input.filter ?? MATCH_ALL_QUERY)).docList());
    },
    queryMatches: evaluate,
    scoreOf(doc) {
      if (list === null) return matches.constant;
      const docs = list.docs as Int32Array;
      const i = advance(docs, 0, list.size, doc);
      return i < list.size && docs[i] === doc ? list.scoreAt(i) : 0;
    },
  };
  return yield* runAggregations(input.nodes, matches.size === 0 ? EMPTY_DOCS : matches.docList(), ctx);
}

/**
 * A search's aggregations: over what it matched, or, once the search is past its deadline (before
 * or while aggregating), over no documents at all, at once, so that the answer keeps its shape
 * (every aggregation present, with zero counts) and says `timed_out`.
 */
export function* searchAggregations(input: AggregationInput, timedOut: boolean): Steps<{ aggregations: AggResult; timedOut: boolean }> {
  if (!timedOut) {
    try {
      return { aggregations: yield* aggregate(input), timedOut: false };
    } catch (err) {
      if (!(err instanceof TimeExceeded)) throw err;
    }
  }
  const empty: AggregationInput = { ...input, matches: Matches.EMPTY, budget: UNLIMITED, filter: MATCH_NONE_QUERY };
  return { aggregations: runToEnd(aggregate(empty)), timedOut: true };
}
