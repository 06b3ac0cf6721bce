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
import { parseQuery } from './query/parse';

const MATCH_ALL_QUERY: ParsedQuery = { toLucene: () => MATCH_ALL };

/** A search's query as parsed: the client's, and the caller's filter (the tenant's visibility). */
export interface ParsedSearch {
  readonly main: ParsedQuery;
  readonly filter: ParsedQuery | null;
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
  const main = parsed.main.toLucene(ctx);
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

/** Matching documents of an index, ascending, with their scores when needed. */
export function matchQuery(parsed: ParsedSearch, mapping: IndexMapping, index: InvertedIndex, needsScores: boolean, now = Date.now()): Matches {
  return evaluate(buildQuery(parsed, mapping, now), index, 1, needsScores) ?? Matches.EMPTY;
}

/** Matching documents of an index with their scores when needed, as a Map. */
export function runQuery(parsed: ParsedSearch, mapping: IndexMapping, index: InvertedIndex, needsScores: boolean, now = Date.now()): Scores {
  return toScores(matchQuery(parsed, mapping, index, needsScores, now));
}
