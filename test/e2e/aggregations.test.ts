/**
 * Aggregations end to end, on the real server over REST, the raw WebSocket and GraphQL: facet
 * counts on demo-like countries, the size 0 answer, the refusals, and tenant isolation: no bucket,
 * count or metric ever includes what the caller cannot see, whatever the aggregation (filter,
 * global, missing, cardinality, top_hits, composite).
 */
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';
import { startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, openTransport, TRANSPORTS, type Transport } from '../support/e2e';

const PUBLIC = [
  { name: 'France', code: 'FR', region: 'Europe', population: 68 },
  { name: 'Germany', code: 'DE', region: 'Europe', population: 84 },
  { name: 'Spain', code: 'ES', region: 'Europe', population: 48 },
  { name: 'Japan', code: 'JP', region: 'Asia', population: 125 },
  { name: 'Chile', code: 'CL', region: 'Americas', population: 19 },
];
/** Tenant A's own entities: another tenant must never see a trace of them. */
const SECRET = [
  { name: 'Atlantis', code: 'AT', region: 'Secret', population: 9000, allowTenantIds: ['tenant-a'] },
  { name: 'Lemuria', code: 'LM', region: 'Europe', population: 7000, allowTenantIds: ['tenant-a'] },
];

const EVERY_WAY_IN = {
  regions: { terms: { field: 'region.keyword' }, aggs: { people: { sum: { field: 'population' } } } },
  codes: { cardinality: { field: 'code.keyword' } },
  biggest: { max: { field: 'population' } },
  everything: { global: {}, aggs: { n: { value_count: { field: 'population' } } } },
  all: { filter: { match_all: {} } },
  secret: { filter: { term: { 'region.keyword': 'Secret' } } },
  noRegion: { missing: { field: 'region.keyword' } },
  top: { top_hits: { size: 10, sort: [{ population: 'desc' }], _source: ['name'] } },
  pages: { composite: { size: 100, sources: [{ r: { terms: { field: 'region.keyword' } } }] } },
  sizes: { range: { field: 'population', ranges: [{ to: 100 }, { from: 100 }] } },
};

let server: TestServer;
let admin: string;
let readerB: string;
let readerA: string;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.token({ sub: 'root', tenantId: 'hq', roles: ['admin'] });
  readerA = await server.token({ sub: 'anna', tenantId: 'tenant-a', roles: [] });
  readerB = await server.token({ sub: 'bob', tenantId: 'tenant-b', roles: [] });
  const t = await openTransport('REST', server);
  const bulk = expectOk(await t.call({ controller: 'document', action: 'mCreate', collection: 'countries', token: admin, body: [...PUBLIC.map((c) => ({ ...c, allowTenantIds: ['*'] })), ...SECRET] }));
  expect(bulk.errors).toEqual([]);
  await t.close();
});

afterAll(() => server.stop());

/** What tenant B must get: the public countries only. */
function expectPublicOnly(aggs: any): void {
  expect(aggs.regions.buckets).toEqual([
    { key: 'Europe', doc_count: 3, people: { value: 200 } },
    { key: 'Americas', doc_count: 1, people: { value: 19 } },
    { key: 'Asia', doc_count: 1, people: { value: 125 } },
  ]);
  expect(aggs.codes).toEqual({ value: 5 });
  expect(aggs.biggest).toEqual({ value: 125 });
  expect(aggs.everything).toEqual({ doc_count: 5, n: { value: 5 } });
  expect(aggs.all).toEqual({ doc_count: 5 });
  expect(aggs.secret).toEqual({ doc_count: 0 });
  expect(aggs.noRegion).toEqual({ doc_count: 0 });
  expect(aggs.top.hits.total).toEqual({ value: 5, relation: 'eq' });
  expect(aggs.top.hits.hits.map((h: any) => h._source.name)).toEqual(['Japan', 'Germany', 'France', 'Spain', 'Chile']);
  expect(aggs.pages.buckets.map((b: any) => b.key.r)).toEqual(['Americas', 'Asia', 'Europe']);
  expect(aggs.sizes.buckets.map((b: any) => b.doc_count)).toEqual([4, 1]);
}

