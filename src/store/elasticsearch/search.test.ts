import { InvalidQueryError, SearchRejectedError, StoreUnavailableError } from '../port';
import { Backend } from './backend';
import { runCount, runSearch } from './search';
import { esError, FakeElasticsearch } from './testing/fakeElasticsearch';

const tenant = { terms: { allowTenantIds: ['acme', '*'] } };

function setup() {
  const fake = new FakeElasticsearch();
  const backend = new Backend(fake.client(), { retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  return { fake, backend };
}

describe('runSearch / runCount: what is sent', () => {
  it('POST /<index>/_search with the body and ignore_unavailable / allow_no_indices', async () => {
    const { fake, backend } = setup();
    await runSearch(backend, 'gw-countries', { from: 10, size: 5, query: { match: { name: 'x' } }, sort: ['_score', { id: 'asc' }] }, tenant);
    expect(fake.requests).toEqual([
      {
        method: 'POST',
        path: '/gw-countries/_search',
        querystring: { ignore_unavailable: 'true', allow_no_indices: 'true' },
        body: {
          from: 10,
          size: 5,
          track_total_hits: true,
          query: { bool: { must: [{ match: { name: 'x' } }], filter: [tenant] } },
          sort: ['_score', { id: 'asc' }],
        },
      },
    ]);
  });

  it('sends highlight, highlighting the caller query under the tenant filter', async () => {
    const { fake, backend } = setup();
    const highlight = { fields: { name: {} } };
    await runSearch(backend, 'gw-countries', { from: 0, size: 10, query: { match: { name: 'x' } }, highlight }, tenant);
    expect(fake.requests[0].body).toEqual({
      from: 0,
      size: 10,
      track_total_hits: true,
      query: { bool: { must: [{ match: { name: 'x' } }], filter: [tenant] } },
      highlight: { fields: { name: {} }, highlight_query: { match: { name: 'x' } } },
    });
  });

  it('sends aggs, global as a filter on the tenant, and reads aggregations back; refuses bad ones before sending', async () => {
    const { fake, backend } = setup();
    const aggs = { regions: { terms: { field: 'region.keyword' } }, all: { global: {} } };
    const result = await runSearch(backend, 'gw-countries', { from: 0, size: 0, aggs }, tenant);
    expect(fake.requests[0].body).toEqual({
      from: 0,
      size: 0,
      track_total_hits: true,
      query: { bool: { must: [{ match_all: {} }], filter: [tenant] } },
      aggs: { regions: { terms: { field: 'region.keyword' } }, all: { filter: tenant } },
    });
    // a missing index: Elasticsearch answers no aggregations; the store answers them over no documents, as the embedded store
    expect(result.aggregations).toEqual({ regions: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] }, all: { doc_count: 0 } });
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 0, aggs: { r: { terms: { field: 'x', min_doc_count: 0 } } } }, tenant)).rejects.toBeInstanceOf(InvalidQueryError);
    expect(fake.requests).toHaveLength(1);
  });

  it('answers too_many_buckets from Elasticsearch as the same limit error as the embedded store', async () => {
    const { fake, backend } = setup();
    fake.intercept(() => esError(400, 'too_many_buckets_exception', 'Trying to create too many buckets. Must be less than or equal to: [65536] but this number of buckets was exceeded. This limit can be set by changing the [search.max_buckets] cluster level setting.', { max_buckets: 65536 }));
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 0, aggs: { h: { histogram: { field: 'p', interval: 1 } } } }, tenant)).rejects.toMatchObject({ limit: 'too_many_buckets', props: { limit: 65536 } });
  });

  it('POST /<index>/_count with the restricted query', async () => {
    const { fake, backend } = setup();
    expect(await runCount(backend, 'gw-countries', undefined, tenant)).toEqual({ count: 0 });
    expect(fake.requests).toEqual([
      {
        method: 'POST',
        path: '/gw-countries/_count',
        querystring: { ignore_unavailable: 'true', allow_no_indices: 'true' },
        body: { query: { bool: { must: [{ match_all: {} }], filter: [tenant] } } },
      },
    ]);
  });

  it('sends nothing for a refused query', async () => {
    const { fake, backend } = setup();
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 10, query: { more_like_this: { like: 'x' } } }, null)).rejects.toBeInstanceOf(InvalidQueryError);
    await expect(runCount(backend, 'gw-countries', { script: {} }, null)).rejects.toBeInstanceOf(InvalidQueryError);
    expect(fake.requests).toEqual([]);
  });
});

describe('runSearch / runCount: how answers are read', () => {
  it('a missing index is an empty result', async () => {
    const { backend } = setup();
    expect(await runSearch(backend, 'gw-nothings', { from: 0, size: 10 }, null)).toEqual({ hits: [], total: 0 });
    expect(await runCount(backend, 'gw-nothings', undefined, null)).toEqual({ count: 0 });
  });

  it("an Elasticsearch 400 is an InvalidQueryError with Elasticsearch's reason", async () => {
    const { fake, backend } = setup();
    fake.intercept(() => esError(400, 'search_phase_execution_exception', 'all shards failed', { root_cause: [{ type: 'illegal_argument_exception', reason: 'Text fields are not optimised for operations that require per-document field data' }] }));
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 10, sort: ['name'] }, null)).rejects.toEqual(
      new InvalidQueryError('Text fields are not optimised for operations that require per-document field data'),
    );
  });

  it("a search or count Elasticsearch's search thread pool rejects (429) is SearchRejectedError, not retried", async () => {
    const { fake, backend } = setup();
    fake.intercept(() => esError(429, 'es_rejected_execution_exception', 'rejected execution of TimedRunnable on EsThreadPoolExecutor[name = n/search, queue capacity = 1000, EsThreadPoolExecutor[Running, pool size = 4, active threads = 4, queued tasks = 1000, completed tasks = 9]]'));
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 10 }, null)).rejects.toEqual(new SearchRejectedError(4, 1000));
    await expect(runCount(backend, 'gw-countries', undefined, null)).rejects.toBeInstanceOf(SearchRejectedError);
    expect(fake.requests).toHaveLength(2);
  });

  it('an unreachable cluster is StoreUnavailableError, after the retries', async () => {
    const { fake, backend } = setup();
    fake.unreachable = true;
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 10 }, null)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(runCount(backend, 'gw-countries', undefined, null)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(fake.requests).toHaveLength(4);
  });
});
