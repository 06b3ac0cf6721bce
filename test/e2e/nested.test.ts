/**
 * `nested` end to end, on the real server over REST, the raw WebSocket and GraphQL: a mapping
 * declares `parts` nested (collection:updateMapping), entities are written (_bulk), then a nested query matches object by object
 * with its score_mode and inner_hits (`_nested`), its refusals have catalogue ids, and tenant
 * isolation holds: no hit, count or inner hit ever shows another tenant's entity or object.
 */
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';
import { startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, openTransport, seedEntities, transportOf, TRANSPORTS } from '../support/e2e';

const KITS = [
  { name: 'small kit', parts: [{ name: 'bolt', n: 3 }, { name: 'nut', n: 7 }], allowTenantIds: ['*'] },
  { name: 'large kit', parts: [{ name: 'bolt', n: 9 }, { name: 'washer', n: 1 }], allowTenantIds: ['*'] },
  /** Tenant A's own: tenant B must never see a trace of it. */
  { name: 'secret kit', parts: [{ name: 'bolt', n: 8, code: 'ZZ-TOP' }], allowTenantIds: ['tenant-a'] },
];
const BOLT_AND_BIG = { bool: { must: [{ match: { 'parts.name': 'bolt' } }, { range: { 'parts.n': { gte: 5 } } }] } };

let server: TestServer;
let readerB: string;

beforeAll(async () => {
  server = await startTestServer();
  const admin = await server.token({ sub: 'root', tenantId: 'hq', roles: ['admin'] });
  readerB = await server.token({ sub: 'bob', tenantId: 'tenant-b', roles: [] });
  const t = await openTransport('WebSocket', server);
  expectOk(await t.call({ controller: 'collection', action: 'updateMapping', collection: 'kits', token: admin, body: { properties: { parts: { type: 'nested', properties: { name: { type: 'text' }, n: { type: 'integer' } } } } } }));
  await t.close();
  await seedEntities(server, 'kits', KITS, admin);
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('nested over %s', (name) => {
  const t = transportOf(name, () => server);
  const search = (body: unknown) => t.call({ controller: 'document', action: 'search', collection: 'kits', token: readerB, body });

  it('matches one object at a time, with inner_hits', async () => {
    const r = expectOk(await search({ query: { nested: { path: 'parts', query: BOLT_AND_BIG, score_mode: 'max', inner_hits: {} } } }));
    expect(r.total).toBe(1);
    expect(r.hits[0]._source.name).toBe('large kit');
    const inner = r.hits[0].inner_hits.parts.hits;
    expect(inner).toEqual({ total: 1, max_score: r.hits[0]._score, hits: [{ _id: r.hits[0]._id, _nested: { field: 'parts', offset: 0 }, _score: r.hits[0]._score, _source: { name: 'bolt', n: 9 } }] });
  });

  it("never shows another tenant's entity or object", async () => {
    const query = { nested: { path: 'parts', query: { match: { 'parts.name': 'bolt' } }, inner_hits: { size: 10 } } };
    const r = expectOk(await search({ query }));
    expect(r.hits.map((h: any) => h._source.name).sort()).toEqual(['large kit', 'small kit']);
    expect(JSON.stringify(r)).not.toContain('ZZ-TOP');
    expect(expectOk(await t.call({ controller: 'document', action: 'count', collection: 'kits', token: readerB, body: { query } })).count).toBe(2);
  });

  it('refuses bad nested queries with catalogue ids', async () => {
    expectError(await search({ query: { nested: { path: 'nothing', query: { match_all: {} } } } }), 'services.storage.invalid_search_query', 400);
    expectError(await search({ query: { nested: { path: 'parts', query: { match_all: {} }, score_mode: 'total' } } }), 'services.storage.invalid_search_query', 400);
    expectError(await search({ query: { nested: { path: 'parts', query: { match_all: {} }, inner_hits: { size: 500 } } } }), 'services.storage.invalid_search_query', 400);
  });

  it('counts the query inside toward the clause and depth limits', async () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' ');
    expectError(await search({ query: { nested: { path: 'parts', query: { match: { 'parts.name': words } } } } }), 'services.storage.too_many_clauses', 400);
    let deep: unknown = { match_all: {} };
    for (let i = 0; i < 30; i++) deep = { bool: { must: [deep] } };
    expectError(await search({ query: { nested: { path: 'parts', query: deep } } }), 'services.storage.query_too_deep', 400);
  });
});

describe('nested objects limit', () => {
  it('refuses an entity with more than 10,000 nested objects, with a catalogue id', async () => {
    const writer = await server.token({ sub: 'wendy', tenantId: 'tenant-c', roles: ['writer'] });
    const t = await openTransport('REST', server);
    const parts = Array.from({ length: 10_001 }, (_, n) => ({ name: 'bolt', n }));
    expectError(await t.call({ controller: 'document', action: 'create', collection: 'kits', token: writer, body: { name: 'huge kit', parts } }), 'services.storage.nested_objects_limit', 400);
    expectOk(await t.call({ controller: 'document', action: 'create', collection: 'kits', token: writer, body: { name: 'big kit', parts: parts.slice(1) } }));
    await t.close();
  });
});

describe('nested over GraphQL', () => {
  const QUERY = `query ($query: JSON) { search(type: "kits", query: $query) { total hits { id score source innerHits } } }`;
  const run = (query: unknown) => gqlHttp(server, QUERY, { token: readerB, variables: { query } });

  it('answers the hits and their inner hits', async () => {
    const data = expectGqlData(await run({ nested: { path: 'parts', query: BOLT_AND_BIG, inner_hits: { name: 'found' } } }));
    expect(data.search.total).toBe(1);
    expect(data.search.hits[0].innerHits.found.hits.hits[0]).toMatchObject({ _nested: { field: 'parts', offset: 0 }, _source: { name: 'bolt', n: 9 } });
    const all = expectGqlData(await run({ nested: { path: 'parts', query: { match_all: {} }, inner_hits: { size: 10 } } }));
    expect(all.search.total).toBe(2);
    expect(JSON.stringify(all)).not.toContain('ZZ-TOP');
  });

  it('refuses an unmapped path with a catalogue id', async () => {
    expectGqlError((await run({ nested: { path: 'nothing', query: { match_all: {} } } })).body.errors, 'services.storage.invalid_search_query', 400);
  });
});
