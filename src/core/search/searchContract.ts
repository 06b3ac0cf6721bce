/**
 * The search body and answer as JSON Schema (core/contract.ts), for document:search and
 * auth:searchApiKeys: the body's keys are searchRequest.ts's ALLOWED_BODY_KEYS, each described here
 * (a key added there and not here fails to compile).
 */
import type { ArgContract, JsonSchema } from '../contract';
import type { ErrorId } from '../errors';
import { ALLOWED_BODY_KEYS, DEFAULT_PAGE_SIZE, MAX_RESULT_WINDOW } from './searchRequest';

type BodyKey = (typeof ALLOWED_BODY_KEYS)[number];

const page = (name: string, example: number): JsonSchema => ({
  type: 'integer',
  minimum: 0,
  description: `The page's ${name}, unless the query string gives it. \`from + size\` is at most ${MAX_RESULT_WINDOW}.`,
  examples: [example],
});

const aggregations: JsonSchema = {
  type: 'object',
  description: "Named aggregations (Elasticsearch's `terms`, `range`, `histogram`, `date_histogram`, `filter`, `filters`, `min`, `max`, `avg`, `sum`, `value_count`, `cardinality`, `stats`, `top_hits`, …). Give `aggs` or `aggregations`, not both.",
  additionalProperties: { type: 'object' },
  examples: [{ regions: { terms: { field: 'region.keyword', size: 5 } } }],
};

const SEARCH_BODY_KEYS: Record<BodyKey, JsonSchema> = {
  query: { type: 'object', description: 'A query DSL clause (Elasticsearch 8).', examples: [{ match: { name: 'south' } }] },
  sort: { description: "Elasticsearch's sort: a field, `{field: order}`, `{field: {order, missing, mode}}`, `_score`, or an array of these.", examples: [['_score', { 'name.keyword': 'asc' }]] },
  search_after: { type: 'array', description: 'The sort values of the last hit of the previous page.', examples: [[1.5, 'France']] },
  from: page('first hit (default 0)', 0),
  size: page(`number of hits (default ${DEFAULT_PAGE_SIZE})`, 10),
  track_total_hits: {
    type: ['boolean', 'integer'],
    minimum: -1,
    description: '`true` (the default): `total` exact; `false` (or -1): not counted, `total` is -1; a number N: counted up to N, beyond which `total` is N and `total_relation` "gte".',
    examples: [1000],
  },
  terminate_after: { type: 'integer', minimum: 0, description: 'Stop collecting after this many hits; the answer says `terminated_early`.', examples: [100] },
  min_score: { type: 'number', description: 'Leave out the hits (and the aggregations\' documents) scoring less.', examples: [0.5] },
  post_filter: { type: 'object', description: 'A query clause that filters the hits and `total`, not the aggregations.', examples: [{ term: { 'region.keyword': 'Europe' } }] },
  explain: { type: 'boolean', description: "Each hit with its `_explanation`: Lucene's explanation tree of its score.", examples: [true] },
  collapse: { type: 'object', description: 'One hit per value of a keyword or numeric field (`{field, inner_hits}`).', examples: [{ field: 'region.keyword', inner_hits: { name: 'others', size: 2 } }] },
  fields: { type: 'array', description: "Each hit's `fields`: the values of these fields (names or patterns, or `{field, format}`), as their mapping reads them.", examples: [['name', { field: 'modified', format: 'yyyy-MM-dd' }]] },
  docvalue_fields: { type: 'array', description: "Each hit's `fields` from the index's doc values (keyword, number, date, boolean fields).", examples: [['code.keyword']] },
  stored_fields: { type: ['string', 'array'], description: '`_none_`: hits without `_source`; a list of names: no `_source` unless asked for (no field is stored).', examples: ['_none_'] },
  _source: {
    description: 'Which fields of `_source` the hits carry: `false`, a field or pattern, a list of them, or `{includes, excludes}`.',
    examples: [['name', 'code']],
  },
  timeout: {
    type: 'string',
    description: 'A time value (`500ms`, `2s`) at most SEARCH_TIMEOUT; a search past it answers what it found so far with `timed_out: true`.',
    examples: ['2s'],
  },
  highlight: { type: 'object', description: "Elasticsearch's highlight request (`fields`, `pre_tags`, `post_tags`, `fragment_size`, `number_of_fragments`, …).", examples: [{ fields: { name: {} } }] },
  aggs: aggregations,
  aggregations,
};

