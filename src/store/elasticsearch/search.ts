/**
 * `_search` and `_count` on one index, shared by entities and API keys. A missing index is an
 * empty result (ignore_unavailable + allow_no_indices), never an error: types are open, and an
 * index only exists once something was written to it.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { CountResult, QueryDsl, SearchRequest, SearchResult } from '../port';
import type { Backend } from './backend';
import { parseAggregations } from '../embedded/engine/aggregations/parse';
import { buildCountBody, buildSearchBody } from './searchBody';
import { toSearchResult, type EsSearchResponse } from './searchResult';

const MISSING_INDEX_IS_EMPTY = { ignore_unavailable: true, allow_no_indices: true } as const;

export async function runSearch(backend: Backend, index: string, request: SearchRequest, filter: QueryDsl | null): Promise<SearchResult> {
  const body = buildSearchBody(request, filter);
  const params = { index, ...body, ...MISSING_INDEX_IS_EMPTY } as unknown as estypes.SearchRequest;
  const response = await backend.call('query', (client) => client.search(params));
  const aggs = request.aggs === undefined ? null : { nodes: parseAggregations(request.aggs), json: request.aggs };
  return toSearchResult(response as unknown as EsSearchResponse, { aggs, track_total_hits: request.track_total_hits, filter });
}

export async function runCount(backend: Backend, index: string, query: QueryDsl | undefined, filter: QueryDsl | null): Promise<CountResult> {
  const body = buildCountBody(query, filter);
  const params = { index, ...body, ...MISSING_INDEX_IS_EMPTY } as unknown as estypes.CountRequest;
  const response = await backend.call('query', (client) => client.count(params));
  return { count: response.count };
}
