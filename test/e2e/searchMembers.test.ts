/**
 * The rest of the Elasticsearch search request end to end, on the real server over REST, the raw
 * WebSocket and GraphQL: `_source: false`, `stored_fields`, `fields`, `docvalue_fields`,
 * `track_total_hits`, `terminate_after`, `min_score`, `post_filter`, `explain` and `collapse` with
 * `inner_hits`; their refusals; and tenant isolation: no hit, count, group, inner hit or
 * explanation ever shows what the caller cannot see.
 */
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';
import { startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, openTransport, TRANSPORTS, type Transport } from '../support/e2e';

const country = ([name, code, region, population]: [string, string, string, number]) => ({ name, code, region, population });
const PUBLIC = ([['France', 'FR', 'Europe', 68], ['Germany', 'DE', 'Europe', 84], ['South Africa', 'ZA', 'Africa', 60]] as [string, string, string, number][]).map(country);
/** Tenant A's own: tenant B must never see a trace of them. */
const SECRET = ([['Atlantis Africa', 'AT', 'Africa', 9000], ['Lemuria', 'LM', 'Secret', 7000]] as [string, string, string, number][]).map((c) => ({ ...country(c), allowTenantIds: ['tenant-a'] }));

let server: TestServer;
let readerB: string;

beforeAll(async () => {
  server = await startTestServer();
  const admin = await server.token({ sub: 'root', tenantId: 'hq', roles: ['admin'] });
  readerB = await server.token({ sub: 'bob', tenantId: 'tenant-b', roles: [] });
  const t = await openTransport('REST', server);
  expect(expectOk(await t.call({ controller: 'document', action: 'mCreate', collection: 'countries', token: admin, body: [...PUBLIC.map((c) => ({ ...c, allowTenantIds: ['*'] })), ...SECRET] })).errors).toEqual([]);
  await t.close();
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('the rest of the search request over %s', (name) => {
  let t: Transport;
  const search = (body: unknown) => t.call({ controller: 'document', action: 'search', collection: 'countries', token: readerB, body });

  beforeAll(async () => {
    t = await openTransport(name, server);
  });
  afterAll(() => t.close());

  it('answers hits without _source, with fields and docvalue_fields', async () => {
    const r = expectOk(await search({ query: { term: { 'code.keyword': 'FR' } }, _source: false, fields: ['name*'], docvalue_fields: ['population'] }));
    expect(r.hits).toEqual([{ _id: expect.any(String), _score: expect.any(Number), fields: { name: ['France'], 'name.keyword': ['France'], population: [68] } }]);
    expect(expectOk(await search({ stored_fields: '_none_', size: 1 })).hits[0]).not.toHaveProperty('_source');
  });

  it('counts as track_total_hits says, never counting another tenant', async () => {
    expect(expectOk(await search({}))).toMatchObject({ total: 3 });
    expect(expectOk(await search({ track_total_hits: false }))).toMatchObject({ total: -1 });
    expect(expectOk(await search({ track_total_hits: 2 }))).toMatchObject({ total: 2, total_relation: 'gte' });
    expect(expectOk(await search({ track_total_hits: 100 }))).toMatchObject({ total: 3, total_relation: 'eq' });
  });

  it('applies terminate_after, min_score and post_filter', async () => {
    expect(expectOk(await search({ terminate_after: 1 }))).toMatchObject({ total: 1, terminated_early: true });
    const post = expectOk(await search({ post_filter: { term: { 'region.keyword': 'Africa' } }, aggs: { r: { terms: { field: 'region.keyword' } } } }));
    expect(post.hits.map((h: any) => h._source.name)).toEqual(['South Africa']);
    expect(post.aggregations.r.buckets).toEqual([{ key: 'Europe', doc_count: 2 }, { key: 'Africa', doc_count: 1 }]);
    expect(expectOk(await search({ query: { match: { name: 'africa' } }, min_score: 100 }))).toMatchObject({ total: 0, hits: [] });
  });

  it("collapses and explains within the caller's entities only", async () => {
    const r = expectOk(await search({ query: { match: { name: 'africa' } }, collapse: { field: 'region.keyword', inner_hits: { name: 'more', size: 5 } }, explain: true }));
    expect(r.total).toBe(1);
    expect(r.hits).toHaveLength(1);
    expect(r.hits[0].fields).toEqual({ 'region.keyword': ['Africa'] });
    expect(r.hits[0].inner_hits.more.hits.total).toBe(1);
    expect(r.hits[0]._explanation.value).toBe(r.hits[0]._score);
    expect(JSON.stringify(r)).not.toContain('Atlantis');
    // the explanation is the caller's query's: no tenant clause in it
    const explanation = JSON.stringify(r.hits[0]._explanation);
    for (const secret of ['tenant-b', 'allowTenantIds', '# clause']) expect(explanation).not.toContain(secret);
  });

  it('refuses bad members with catalogue ids', async () => {
    expectError(await search({ track_total_hits: -3 }), 'api.assert.invalid_argument', 400);
    expectError(await search({ terminate_after: 'x' }), 'api.assert.invalid_type', 400);
    expectError(await search({ collapse: { field: 'name' } }), 'services.storage.invalid_search_query', 400);
    expectError(await search({ docvalue_fields: ['name'] }), 'services.storage.invalid_search_query', 400);
    expectError(await search({ rescore: {} }), 'services.storage.invalid_search_query', 400);
  });
});

describe('the rest of the search request over GraphQL', () => {
  const QUERY = `query ($source: JSON, $fields: JSON, $track: JSON, $collapse: JSON, $explain: Boolean, $post: JSON, $min: Float, $after: Int) {
    search(type: "countries", source: $source, fields: $fields, trackTotalHits: $track, collapse: $collapse, explain: $explain, postFilter: $post, minScore: $min, terminateAfter: $after) {
      total totalRelation terminatedEarly
      hits { id source entity { ... on GenericEntity { data } } fields innerHits explanation }
    }
  }`;
  const run = (variables: Record<string, unknown>) => gqlHttp(server, QUERY, { token: readerB, variables });

  it('takes each member as an argument and answers its parts', async () => {
    const data = expectGqlData(await run({ source: false, fields: ['code.keyword'], track: 1, explain: true, post: { term: { 'region.keyword': 'Europe' } } }));
    expect(data.search.total).toBe(1);
    expect(data.search.totalRelation).toBe('gte');
    expect(data.search.terminatedEarly).toBeNull();
    expect(data.search.hits).toHaveLength(2);
    for (const hit of data.search.hits) {
      expect(hit.source).toBeNull();
      expect(hit.entity).toBeNull();
      expect(hit.fields['code.keyword']).toHaveLength(1);
      expect(hit.explanation).toEqual({ value: 1, description: '*:*', details: [] });
    }
    const grouped = expectGqlData(await run({ collapse: { field: 'region.keyword', inner_hits: { name: 'more' } }, after: 10 }));
    expect(grouped.search.terminatedEarly).toBe(false);
    expect(grouped.search.hits.map((h: any) => h.fields['region.keyword'][0]).sort()).toEqual(['Africa', 'Europe']);
    expect(JSON.stringify(grouped)).not.toContain('Atlantis');
  });

  it('refuses bad members with catalogue ids', async () => {
    expectGqlError((await run({ track: 'all' })).body.errors, 'api.assert.invalid_type', 400);
    expectGqlError((await run({ collapse: { field: 'nope' } })).body.errors, 'services.storage.invalid_search_query', 400);
  });
});
