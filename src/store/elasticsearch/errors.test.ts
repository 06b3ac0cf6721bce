import { errors } from '@elastic/elasticsearch';
import { InvalidQueryError, QueryLimitError, SearchRejectedError, StoreUnavailableError } from '../port';
import { errorTypeOf, isConnectionError, isUnavailable, reasonOf, statusOf, toStoreError } from './errors';
import { esError } from './testing/fakeElasticsearch';

const response = (statusCode: number, body: unknown = {}) => new errors.ResponseError({ body, statusCode, headers: {}, warnings: null, meta: {} as never });

describe('Elasticsearch errors', () => {
  it('retries only what never got an answer: connection errors', () => {
    expect(isConnectionError(new errors.ConnectionError('ECONNREFUSED'))).toBe(true);
    expect(isConnectionError(new errors.NoLivingConnectionsError('none', {} as never))).toBe(true);
    expect(isConnectionError(new errors.TimeoutError('timeout'))).toBe(false);
    expect(isConnectionError(response(503))).toBe(false);
  });

  it.each([
    ['connection refused', new errors.ConnectionError('connect ECONNREFUSED')],
    ['timeout', new errors.TimeoutError('Request timed out')],
    ['503', response(503, { error: { type: 'cluster_block_exception', reason: 'blocked' } })],
    ['502', response(502)],
    ['401', response(401)],
  ])('maps "%s" to StoreUnavailableError (503 services.storage.not_connected)', (_name, err) => {
    expect(isUnavailable(err)).toBe(true);
    expect(toStoreError(err, 'query')).toBeInstanceOf(StoreUnavailableError);
    expect(toStoreError(err, 'write')).toBeInstanceOf(StoreUnavailableError);
  });

  it('maps a search the search thread pool rejects (429) to SearchRejectedError (429 services.storage.search_rejected), a rejected write to StoreUnavailableError', () => {
    const reason =
      'rejected execution of org.elasticsearch.common.util.concurrent.TimedRunnable@1f2e3d4c on EsThreadPoolExecutor[name = node-1/search, queue capacity = 1000, ' +
      'org.elasticsearch.common.util.concurrent.EsThreadPoolExecutor@5a6b7c8d[Running, pool size = 7, active threads = 7, queued tasks = 1000, completed tasks = 59]]';
    const full = response(429, { error: { type: 'es_rejected_execution_exception', reason, root_cause: [{ type: 'es_rejected_execution_exception', reason }] }, status: 429 });
    const mapped = toStoreError(full, 'query');
    expect(mapped).toBeInstanceOf(SearchRejectedError);
    expect(mapped).toMatchObject({ running: 7, queued: 1000 });
    expect(toStoreError(response(429, { error: { type: 'es_rejected_execution_exception', reason: 'rejected' } }), 'query')).toMatchObject({ running: 0, queued: 0 });
    expect(toStoreError(full, 'write')).toBeInstanceOf(StoreUnavailableError);
  });

  it("maps a refused query to InvalidQueryError with Elasticsearch's reason", () => {
    const err = esError(400, 'search_phase_execution_exception', 'all shards failed');
    (err.body as any).error.root_cause = [{ type: 'query_shard_exception', reason: 'failed to create query: For input string: "abc"' }];
    const mapped = toStoreError(err, 'query');
    expect(mapped).toBeInstanceOf(InvalidQueryError);
    expect((mapped as Error).message).toBe('failed to create query: For input string: "abc"');
  });

  it('leaves a 400 on a write, and 404/409, to the caller', () => {
    const bad = esError(400, 'document_parsing_exception', 'failed to parse');
    expect(toStoreError(bad, 'write')).toBe(bad);
    const conflict = esError(409, 'version_conflict_engine_exception', 'conflict');
    expect(toStoreError(conflict, 'write')).toBe(conflict);
    expect(statusOf(conflict)).toBe(409);
    expect(errorTypeOf(conflict)).toBe('version_conflict_engine_exception');
    expect(toStoreError(response(404), 'read')).toBeInstanceOf(errors.ResponseError);
  });

  it('finds the most telling reason', () => {
    expect(reasonOf({ error: { type: 't', reason: 'all shards failed', root_cause: [{ reason: 'root reason' }] } })).toBe('root reason');
    expect(reasonOf({ error: { type: 't', reason: 'all shards failed', caused_by: { reason: 'cause' } } })).toBe('cause');
    expect(reasonOf({ error: { type: 't', reason: 'plain' } })).toBe('plain');
    expect(reasonOf({ error: 'a string' })).toBe('a string');
    expect(reasonOf({})).toBeUndefined();
  });
});

describe("Elasticsearch's query limits", () => {
  const refused = (reason: string, type = 'illegal_argument_exception') => toStoreError(response(400, { error: { type, reason, root_cause: [{ type, reason }] } }), 'query');

  it('are the catalogue errors the embedded store gives', () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['Determinizing (a|b)*a(a|b){40} would require more than 10000 effort.', 'too_complex_to_determinize', { pattern: '(a|b)*a(a|b){40}', limit: 10000 }],
      ['Query contains too many nested clauses; maxClauseCount is set to 4096', 'too_many_clauses', { limit: 4096 }],
      ['The number of terms [70000] used in the Terms Query request has exceeded the allowed maximum of [65536]. This maximum can be set by changing the [index.max_terms_count] index level setting.', 'too_many_terms', { count: 70000, limit: 65536 }],
      ['The length of regex [1001] used in the Regexp Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.', 'regex_too_long', { length: 1001, limit: 1000 }],
      [
        'The length [1000001] of field [description] in doc[12]/index[gateway-countries] exceeds the [index.highlight.max_analyzed_offset] limit [1000000]. To avoid this error, set the query parameter [max_analyzed_offset] to a value less than index setting [1000000] and this will tolerate long field values by truncating them.',
        'max_analyzed_offset',
        { length: 1000001, field: 'description', limit: 1000000 },
      ],
    ];
    for (const [reason, limit, props] of cases) {
      const err = refused(reason);
      expect(err).toBeInstanceOf(QueryLimitError);
      expect((err as QueryLimitError).limit).toBe(limit);
      expect((err as QueryLimitError).props).toEqual(expect.objectContaining(props));
    }
    expect(refused('unknown query [fuzzy]')).not.toBeInstanceOf(QueryLimitError);
  });
});
