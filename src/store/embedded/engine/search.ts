/**
 * The query pipeline shared by searches, counts and single-document matchers: parse the DSL (and the
 * caller's filter), build the Lucene query against the mapping, rewrite it, run it.
 */
import { QueryDsl } from '../../port';
import { InvertedIndex } from './invertedIndex';
import { evaluate } from './lucene/evaluate';
import { recordClauseCount } from './lucene/expand';
import { Scores, toScores } from './lucene/execute';
import { Matches } from './lucene/matches';
import { LQuery, MATCH_ALL, booleanQuery, countClauses } from './lucene/query';
import { DEFAULT_LIMITS, QueryLimits, tooManyClauses } from './limits';
import { rewrite } from './lucene/rewrite';
import { IndexMapping } from './mapping';
import { BuildContext, ParsedQuery } from './query/context';
import { parseQuery, parseQuerySteps } from './query/parse';
import { buildLeavesAhead } from './query/slices';
import { Budget, Steps } from './budget/budget';

const MATCH_ALL_QUERY: ParsedQuery = { toLucene: () => MATCH_ALL };

/** A search's query as parsed: the client's, and the caller's filter (the tenant's visibility). */
export interface ParsedSearch {
  readonly main: ParsedQuery;
  readonly filter: ParsedQuery | null;
  /** The leaves of `main` parsed ahead, when parsed in slices (query/slices.ts): built ahead too. */
  readonly leaves?: readonly ParsedQuery[];
}

/**
 * The query of a search: `query` (match_all when absent) and, when given, the caller's filter as
 * Elasticsearch runs {bool: {must: [query], filter: [filter]}} (the filter never changes scores).
 */
export function parseSearchQuery(query: QueryDsl | undefined, filter: QueryDsl | null | undefined, limits: QueryLimits = DEFAULT_LIMITS): ParsedSearch {
  const main = query === undefined ? MATCH_ALL_QUERY : parseQuery(query, 'query', limits);
  return { main, filter: filter === undefined || filter === null ? null : parseQuery(filter, 'filter', limits) };
}

/**
 * The rewritten Lucene query of a parsed search against a mapping. The client's query may hold at
 * most `maxClauseCount` leaf clauses (Lucene 9 counts them over the whole query, nested or not);
 * the caller's filter is not counted.
 */
export function buildQuery(parsed: ParsedSearch, mapping: IndexMapping, now: number, limits: QueryLimits = DEFAULT_LIMITS): LQuery {
  const ctx: BuildContext = { mapping, now, limits };
  return withFilter(parsed.main.toLucene(ctx), parsed, ctx);
}

/** The client's query counted, the caller's filter added, rewritten (what buildQuery does once the client's query is built). */
function withFilter(main: LQuery, parsed: ParsedSearch, ctx: BuildContext): LQuery {
  const { limits } = ctx;
  const clauses = countClauses(main);
  if (clauses > limits.maxClauseCount) throw tooManyClauses(limits.maxClauseCount);
  const query =
    parsed.filter === null
      ? rewrite(main)
      : rewrite(
          booleanQuery([
            { occur: 'must', query: main },
            { occur: 'filter', query: parsed.filter.toLucene(ctx) },
          ]),
        );
  // the terms multi-term queries expand to count too, when they are expanded (expand.ts)
  recordClauseCount(query, clauses, limits.maxClauseCount);
  return query;
}

/**
 * parseSearchQuery within a search's budget: the client's query parsed a slice at a time
 * (query/slices.ts), pausing when the budget's slice is over (never timing out: a search answers
 * `timed_out` with what it collected, and it has collected nothing yet).
 */
export function* parseSearchQuerySteps(query: QueryDsl | undefined, filter: QueryDsl | null | undefined, limits: QueryLimits, budget: Budget): Steps<ParsedSearch> {
  const main = query === undefined ? { query: MATCH_ALL_QUERY, leaves: [] } : yield* parseQuerySteps(query, 'query', limits, () => budget.sliceOver());
  return { main: main.query, filter: filter === undefined || filter === null ? null : parseQuery(filter, 'filter', limits), leaves: main.leaves };
}

/** buildQuery within a search's budget: the leaves parsed ahead built ahead, a slice at a time (query/slices.ts), then the query at once. */
export function* buildQuerySteps(parsed: ParsedSearch, mapping: IndexMapping, now: number, limits: QueryLimits, budget: Budget): Steps<LQuery> {
  const ctx: BuildContext = { mapping, now, limits, builtAhead: new Map() };
  if (parsed.leaves !== undefined) yield* buildLeavesAhead(parsed.leaves, ctx, budget);
  return withFilter(parsed.main.toLucene(ctx), parsed, { mapping, now, limits });
}

/** Matching documents of an index, ascending, with their scores when needed. */
export function matchQuery(parsed: ParsedSearch, mapping: IndexMapping, index: InvertedIndex, needsScores: boolean, now = Date.now()): Matches {
  return evaluate(buildQuery(parsed, mapping, now), index, 1, needsScores) ?? Matches.EMPTY;
}

/** Matching documents of an index with their scores when needed, as a Map. */
export function runQuery(parsed: ParsedSearch, mapping: IndexMapping, index: InvertedIndex, needsScores: boolean, now = Date.now()): Scores {
  return toScores(matchQuery(parsed, mapping, index, needsScores, now));
}
