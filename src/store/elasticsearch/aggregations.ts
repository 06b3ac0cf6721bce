/**
 * A search's `aggs` on their way to Elasticsearch and their answers on the way back.
 *
 * Sent as given (checked first by the engine's parser, queryCheck.ts), with one exception:
 * Elasticsearch's `global` aggregation ignores the query, and with it the caller's visibility
 * filter, so it would count every tenant's entities. It is sent as a `filter` aggregation on the
 * visibility filter instead (match_all for a caller who sees everything): the same answer shape
 * (`{doc_count, ...}`), over exactly what the embedded store's `global` runs over.
 *
 * Answers come back as Elasticsearch gives them, except `top_hits` hits, which are shaped as the
 * port's search hits (`_id`, `_score`, `_source`, `sort`: no `_index`, which names the cluster's
 * index, and `_source: {}` when it was turned off).
 */
import type { QueryDsl } from '../port';
import type { AggNode } from '../embedded/engine/aggregations/types';
import { isPlainObject, setOwn } from '../embedded/engine/json';
import { SearchIndex } from '../embedded/engine/searchIndex';

/** The aggs to send: `global` (top level only) turned into a filter on the caller's visibility. */
export function aggsToSend(aggs: Record<string, unknown>, filter: QueryDsl | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(aggs)) {
    const def = aggs[name];
    if (isPlainObject(def) && Object.prototype.hasOwnProperty.call(def, 'global')) {
      const { global: _global, ...rest } = def;
      setOwn(out, name, { filter: filter ?? { match_all: {} }, ...rest });
    } else {
      setOwn(out, name, def);
    }
  }
  return out;
}

function topHitsHit(hit: unknown): unknown {
  if (!isPlainObject(hit)) return hit;
  const out: Record<string, unknown> = { _id: hit._id, _score: typeof hit._score === 'number' ? hit._score : null, _source: isPlainObject(hit._source) ? hit._source : {} };
  if (Array.isArray(hit.sort)) out.sort = hit.sort;
  return out;
}

function shape(nodes: readonly AggNode[], answers: Record<string, unknown>): void {
  for (const node of nodes) {
    const answer = answers[node.name];
    if (!isPlainObject(answer)) continue;
    if (node.agg.type === 'top_hits') {
      const hits = answer.hits;
      if (isPlainObject(hits) && Array.isArray(hits.hits)) hits.hits = hits.hits.map(topHitsHit);
      continue;
    }
    if (node.subs.length === 0) continue;
    const buckets = answer.buckets;
    if (Array.isArray(buckets)) buckets.forEach((b) => isPlainObject(b) && shape(node.subs, b));
    else if (isPlainObject(buckets)) Object.values(buckets).forEach((b) => isPlainObject(b) && shape(node.subs, b));
    else shape(node.subs, answer);
  }
}

/**
 * Elasticsearch's `aggregations` answer, top_hits hits shaped as the port's hits. Without one (a
 * type with no index yet: Elasticsearch answers no aggregations), the answers over no documents,
 * as the embedded store gives them for a type with no entities.
 */
export function aggregationsReceived(nodes: readonly AggNode[], aggregations: unknown, aggs: Record<string, unknown> = {}): Record<string, unknown> {
  if (!isPlainObject(aggregations)) return new SearchIndex().search({ from: 0, size: 0, aggs }).aggregations ?? {};
  const answers = aggregations;
  shape(nodes, answers);
  return answers;
}
