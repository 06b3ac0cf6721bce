/**
 * Elasticsearch's failures, sorted into what the store does with them (DESIGN.md "Errors"):
 * - the cluster cannot be reached or answers that it cannot serve (connection refused or reset,
 *   timeout, 502/503/504, 429 rejected execution, 401/403 from a misconfigured security setup):
 *   StoreUnavailableError, which the core answers 503 services.storage.not_connected; but a search
 *   its search thread pool rejects (429 es_rejected_execution_exception, queue full) is the
 *   SearchRejectedError the embedded store throws in the same case, answered 429
 *   services.storage.search_rejected with Retry-After, so a client backs off the same way on both;
 * - a search Elasticsearch cannot parse or run (400): InvalidQueryError carrying Elasticsearch's
 *   reason, answered 400 services.storage.invalid_search_query, or, over one of its limits, the
 *   QueryLimitError naming it (as the embedded store answers);
 * - 404 (no such document or index) and 409 (version conflict: the id or the reservation exists)
 *   are expected outcomes, read by the callers as values;
 * - anything else is an internal error (500, details in the log).
 *
 * Only connection errors are retried (retry.ts): the request did not reach Elasticsearch, or its
 * answer was lost; a timeout is not retried, since the write may still be applied.
 */
import { errors } from '@elastic/elasticsearch';
import { InvalidQueryError, QueryLimitError, SearchRejectedError, StoreUnavailableError, type QueryLimit } from '../port';

const UNAVAILABLE_STATUSES = new Set([401, 403, 429, 502, 503, 504]);

/** The request did not get an answer from Elasticsearch at all: worth retrying. */
export function isConnectionError(err: unknown): boolean {
  return err instanceof errors.ConnectionError || err instanceof errors.NoLivingConnectionsError;
}

export function statusOf(err: unknown): number | undefined {
  return err instanceof errors.ResponseError ? err.statusCode : undefined;
}

/** Elasticsearch's error type (`index_not_found_exception`, `version_conflict_engine_exception`...). */
export function errorTypeOf(err: unknown): string | undefined {
  if (!(err instanceof errors.ResponseError)) return undefined;
  const error = (err.body as { error?: unknown } | undefined)?.error;
  return typeof error === 'object' && error !== null ? (error as { type?: string }).type : undefined;
}

/** The most telling reason of an Elasticsearch error body: the first root cause's, else the error's own. */
export function reasonOf(body: unknown): string | undefined {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (typeof error === 'string') return error;
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { reason?: unknown; type?: unknown; root_cause?: { reason?: unknown; type?: unknown }[]; caused_by?: { reason?: unknown } };
  const root = Array.isArray(e.root_cause) ? e.root_cause[0] : undefined;
  const reason = [root?.reason, e.caused_by?.reason, e.reason].find((r): r is string => typeof r === 'string' && r !== '' && r !== 'all shards failed');
  return reason ?? (typeof e.reason === 'string' ? e.reason : typeof e.type === 'string' ? e.type : undefined);
}

/** Whether an error means the backend cannot serve the request now. */
export function isUnavailable(err: unknown): boolean {
  if (isConnectionError(err)) return true;
  if (err instanceof errors.TimeoutError || err instanceof errors.RequestAbortedError || err instanceof errors.ProductNotSupportedError) return true;
  const status = statusOf(err);
  return status !== undefined && UNAVAILABLE_STATUSES.has(status);
}

export type CallKind = 'query' | 'write' | 'read';

/**
 * The error a store method throws for a failure that is not an expected outcome: unavailable
 * backends and (for queries) refused queries are mapped; anything else is passed on as it is.
 */
export function toStoreError(err: unknown, kind: CallKind): unknown {
  if (kind === 'query' && statusOf(err) === 429) return searchRejected(reasonOf((err as errors.ResponseError).body) ?? '');
  if (isUnavailable(err)) {
    const status = statusOf(err);
    const what = status !== undefined ? `HTTP ${status}${reasonOf((err as errors.ResponseError).body) ? `: ${reasonOf((err as errors.ResponseError).body)}` : ''}` : (err as Error).message;
    return new StoreUnavailableError(`Elasticsearch is unavailable (${what})`);
  }
  if (kind === 'query' && statusOf(err) === 400) {
    const reason = reasonOf((err as errors.ResponseError).body) ?? 'Elasticsearch refused the query';
    return queryLimitOf(reason) ?? new InvalidQueryError(reason);
  }
  return err;
}

/**
 * A search Elasticsearch's search thread pool rejected, with the pool's figures when its reason gives
 * them (EsRejectedExecutionException's message names the executor: "...[Running, pool size = 7,
 * active threads = 7, queued tasks = 1000, completed tasks = 59]]"), else 0.
 */
function searchRejected(reason: string): SearchRejectedError {
  const figure = (name: string): number => Number(new RegExp(`${name} = (\\d+)`).exec(reason)?.[1] ?? 0);
  return new SearchRejectedError(figure('active threads'), figure('queued tasks'));
}

/**
 * Elasticsearch's refusals of a query over one of its limits, recognized by their reasons (the
 * messages of TooComplexToDeterminizeException, IndexSearcher.TooManyNestedClauses and TooManyClauses,
 * TermsQueryBuilder and RegexpQueryBuilder, the unified highlighter's for index.highlight.max_analyzed_offset),
 * as the same catalogue errors the embedded store gives.
 */
const LIMIT_REASONS: { limit: QueryLimit; pattern: RegExp; props: (m: RegExpExecArray) => Record<string, string | number> }[] = [
  { limit: 'too_complex_to_determinize', pattern: /^Determinizing (.*) would (?:require|result in) more than (\d+)/s, props: (m) => ({ pattern: m[1], limit: Number(m[2]) }) },
  { limit: 'too_many_clauses', pattern: /maxClauseCount is set to (\d+)/, props: (m) => ({ limit: Number(m[1]), detail: '' }) },
  { limit: 'too_many_buckets', pattern: /Trying to create too many buckets\. Must be less than or equal to: \[(\d+)\]/, props: (m) => ({ limit: Number(m[1]) }) },
  { limit: 'too_many_terms', pattern: /The number of terms \[(\d+)\] used in the Terms Query request has exceeded the allowed maximum of \[(\d+)\]/, props: (m) => ({ count: Number(m[1]), limit: Number(m[2]) }) },
  {
    limit: 'max_analyzed_offset',
    pattern: /The length \[(\d+)\] of field \[(.+?)\] in doc\[(.*?)\]\/index\[.*?\] exceeds the \[index\.highlight\.max_analyzed_offset\] limit \[(\d+)\]/s,
    props: (m) => ({ length: Number(m[1]), field: m[2], id: m[3], limit: Number(m[4]) }),
  },
  { limit: 'regex_too_long', pattern: /The length of regex \[(\d+)\] used in the (\w+) [Qq]uery request has exceeded the allowed maximum of \[(\d+)\]/, props: (m) => ({ length: Number(m[1]), clause: m[2], limit: Number(m[3]) }) },
];

export function queryLimitOf(reason: string): QueryLimitError | undefined {
  for (const { limit, pattern, props } of LIMIT_REASONS) {
    const m = pattern.exec(reason);
    if (m !== null) return new QueryLimitError(limit, props(m), reason);
  }
  return undefined;
}
