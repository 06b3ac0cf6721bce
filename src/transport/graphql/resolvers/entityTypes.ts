/** Object-type resolvers: entities by their `entityType`, hits, keys. Entities are resolved from their `_source`. */
import { SOURCE_JSON, readOnlySource, type Doc, type Hit, type SearchResult } from '../../../store/port';
import { RawJson } from '../rawJson';
import { facetsOf } from '../facets';
import type { EntityChange } from '../../../core/events/changeFeed';

/** On a search answer: the request's `aggs` (set by the search resolver), which facets are read with. */
export const AGGS_REQUEST: unique symbol = Symbol('aggsRequest');
type WithAggs = SearchResult & { [AGGS_REQUEST]?: Record<string, unknown> };

/** Whether the hit carries a `_source` (a search with `_source: false` or `stored_fields` answers hits without). */
const hasSource = (hit: Hit): boolean => hit[SOURCE_JSON] !== undefined || hit._source !== undefined;

/** entityType -> GraphQL type, for the types with a GraphQL type of their own. */
const TYPED: Record<string, string> = { country: 'Country' };

export const entityTypeResolvers = {
  Entity: {
    __resolveType: (doc: Doc) => TYPED[String(doc.entityType)] ?? 'GenericEntity',
  },
  Country: { data: (doc: Doc) => doc },
  GenericEntity: { data: (doc: Doc) => doc },
  SearchHit: {
    id: (hit: Hit) => hit._id,
    score: (hit: Hit) => hit._score,
    // answers only read sources: cached pages share one frozen parse per hit
    entity: (hit: Hit) => (hasSource(hit) ? readOnlySource(hit) : null),
    // the stored text when the store kept it: copied into HTTP answers, never parsed for them
    source: (hit: Hit) => {
      if (!hasSource(hit)) return null;
      const json = hit[SOURCE_JSON];
      return json === undefined ? readOnlySource(hit) : new RawJson(json, () => readOnlySource(hit));
    },
    highlight: (hit: Hit) => hit.highlight ?? null,
    fields: (hit: Hit) => hit.fields ?? null,
    innerHits: (hit: Hit) => hit.inner_hits ?? null,
    explanation: (hit: Hit) => hit._explanation ?? null,
  },
  SearchResult: {
    // a size 0 search with aggs answers no hits (core's SearchAnswer)
    hits: (result: Partial<SearchResult>) => result.hits ?? [],
    timedOut: (result: SearchResult) => result.timed_out === true,
    totalRelation: (result: SearchResult) => result.total_relation ?? null,
    terminatedEarly: (result: SearchResult) => result.terminated_early ?? null,
    aggregations: (result: SearchResult) => result.aggregations ?? null,
    facets: (result: WithAggs) => facetsOf(result[AGGS_REQUEST], result.aggregations),
    facet: (result: WithAggs, args: { name: string }) => facetsOf(result[AGGS_REQUEST], result.aggregations).find((f) => f.name === args.name) ?? null,
  },
  ApiKeyHit: {
    id: (hit: Hit) => hit._id,
    score: (hit: Hit) => hit._score,
    key: (hit: Hit) => ({ id: hit._id, ...hit._source }),
  },
  EntityChange: {
    action: (change: EntityChange) => change.action.toUpperCase(),
    id: (change: EntityChange) => change._id,
    entity: (change: EntityChange) => change._source,
    scope: (change: EntityChange & { scope?: string }) => (change.scope ?? 'in').toUpperCase(),
  },
};
