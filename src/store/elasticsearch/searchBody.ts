/**
 * The request bodies of `_search` and `_count`: the caller's query with the visibility filter as a
 * `bool.filter` (a filter never changes scores: `{bool: {must: [q], filter: [f]}}` scores as `q`
 * alone), `track_total_hits: true` so that totals are exact beyond 10,000, and only the members of
 * the allow-list (queryCheck.ts), copied one by one.
 */
import type { QueryDsl, SearchRequest } from '../port';
import { checkCountQuery, checkSearchRequest } from './queryCheck';

export interface SearchBody {
  query?: QueryDsl;
  from: number;
  size: number;
  sort?: unknown;
  search_after?: unknown[];
  _source?: unknown;
  track_total_hits: true;
  /** The search's time budget (Elasticsearch's time units: milliseconds here). */
  timeout?: string;
}

/** The query of a search or count: the caller's, restricted by the filter when there is one. */
export function restrictedQuery(query: QueryDsl | undefined, filter: QueryDsl | null): QueryDsl | undefined {
  if (filter === null) return query;
  return { bool: { must: [query ?? { match_all: {} }], filter: [filter] } };
}

export function buildSearchBody(request: SearchRequest, filter: QueryDsl | null): SearchBody {
  checkSearchRequest(request, filter);
  const body: SearchBody = { from: request.from, size: request.size, track_total_hits: true };
  const query = restrictedQuery(request.query, filter);
  if (query !== undefined) body.query = query;
  // A sort string goes into an array: the client would send "field:asc" as a query-string sort.
  if (request.sort !== undefined && request.sort !== null) body.sort = Array.isArray(request.sort) ? request.sort : [request.sort];
  if (request.search_after !== undefined && request.search_after !== null) body.search_after = request.search_after;
  if (request._source !== undefined && request._source !== null) body._source = request._source;
  if (request.timeout !== undefined) body.timeout = `${request.timeout}ms`;
  return body;
}

export function buildCountBody(query: QueryDsl | undefined, filter: QueryDsl | null): { query?: QueryDsl } {
  checkCountQuery(query, filter);
  const restricted = restrictedQuery(query, filter);
  return restricted === undefined ? {} : { query: restricted };
}