export const SEARCH_BODY_SCHEMA: JsonSchema = {
  title: 'SearchBody',
  description: 'A search body: `{}` or any of these keys; another key, or a `script` anywhere, is 400 `services.storage.invalid_search_query`.',
  type: 'object',
  additionalProperties: false,
  properties: SEARCH_BODY_KEYS,
};

/** `from` and `size` as arguments (REST: the query string), which win over the body's. */
export const PAGE_ARGS: Record<'from' | 'size', ArgContract> = {
  from: { schema: { type: 'integer', minimum: 0 }, description: 'The first hit (default 0); wins over the body\'s `from`.', example: 0 },
  size: { schema: { type: 'integer', minimum: 0 }, description: `How many hits (default ${DEFAULT_PAGE_SIZE}); wins over the body's \`size\`. \`from + size\` is at most ${MAX_RESULT_WINDOW} (413 \`services.storage.get_limit_exceeded\`).`, example: 10 },
};

/** A hit whose `_source` is `source`. */
export const hitSchema = (title: string, source: JsonSchema): JsonSchema => ({
  title,
  type: 'object',
  required: ['_id', '_score'],
  additionalProperties: false,
  properties: {
    _id: { type: 'string' },
    _score: { type: ['number', 'null'], description: 'null when the hits are sorted without `_score`.' },
    _source: source,
    fields: { type: 'object', additionalProperties: { type: 'array' }, description: 'With `fields`, `docvalue_fields` or `collapse`: the values of each field.' },
    inner_hits: { type: 'object', description: 'With `collapse.inner_hits`: the hits of the group by name; with a `nested` query\'s `inner_hits`: its matching nested objects by name (each with `_nested: {field, offset}`); `{hits: {total, max_score, hits}}`.' },
    _explanation: { type: 'object', description: 'With `explain`: `{value, description, details}`, the tree of the score.' },
    highlight: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'Highlighted fragments by field (a search with `highlight`).' },
    sort: { type: 'array', description: 'The hit\'s sort values (a sorted search): what `search_after` takes.' },
  },
});

/** A search's answer of `hits`. */
export const searchResultSchema = (title: string, hit: JsonSchema, withAggregations: boolean): JsonSchema => ({
  title,
  description: withAggregations ? 'The page of hits and the exact total; a `size: 0` search with aggregations answers `{total, aggregations}` only.' : 'The page of hits and the exact total.',
  type: 'object',
  required: withAggregations ? ['total'] : ['hits', 'total'],
  additionalProperties: false,
  properties: {
    hits: { type: 'array', items: hit },
    total: { type: 'integer', minimum: -1, description: 'Every match, never capped unless `track_total_hits` says otherwise (-1 when `false`; its bound, with `total_relation` "gte") or `timed_out` (those found by then).' },
    timed_out: { const: true, description: 'Present when the search stopped at its time budget.' },
    total_relation: { enum: ['eq', 'gte'], description: 'With `track_total_hits` a number: "gte" when `total` is that bound, reached.' },
    terminated_early: { type: 'boolean', description: 'With `terminate_after`: whether collection stopped there.' },
    ...(withAggregations ? { aggregations: { type: 'object', description: 'The answers of the named aggregations, as Elasticsearch writes them.' } } : {}),
  },
});

/** What a query may be refused with: the query's own checks, every limit of README "Limits", and a full search queue. */
export const QUERY_ERRORS: readonly ErrorId[] = [
  'services.storage.invalid_search_query',
  'services.storage.too_many_clauses',
  'services.storage.too_many_terms',
  'services.storage.regex_too_long',
  'services.storage.too_complex_to_determinize',
  'services.storage.query_too_deep',
  'services.storage.search_rejected',
];

/** What a search may be refused with: its body, its page, its time budget, its query, its highlights and aggregations. */
export const SEARCH_ERRORS: readonly ErrorId[] = [
  'api.assert.invalid_type',
  'api.assert.invalid_argument',
  'services.storage.get_limit_exceeded',
  ...QUERY_ERRORS,
  'services.storage.max_analyzed_offset',
  'services.storage.too_many_buckets',
];
