/**
 * The embedded search engine: an in-process index answering like a one-shard Elasticsearch 8 index
 * (same hits, order and scores for the supported query DSL), and single-document matchers.
 */
export { SearchIndex, type SearchIndexOptions } from './searchIndex';
export { DEFAULT_LIMITS, type QueryLimits } from './limits';
export { compileMatcher, type DocMatcher } from './matcher';
export type { Mapping } from './mapping';