describe.each(TRANSPORTS)('aggregations over %s', (name) => {
  let t: Transport;
  const search = (token: string, body: unknown, args?: Record<string, number>) => t.call({ controller: 'document', action: 'search', collection: 'countries', token, body, args });

  beforeAll(async () => {
    t = await openTransport(name, server);
  });
  afterAll(() => t.close());

  it('a size 0 search answers its total and aggregations only', async () => {
    const answer = expectOk(await search(readerB, { size: 0, aggs: { regions: { terms: { field: 'region.keyword' } } } }));
    expect(Object.keys(answer)).toEqual(['total', 'aggregations']);
    expect(answer.total).toBe(5);
    expect(answer.aggregations.regions.buckets[0]).toEqual({ key: 'Europe', doc_count: 3 });
  });

  it('answers aggregations next to the page of hits (aggregations key too)', async () => {
    const answer = expectOk(await search(readerB, { query: { match: { region: 'europe' } }, aggregations: { n: { avg: { field: 'population' } } } }, { size: 1 }));
    expect(answer.hits).toHaveLength(1);
    expect(answer.total).toBe(3);
    expect(answer.aggregations).toEqual({ n: { value: 200 / 3 } });
  });

  it('never counts what the caller cannot see, in any aggregation', async () => {
    const answer = expectOk(await search(readerB, { size: 0, aggs: EVERY_WAY_IN }));
    expectPublicOnly(answer.aggregations);
    const text = JSON.stringify(answer);
    for (const secret of ['Atlantis', 'Lemuria', 'Secret', '9000', '7000', '16000']) expect(text).not.toContain(secret);
  });

  it('the owner tenant counts its own entities', async () => {
    const answer = expectOk(await search(readerA, { size: 0, aggs: EVERY_WAY_IN }));
    expect(answer.aggregations.regions.buckets[0]).toEqual({ key: 'Europe', doc_count: 4, people: { value: 7200 } });
    expect(answer.aggregations.secret).toEqual({ doc_count: 1 });
    expect(answer.aggregations.everything.doc_count).toBe(7);
  });

  it('refuses bad aggregations and too many buckets with 400s', async () => {
    expectError(await search(readerB, { aggs: { r: { terms: { field: 'region' } } } }), 'services.storage.invalid_search_query', 400);
    expectError(await search(readerB, { aggs: { r: { nope: {} } } }), 'services.storage.invalid_search_query', 400);
    expectError(await search(readerB, { aggs: { r: { terms: { field: 'region.keyword', min_doc_count: 0 } } } }), 'services.storage.invalid_search_query', 400);
    const tooMany = await search(readerB, { size: 0, aggs: { h: { histogram: { field: 'population', interval: 0.001 } } } });
    expectError(tooMany, 'services.storage.too_many_buckets', 400);
    expect(tooMany.envelope.error.message).toContain('Must be less than or equal to: [65536]');
  });
});

describe('aggregations over GraphQL', () => {
  const QUERY = `query($aggs: JSON, $size: Int) {
    search(type: "countries", size: $size, aggs: $aggs) {
      total
      hits { id }
      aggregations
      facets { name type sumOtherDocCount buckets { key keyNumber docCount from to aggregations } }
      facet(name: "regions") { buckets { key docCount } }
    }
  }`;

  it('answers typed facets and the aggregations as JSON, tenant-scoped', async () => {
    const data = expectGqlData(await gqlHttp(server, QUERY, { token: readerB, variables: { size: 0, aggs: EVERY_WAY_IN } }));
    expect(data.search.total).toBe(5);
    expect(data.search.hits).toEqual([]);
    expectPublicOnly(data.search.aggregations);
    expect(data.search.facets.map((f: any) => [f.name, f.type])).toEqual([
      ['regions', 'terms'],
      ['sizes', 'range'],
    ]);
    expect(data.search.facets[0]).toEqual({
      name: 'regions',
      type: 'terms',
      sumOtherDocCount: 0,
      buckets: [
        { key: 'Europe', keyNumber: null, docCount: 3, from: null, to: null, aggregations: { people: { value: 200 } } },
        { key: 'Americas', keyNumber: null, docCount: 1, from: null, to: null, aggregations: { people: { value: 19 } } },
        { key: 'Asia', keyNumber: null, docCount: 1, from: null, to: null, aggregations: { people: { value: 125 } } },
      ],
    });
    expect(data.search.facets[1].buckets).toEqual([
      { key: '*-100.0', keyNumber: null, docCount: 4, from: null, to: 100, aggregations: null },
      { key: '100.0-*', keyNumber: null, docCount: 1, from: 100, to: null, aggregations: null },
    ]);
    expect(data.search.facet.buckets[0]).toEqual({ key: 'Europe', docCount: 3 });
    expect(JSON.stringify(data)).not.toContain('Secret');
  });

  it('answers no facets and null aggregations without aggs, and refuses bad aggs with the catalogue error', async () => {
    const data = expectGqlData(await gqlHttp(server, QUERY, { token: readerB, variables: { size: 1 } }));
    expect(data.search).toMatchObject({ aggregations: null, facets: [], facet: null });
    expect(data.search.hits).toHaveLength(1);
    const bad = await gqlHttp(server, QUERY, { token: readerB, variables: { aggs: { r: { terms: { field: 'region' } } } } });
    expectGqlError(bad.body.errors, 'services.storage.invalid_search_query', 400);
  });
});
