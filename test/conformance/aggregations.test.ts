/**
 * Conformance of `aggs` on every store target: each aggregation's answer (hand-worked figures), the
 * size 0 answer, `global` kept within the caller's tenant, and the refusals. On a real cluster
 * (ELASTICSEARCH_URL) this checks that the embedded engine answers as Elasticsearch does.
 */
import type { TestServer } from '../support/testServer';
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { describeEachStore } from './support/targets';

const ENTITIES = [
  { name: 'France', region: 'Europe', pop: 68, joined: '1957-03-25', tags: ['eu', 'g7'], allowTenantIds: ['*'] },
  { name: 'Spain', region: 'Europe', pop: 48, joined: '1986-01-01', tags: ['eu'], allowTenantIds: ['*'] },
  { name: 'Japan', region: 'Asia', pop: 125, joined: '1956-12-18', tags: ['g7'], allowTenantIds: ['*'] },
  { name: 'Chile', region: 'Americas', pop: 19, joined: '1945-10-24', allowTenantIds: ['*'] },
  { name: 'Peru', region: 'Americas', pop: 34, joined: '1945-10-31', tags: [], allowTenantIds: ['*'] },
  { name: 'Hidden', region: 'Hidden', pop: 1000, joined: '2000-01-01', tags: ['eu'], allowTenantIds: ['hq'] },
];

