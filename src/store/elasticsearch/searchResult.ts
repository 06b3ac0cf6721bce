/**
 * An Elasticsearch search response as the port's SearchResult: hits in Elasticsearch's order with
 * its scores (null when sorted by fields, as Elasticsearch answers), `sort` values when it gives
 * them, each hit's `highlight` when it has one, and the exact total (track_total_hits: true, so the
 * relation is always "eq").
 */
import type { Doc, Hit, SearchResult } from '../port';
import type { AggNode } from '../embedded/engine/aggregations/types';
import { aggregationsReceived } from './aggregations';

interface EsHit {
  _id?: string;
  _score?: number | null;
  _source?: Doc;
  highlight?: Record<string, string[]>;
  sort?: unknown[];
}

export interface EsSearchResponse {
  hits: { total?: number | { value: number; relation?: string }; hits: EsHit[] };
  timed_out?: boolean;
  aggregations?: unknown;
}

/** `aggs`: the request's aggregations (their answers are read with them), parsed and as sent, or null. */
export function toSearchResult(response: EsSearchResponse, aggs: { nodes: readonly AggNode[]; json: Record<string, unknown> } | null = null): SearchResult {
  const total = response.hits.total;
  const hits = response.hits.hits.map((h): Hit => {
    // `_source: false` gives hits without a source: the port's hits always carry one.
    const hit: Hit = { _id: String(h._id), _score: typeof h._score === 'number' ? h._score : null, _source: h._source ?? {} };
    if (h.highlight !== undefined && h.highlight !== null && typeof h.highlight === 'object') hit.highlight = h.highlight;
    if (Array.isArray(h.sort)) hit.sort = h.sort;
    return hit;
  });
  const result: SearchResult = { hits, total: typeof total === 'number' ? total : (total?.value ?? hits.length) };
  if (response.timed_out === true) result.timed_out = true;
  if (aggs !== null) result.aggregations = aggregationsReceived(aggs.nodes, response.aggregations, aggs.json);
  return result;
}
