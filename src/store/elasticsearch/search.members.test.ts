import { InvalidQueryError } from '../port';
import { Backend } from './backend';
import { runSearch } from './search';
import { FakeElasticsearch } from './testing/fakeElasticsearch';

const tenant = { terms: { allowTenantIds: ['acme', '*'] } };
const RESTRICTED = { bool: { must: [{ match: { name: 'x' } }], filter: [tenant] } };

function setup(answer?: Record<string, unknown>) {
  const fake = new FakeElasticsearch();
  if (answer !== undefined) fake.intercept((req, next) => (req.path.endsWith('/_search') ? answer : next()));
  const backend = new Backend(fake.client(), { retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  return { fake, backend };
}

describe('runSearch: the rest of the search request, passed through', () => {
  it('sends every member unchanged, the visibility filter in the query', async () => {
    const { fake, backend } = setup();
    const members = {
      track_total_hits: 100,
      terminate_after: 5,
      min_score: 0.5,
      post_filter: { term: { 'region.keyword': 'Europe' } },
      explain: true,
      collapse: { field: 'region.keyword', inner_hits: { name: 'more', size: 2 } },
      fields: ['name', { field: 'modified', format: 'yyyy-MM-dd' }],
      docvalue_fields: ['code.keyword'],
      stored_fields: ['name'],
    };
    await runSearch(backend, 'gw-countries', { from: 0, size: 3, query: { match: { name: 'x' } }, ...members }, tenant);
    expect(fake.requests[0].body).toEqual({ from: 0, size: 3, query: RESTRICTED, ...members });
  });

  it('sends track_total_hits: false as it is, and true by default', async () => {
    const { fake, backend } = setup();
    await runSearch(backend, 'gw-countries', { from: 0, size: 3, track_total_hits: false }, null);
    await runSearch(backend, 'gw-countries', { from: 0, size: 3 }, null);
    expect(fake.requests.map((r) => (r.body as Record<string, unknown>).track_total_hits)).toEqual([false, true]);
  });

  it('refuses before sending what the embedded store refuses', async () => {
    const { fake, backend } = setup();
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 3, collapse: { field: 'x', max_concurrent_group_searches: 2 } }, tenant)).rejects.toThrow(InvalidQueryError);
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 3, track_total_hits: -5 }, tenant)).rejects.toThrow('[track_total_hits] parameter must be positive or equals to -1, got -5');
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 3, post_filter: { script: {} } }, tenant)).rejects.toThrow(InvalidQueryError);
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 3, stored_fields: '_none_', _source: true }, tenant)).rejects.toThrow('[stored_fields] cannot be disabled if [_source] is requested');
    expect(fake.requests).toEqual([]);
  });

  it('reads hits without _source, fields, inner hits, totals and terminated_early', async () => {
    const { backend } = setup({
      took: 1,
      timed_out: false,
      terminated_early: true,
      hits: {
        total: { value: 100, relation: 'gte' },
        max_score: 1,
        hits: [
          {
            _index: 'gw-countries',
            _id: 'fr',
            _score: 1,
            fields: { 'region.keyword': ['Europe'] },
            inner_hits: { more: { hits: { total: { value: 2, relation: 'eq' }, max_score: 1, hits: [{ _index: 'gw-countries', _id: 'de', _score: 1, _source: { name: 'Germany' } }] } } },
          },
        ],
      },
    });
    const result = await runSearch(backend, 'gw-countries', { from: 0, size: 1, track_total_hits: 100, terminate_after: 5 }, tenant);
    expect(result).toEqual({
      total: 100,
      total_relation: 'gte',
      terminated_early: true,
      hits: [{ _id: 'fr', _score: 1, fields: { 'region.keyword': ['Europe'] }, inner_hits: { more: { hits: { total: 2, max_score: 1, hits: [{ _id: 'de', _score: 1, _source: { name: 'Germany' } }] } } } }],
    });
    expect(result.hits[0]).not.toHaveProperty('_source');
  });

  it('answers total -1 when not tracked (Elasticsearch sends no total)', async () => {
    const { backend } = setup({ took: 1, timed_out: false, hits: { max_score: null, hits: [] } });
    expect(await runSearch(backend, 'gw-countries', { from: 0, size: 1, track_total_hits: false }, tenant)).toEqual({ total: -1, hits: [] });
  });

  it("answers the caller's query's explanation, never the tenant filter", async () => {
    const termExplanation = { value: 0.5, description: 'weight(name:x in 0) [PerFieldSimilarity], result of:', details: [] };
    const { backend } = setup({
      took: 1,
      timed_out: false,
      hits: {
        total: { value: 1, relation: 'eq' },
        hits: [
          {
            _id: 'fr',
            _score: 0.5,
            _source: {},
            _explanation: {
              value: 0.5,
              description: 'sum of:',
              details: [termExplanation, { value: 0, description: 'match on required clause, product of:', details: [{ value: 0, description: '# clause', details: [] }, { value: 1, description: 'allowTenantIds:acme allowTenantIds:*', details: [] }] }],
            },
          },
        ],
      },
    });
    const result = await runSearch(backend, 'gw-countries', { from: 0, size: 1, query: { match: { name: 'x' } }, explain: true }, tenant);
    expect(result.hits[0]._explanation).toEqual(termExplanation);
  });
});