describeEachStore('aggregations', (target) => {
  const gw = gatewayOn(target);
  let server: TestServer;
  let admin: Caller;
  let reader: Caller;
  const type = uniqueCollection();
  const aggs = async (body: Record<string, unknown>) => (await ok(reader, 'POST', `/v4/entity/${type.collection}/search?size=0`, { aggs: body })).aggregations;

  beforeAll(async () => {
    server = gw.server();
    admin = { server, token: await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] }) };
    reader = { server, token: await server.token({ sub: 'rita', tenantId: 'acme', roles: [] }) };
    const bulk = await ok(admin, 'POST', `/v4/entity/${type.collection}/_bulk`, ENTITIES);
    expect(bulk.errors).toEqual([]);
  });

  it('terms: counts, order, size and sum_other_doc_count, sub-aggregations', async () => {
    expect(await aggs({ r: { terms: { field: 'region.keyword' }, aggs: { p: { sum: { field: 'pop' } } } } })).toEqual({
      r: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'Americas', doc_count: 2, p: { value: 53 } },
          { key: 'Europe', doc_count: 2, p: { value: 116 } },
          { key: 'Asia', doc_count: 1, p: { value: 125 } },
        ],
      },
    });
    expect(await aggs({ t: { terms: { field: 'tags.keyword', size: 1, order: { _key: 'desc' } } } })).toEqual({ t: { doc_count_error_upper_bound: 0, sum_other_doc_count: 2, buckets: [{ key: 'g7', doc_count: 2 }] } });
  });

  it('range, histogram and date_histogram', async () => {
    const r = await aggs({
      sizes: { range: { field: 'pop', ranges: [{ to: 48 }, { from: 48, to: 100 }, { from: 100 }] } },
      h: { histogram: { field: 'pop', interval: 50 } },
      y: { date_histogram: { field: 'joined', calendar_interval: 'year', format: 'yyyy', min_doc_count: 1 } },
    });
    expect(r.sizes.buckets).toEqual([
      { key: '*-48.0', to: 48, doc_count: 2 },
      { key: '48.0-100.0', from: 48, to: 100, doc_count: 2 },
      { key: '100.0-*', from: 100, doc_count: 1 },
    ]);
    expect(r.h.buckets).toEqual([
      { key: 0, doc_count: 3 },
      { key: 50, doc_count: 1 },
      { key: 100, doc_count: 1 },
    ]);
    expect(r.y.buckets.map((b: any) => [b.key_as_string, b.doc_count])).toEqual([
      ['1945', 2],
      ['1956', 1],
      ['1957', 1],
      ['1986', 1],
    ]);
  });

  it('metrics: min, max, avg, sum, value_count, stats, cardinality, percentiles', async () => {
    expect(
      await aggs({
        mn: { min: { field: 'pop' } },
        mx: { max: { field: 'pop' } },
        av: { avg: { field: 'pop' } },
        sm: { sum: { field: 'pop' } },
        vc: { value_count: { field: 'tags.keyword' } },
        st: { stats: { field: 'pop' } },
        cd: { cardinality: { field: 'region.keyword' } },
        pc: { percentiles: { field: 'pop', percents: [25, 50] } },
      }),
    ).toEqual({
      mn: { value: 19 },
      mx: { value: 125 },
      av: { value: 58.8 },
      sm: { value: 294 },
      vc: { value: 4 },
      st: { count: 5, min: 19, max: 125, avg: 58.8, sum: 294 },
      cd: { value: 3 },
      pc: { values: { '25.0': 34, '50.0': 48 } },
    });
  });

  it('filter, filters, missing, global (within the caller tenant), composite, top_hits', async () => {
    const r = await aggs({
      f: { filter: { term: { 'tags.keyword': 'eu' } } },
      fs: { filters: { filters: { eu: { term: { 'tags.keyword': 'eu' } }, g7: { term: { 'tags.keyword': 'g7' } } } } },
      m: { missing: { field: 'tags.keyword' } },
      g: { global: {} },
      c: { composite: { size: 2, sources: [{ r: { terms: { field: 'region.keyword' } } }] } },
      t: { top_hits: { size: 1, sort: [{ pop: 'desc' }], _source: ['name'] } },
    });
    expect(r.f).toEqual({ doc_count: 2 });
    expect(r.fs).toEqual({ buckets: { eu: { doc_count: 2 }, g7: { doc_count: 2 } } });
    expect(r.m).toEqual({ doc_count: 2 });
    expect(r.g).toEqual({ doc_count: 5 });
    expect(r.c).toEqual({ after_key: { r: 'Asia' }, buckets: [{ key: { r: 'Americas' }, doc_count: 2 }, { key: { r: 'Asia' }, doc_count: 1 }] });
    expect(r.t.hits.hits).toEqual([{ _id: expect.any(String), _score: null, _source: { name: 'Japan' }, sort: [125] }]);
  });

  it('a size 0 search answers total and aggregations only; an empty type answers empty buckets', async () => {
    const answer = await ok(reader, 'POST', `/v4/entity/${type.collection}/search?size=0`, { aggs: { r: { terms: { field: 'region.keyword' } } } });
    expect(Object.keys(answer)).toEqual(['total', 'aggregations']);
    const empty = uniqueCollection();
    expect(await ok(reader, 'POST', `/v4/entity/${empty.collection}/search?size=0`, { aggs: { r: { terms: { field: 'region.keyword' } }, g: { global: {} } } })).toEqual({
      total: 0,
      aggregations: { r: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [] }, g: { doc_count: 0 } },
    });
  });

  it('refuses what either store would refuse, with the same catalogue ids', async () => {
    const path = `/v4/entity/${type.collection}/search`;
    await failsWith(reader, 'POST', path, { aggs: { r: { terms: { field: 'region' } } } }, 'services.storage.invalid_search_query', 400);
    await failsWith(reader, 'POST', path, { aggs: { r: { terms: { field: 'region.keyword', min_doc_count: 0 } } } }, 'services.storage.invalid_search_query', 400);
    await failsWith(reader, 'POST', path, { aggs: { r: { significant_terms: { field: 'region.keyword' } } } }, 'services.storage.invalid_search_query', 400);
    await failsWith(reader, 'POST', path, { aggs: { h: { histogram: { field: 'pop', interval: 0.0001 } } } }, 'services.storage.too_many_buckets', 400);
  });
});
