/**
 * The query pipeline shared by searches, counts and single-document matchers: parse the DSL (and the
 * caller's filter), build the Lucene query against the mapping, rewrite it, run it.
 */
import { QueryDsl } from '../../port';
import { InvertedIndex } from './invertedIndex';
import { evaluate } from './lucene/evaluate';
import { Scores, toScores } from './lucene/execute';
import { Matches } from './lucene/matches';
import { LQuery, MATCH_ALL, booleanQuery } from './lucene/query';
import { rewrite } from './lucene/rewrite';
import { IndexMapping } from './mapping';
import { BuildContext, ParsedQuery } from './query/context';
import { parseQuery } from './query/parse';

const MATCH_ALL_QUERY: ParsedQuery = { toLucene: () => MATCH_ALL };

/**
 * The query of a search: `query` (match_all when absent) and, when given, the caller's filter as
 * Elasticsearch runs {bool: {must: [query], filter: [filter]}} (the filter never changes scores).
 */
export function parseSearchQuery(query: QueryDsl | undefined, filter: QueryDsl | null | undefined): ParsedQuery {
  const main = query === undefined ? MATCH_ALL_QUERY : parseQuery(query, 'query');
  if (filter === undefined || filter === null) return main;
  const restriction = parseQuery(filter, 'filter');
  return {
    toLucene: (ctx) =>
      booleanQuery([
        { occur: 'must', query: main.toLucene(ctx) },
        { occur: 'filter', query: restriction.toLucene(ctx) },
      ]),
  };
}

/** The rewritten Lucene query of a parsed query against a mapping. */
export function buildQuery(parsed: ParsedQuery, mapping: IndexMapping, now: number): LQuery {
  const ctx: BuildContext = { mapping, now };
  return rewrite(parsed.toLucene(ctx));
}

/** Matching documents of an index, ascending, with their scores when needed. */
export function matchQuery(parsed: ParsedQuery, mapping: IndexMapping, index: InvertedIndex, needsScores: boolean, now = Date.now()): Matches {
  return evaluate(buildQuery(parsed, mapping, now), index, 1, needsScores) ?? Matches.EMPTY;
}

/** Matching documents of an index with their scores when needed, as a Map. */
export function runQuery(parsed: ParsedQuery, mapping: IndexMapping, index: InvertedIndex, needsScores: boolean, now = Date.now()): Scores {
  return toScores(matchQuery(parsed, mapping, index, needsScores, now));
}
