/**
 * The members of a search request beyond its query, page, sort, highlight and aggregations, read
 * once for both stores (the Elasticsearch store checks a request with the same reading before
 * sending it): `track_total_hits`, `terminate_after`, `min_score`, `post_filter`, `explain`,
 * `collapse`, and what each hit carries (`_source`, `stored_fields`, `fields`, `docvalue_fields`).
 */
import { InvalidQueryError, SearchRequest } from '../../../port';
import { CollapseRequest, parseCollapse } from '../collapse';
import { FetchOptions, parseFetchOptions } from '../fetch/fetchOptions';
import { describe } from '../json';
import { DEFAULT_LIMITS, QueryLimits } from '../limits';
import { ParsedQuery } from '../query/context';
import { parseQuery } from '../query/parse';
import { parseTrackTotalHits } from './totalHits';

export interface RequestOptions {
  /** Matches counted exactly (totalHits.ts: TRACK_ALL, TRACK_NONE or a bound). */
  track: number;
  /** 0: no `terminate_after`. */
  terminateAfter: number;
  minScore: number | null;
  postFilter: ParsedQuery | null;
  explain: boolean;
  collapse: CollapseRequest | null;
  fetch: FetchOptions;
}

function terminateAfter(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new InvalidQueryError(`terminate_after must be a non-negative integer, got ${describe(value)}`);
  return value;
}

export function parseRequestOptions(request: SearchRequest, limits: QueryLimits = DEFAULT_LIMITS): RequestOptions {
  const minScore = request.min_score;
  if (minScore !== undefined && minScore !== null && (typeof minScore !== 'number' || !Number.isFinite(minScore))) throw new InvalidQueryError(`min_score must be a number, got ${describe(minScore)}`);
  const explain = request.explain;
  if (explain !== undefined && explain !== null && typeof explain !== 'boolean') throw new InvalidQueryError(`explain must be a boolean, got ${describe(explain)}`);
  const collapse = parseCollapse(request.collapse);
  if (collapse !== null && request.search_after !== undefined && request.search_after !== null) {
    const sort = Array.isArray(request.sort) ? request.sort : request.sort === undefined || request.sort === null ? [] : [request.sort];
    const on = sort.length === 1 ? (typeof sort[0] === 'string' ? sort[0] : Object.keys(sort[0] as object)[0]) : undefined;
    if (on !== collapse.field) throw new InvalidQueryError('cannot use `collapse` in conjunction with `search_after` unless the search is sorted on the same field. Multiple sort fields are not allowed.');
  }
  return {
    track: parseTrackTotalHits(request.track_total_hits),
    terminateAfter: terminateAfter(request.terminate_after),
    minScore: typeof minScore === 'number' ? minScore : null,
    postFilter: request.post_filter === undefined || request.post_filter === null ? null : parseQuery(request.post_filter, 'post_filter', limits),
    explain: explain === true,
    collapse,
    fetch: parseFetchOptions(request),
  };
}
