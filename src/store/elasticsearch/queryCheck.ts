/**
 * Checked before anything is sent: the search request may hold only the allow-listed members, and
 * its query, filter, sort, `_source` and `search_after` must be what DESIGN.md "Embedded engine"
 * lists (the same parsers as the embedded store: same clauses accepted, same 400 and message for
 * an unsupported clause or a script). Elasticsearch accepts many more clauses (`more_like_this`,
 * `function_score`, `percolate`...): refusing them here keeps the API identical on both stores
 * and keeps expensive or scripted queries away from the cluster. What only the data can tell (a
 * sort on a text field) is left to Elasticsearch, whose reason is passed on (errors.ts).
 */
import { InvalidQueryError, type QueryDsl, type SearchRequest } from '../port';
import { parseSearchQuery } from '../embedded/engine/search';
import { parseSort } from '../embedded/engine/sort';
import { parseRequestOptions } from '../embedded/engine/collect/requestOptions';
import { parseHighlight } from '../embedded/engine/highlight/options';
import { parseAggregations } from '../embedded/engine/aggregations/parse';
import { DEFAULT_LIMITS } from '../embedded/engine/limits';

export const SEARCH_REQUEST_KEYS = [
  'query', 'sort', 'search_after', '_source', 'from', 'size', 'timeout', 'highlight', 'aggs',
  'track_total_hits', 'terminate_after', 'min_score', 'post_filter', 'explain', 'collapse', 'fields', 'docvalue_fields', 'stored_fields',
] as const;

function checkWindow(name: string, value: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new InvalidQueryError(`${name} must be a non-negative integer`);
}

/** Throws InvalidQueryError for a request that must not reach Elasticsearch. */
export function checkSearchRequest(request: SearchRequest, filter: QueryDsl | null): void {
  for (const key of Object.keys(request)) {
    // `key` names the request (a cache key); it is never sent
    if (key !== 'key' && !(SEARCH_REQUEST_KEYS as readonly string[]).includes(key)) {
      throw new InvalidQueryError(`unsupported body key "${key}" (allowed: ${SEARCH_REQUEST_KEYS.join(', ')})`);
    }
  }
  checkWindow('from', request.from);
  checkWindow('size', request.size);
  if (request.timeout !== undefined && !(typeof request.timeout === 'number' && request.timeout > 0)) throw new InvalidQueryError('timeout must be a positive number of milliseconds');
  const sort = parseSort(request.sort);
  // the engine's reading of the other members (_source, stored_fields, fields, track_total_hits, collapse, post_filter...): same refusals on both stores
  parseRequestOptions(request, DEFAULT_LIMITS);
  parseSearchQuery(request.query, filter);
  // the engine's reading of highlight: same options, defaults and refusals on both stores
  if (request.highlight !== undefined) parseHighlight(request.highlight, DEFAULT_LIMITS);
  // the engine's reading of aggs: same aggregations, parameters and refusals on both stores
  if (request.aggs !== undefined) parseAggregations(request.aggs, DEFAULT_LIMITS);
  const after = request.search_after;
  if (after !== undefined && after !== null) {
    if (!Array.isArray(after)) throw new InvalidQueryError('search_after must be an array');
    if (sort === null) throw new InvalidQueryError('search_after requires a sort (and a sort on _score descending alone is no sort)');
    if (after.length !== sort.length) throw new InvalidQueryError(`search_after has ${after.length} value(s) but sort has ${sort.length}`);
    if (request.from > 0) throw new InvalidQueryError('from must be 0 when search_after is used');
  }
}

/** The same for a count: a query and a filter. */
export function checkCountQuery(query: QueryDsl | undefined, filter: QueryDsl | null): void {
  parseSearchQuery(query, filter);
}
