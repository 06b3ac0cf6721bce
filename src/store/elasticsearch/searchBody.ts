/**
 * The request bodies of `_search` and `_count`: the caller's query with the visibility filter as a
 * `bool.filter` (a filter never changes scores: `{bool: {must: [q], filter: [f]}}` scores as `q`
 * alone), `track_total_hits: true` (unless the request bounds it) so that totals are exact beyond 10,000, and only the members of
 * the allow-list (queryCheck.ts), copied one by one (`highlight` with the caller's query as its
 * `highlight_query` when there is a filter).
 */
import type { QueryDsl, SearchRequest } from '../port';
import { aggsToSend } from './aggregations';
import { checkCountQuery, checkSearchRequest } from './queryCheck';

const PASSED_THROUGH = ['terminate_after', 'min_score', 'post_filter', 'explain', 'collapse', 'fields', 'docvalue_fields', 'stored_fields'] as const;

export interface SearchBody extends Pick<SearchRequest, (typeof PASSED_THROUGH)[number]> {
  query?: QueryDsl;
  from: number;
  size: number;
  sort?: unknown;
  search_after?: unknown[];
  _source?: unknown;
  /** true unless the request bounds or disables it: totals are exact beyond 10,000. */
  track_total_hits: boolean | number;
  /** The search's time budget (Elasticsearch's time units: milliseconds here). */
  timeout?: string;
  highlight?: Record<string, unknown>;
  aggs?: Record<string, unknown>;
}

/** The query of a search or count: the caller's, restricted by the filter when there is one. */
export function restrictedQuery(query: QueryDsl | undefined, filter: QueryDsl | null): QueryDsl | undefined {
  if (filter === null) return query;
  return { bool: { must: [query ?? { match_all: {} }], filter: [filter] } };
}

export function buildSearchBody(request: SearchRequest, filter: QueryDsl | null): SearchBody {
  checkSearchRequest(request, filter);
  const body: SearchBody = { from: request.from, size: request.size, track_total_hits: request.track_total_hits ?? true };
  const query = restrictedQuery(request.query, filter);
  if (query !== undefined) body.query = query;
  // A sort string goes into an array: the client would send "field:asc" as a query-string sort.
  if (request.sort !== undefined && request.sort !== null) body.sort = Array.isArray(request.sort) ? request.sort : [request.sort];
  if (request.search_after !== undefined && request.search_after !== null) body.search_after = request.search_after;
  if (request._source !== undefined && request._source !== null) body._source = request._source;
  if (request.timeout !== undefined) body.timeout = `${request.timeout}ms`;
  if (request.highlight !== undefined) body.highlight = highlightOf(request, filter);
  if (request.aggs !== undefined) body.aggs = aggsToSend(request.aggs, filter);
  // passed through as they are: the visibility filter is in `query`, which post_filter narrows and
  // collapse's inner hits search within (ExpandSearchPhase runs the request's query for each group)
  for (const name of PASSED_THROUGH) if (request[name] !== undefined) (body as unknown as Record<string, unknown>)[name] = request[name];
  return body;
}

/**
 * The request's highlight as it is, except that, under a visibility filter, it highlights the
 * caller's query (`highlight_query`, unless the request gives its own): Elasticsearch highlights the
 * whole query by default, the gateway's filter included, which would highlight the caller's tenants
 * in `allowTenantIds`; the embedded store highlights the caller's query only.
 */
function highlightOf(request: SearchRequest, filter: QueryDsl | null): Record<string, unknown> {
  const highlight = request.highlight as Record<string, unknown>;
  if (filter === null || Object.prototype.hasOwnProperty.call(highlight, 'highlight_query')) return highlight;
  return { ...highlight, highlight_query: request.query ?? { match_all: {} } };
}

export function buildCountBody(query: QueryDsl | undefined, filter: QueryDsl | null): { query?: QueryDsl } {
  checkCountQuery(query, filter);
  const restricted = restrictedQuery(query, filter);
  return restricted === undefined ? {} : { query: restricted };
}
