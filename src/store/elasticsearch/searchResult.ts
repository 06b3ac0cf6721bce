/**
 * An Elasticsearch search response as the port's SearchResult: hits in Elasticsearch's order with
 * its scores (null when sorted by fields, as Elasticsearch answers), `sort` values when it gives
 * them, each hit's `highlight` when it has one, and the exact total (track_total_hits: true, so the
 * relation is always "eq").
 */
import type { Doc, Hit, InnerHits, NestedIdentity, QueryDsl, SearchResult } from '../port';
import { isPlainObject, setOwn } from '../embedded/engine/json';
import { withoutFilter } from './explanation';
import type { AggNode } from '../embedded/engine/aggregations/types';
import { aggregationsReceived } from './aggregations';

interface EsHit {
  _id?: string;
  _score?: number | null;
  _source?: Doc;
  fields?: Record<string, unknown[]>;
  highlight?: Record<string, string[]>;
  sort?: unknown[];
  inner_hits?: Record<string, { hits?: EsHits }>;
  _nested?: NestedIdentity;
  _explanation?: unknown;
}

interface EsHits {
  total?: number | { value: number; relation?: string };
  max_score?: number | null;
  hits: EsHit[];
}

export interface EsSearchResponse {
  hits: EsHits;
  timed_out?: boolean;
  terminated_early?: boolean;
  aggregations?: unknown;
}

/** What the answer depends on besides the response: the aggregations asked for, whether totals were bounded, the visibility filter (explanations). */
export interface ResultContext {
  aggs?: { nodes: readonly AggNode[]; json: Record<string, unknown> } | null;
  track_total_hits?: boolean | number;
  filter?: QueryDsl | null;
}

function toHit(h: EsHit, filter: QueryDsl | null): Hit {
  // `_source: false`, `stored_fields`: Elasticsearch's hit has no `_source`, nor has the gateway's
  const hit: Hit = { _id: String(h._id), _score: typeof h._score === 'number' ? h._score : null };
  if (isPlainObject(h._nested)) hit._nested = h._nested; // an inner hit of a nested query
  if (h._source !== undefined && h._source !== null) hit._source = h._source;
  if (isPlainObject(h.fields)) hit.fields = h.fields;
  if (h.highlight !== undefined && h.highlight !== null && typeof h.highlight === 'object') hit.highlight = h.highlight;
  if (Array.isArray(h.sort)) hit.sort = h.sort;
  if (isPlainObject(h.inner_hits)) {
    const inner: Record<string, InnerHits> = {};
    for (const [name, value] of Object.entries(h.inner_hits)) {
      const hits = value?.hits ?? { hits: [] };
      const total = hits.total;
      setOwn(inner, name, { hits: { total: typeof total === 'number' ? total : (total?.value ?? hits.hits.length), max_score: typeof hits.max_score === 'number' ? hits.max_score : null, hits: hits.hits.map((x) => toHit(x, filter)) } });
    }
    hit.inner_hits = inner;
  }
  if (h._explanation !== undefined) {
    const explanation = withoutFilter(h._explanation, filter);
    if (explanation !== undefined) hit._explanation = explanation;
  }
  return hit;
}

/**
 * `context.aggs`: the request's aggregations (their answers are read with them), parsed and as sent;
 * `context.track_total_hits`: false gives `total` -1 (Elasticsearch sends none), a number gives the
 * relation beside the total.
 */
export function toSearchResult(response: EsSearchResponse, context: ResultContext = {}): SearchResult {
  const total = response.hits.total;
  const filter = context.filter ?? null;
  const hits = response.hits.hits.map((h) => toHit(h, filter));
  const track = context.track_total_hits;
  const result: SearchResult = { hits, total: track === false ? -1 : typeof total === 'number' ? total : (total?.value ?? hits.length) };
  if (typeof track === 'number') result.total_relation = typeof total === 'object' && total?.relation === 'gte' ? 'gte' : 'eq';
  if (typeof response.terminated_early === 'boolean') result.terminated_early = response.terminated_early;
  if (response.timed_out === true) result.timed_out = true;
  const aggs = context.aggs ?? null;
  if (aggs !== null) result.aggregations = aggregationsReceived(aggs.nodes, response.aggregations, aggs.json);
  return result;
}
