/**
 * The query limits of Elasticsearch, with its defaults (each a setting of the gateway: README
 * "Limits"). A query over one is refused with a QueryLimitError naming it, which the core answers
 * 400 services.storage.<limit>.
 */
import { QueryLimitError } from '../../port';

export interface QueryLimits {
  /** indices.query.bool.max_nested_depth: query clauses nested in one another. */
  readonly maxQueryDepth: number;
  /** indices.query.bool.max_clause_count: leaf clauses of a whole query (Lucene 9's IndexSearcher.getMaxClauseCount), and terms a pattern rewritten to a boolean query may expand to. */
  readonly maxClauseCount: number;
  /** index.max_terms_count: terms of one `terms` query. */
  readonly maxTermsCount: number;
  /** index.max_regex_length: characters of a `regexp` pattern. */
  readonly maxRegexLength: number;
  /** max_determinized_states: the default of the query parameter, and its ceiling here. */
  readonly maxDeterminizedStates: number;
  /** index.mapping.total_fields.limit: fields an index may map (objects and sub-fields included). */
  readonly maxFields: number;
  /** search.max_buckets: buckets of all the multi-bucket aggregations of one answer (absent: 65,536). */
  readonly maxBuckets?: number;
  /** index.highlight.max_analyzed_offset: characters of a field the highlighter analyzes (a longer one is refused unless the request's max_analyzed_offset cuts it). */
  readonly maxAnalyzedOffset: number;
}

export const DEFAULT_LIMITS: QueryLimits = {
  maxQueryDepth: 30,
  maxClauseCount: 4096,
  maxTermsCount: 65_536,
  maxRegexLength: 1000,
  maxDeterminizedStates: 10_000,
  maxFields: 1000,
  maxBuckets: 65_536,
  maxAnalyzedOffset: 1_000_000,
};

/** Lucene's IndexSearcher.TooManyNestedClauses, as Elasticsearch answers it. */
export function tooManyClauses(limit: number, detail = ''): QueryLimitError {
  return new QueryLimitError('too_many_clauses', { limit, detail }, `Query contains too many nested clauses; maxClauseCount is set to ${limit}${detail}`);
}
