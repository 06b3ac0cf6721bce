/**
 * The multi-field and positional text queries end to end, over REST and the raw WebSocket (both
 * through the same core): combined_fields finds and ranks articles as one field made of their
 * title and body (scores equal to Lucene's CombinedFieldQuery, pinned by hand in
 * query/combinedFields.test.ts), answers a 400 where Elasticsearch refuses it, and never shows or
 * counts another tenant's entities; intervals finds words in order, near each other and with
 * filters, scored as Lucene's IntervalQuery.
 */
import { startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, transportOf, TRANSPORTS, seedEntities } from '../support/e2e';

let server: TestServer;
let reader: string;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  reader = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
  await seedEntities(server, 'articles', [
    { _id: 'a', title: 'apple pear', body: 'apple apple tree', allowTenantIds: ['acme'] },
    { _id: 'b', title: 'tree', body: 'pear apple', allowTenantIds: ['acme'] },
    { _id: 'c', title: 'apple', allowTenantIds: ['acme'] },
    { _id: 'd', title: 'red', body: 'x y z w v u t s r q p o apple', allowTenantIds: ['acme'] },
    { _id: 'g', title: 'pear', body: 'pear pear', allowTenantIds: ['globex'] },
  ], admin);
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('text queries over %s', (name) => {
  const t = transportOf(name, () => server);

  const call = (action: 'search' | 'count', body: unknown, token = reader) => t.call({ controller: 'document', action, collection: 'articles', body, args: action === 'search' ? { size: 50 } : undefined, token });
  const search = async (query: unknown, token = reader) => expectOk(await call('search', { query }, token));

  it('combined_fields ranks title and body as one field, weights included', async () => {
    const apple = await search({ combined_fields: { query: 'apple', fields: ['title', 'body'] } });
    expect(apple.hits.map((h: any) => h._id)).toEqual(['a', 'c', 'b', 'd']);
    // the collection's statistics count globex's article too (as Elasticsearch does), its hits never
    const pear = await search({ combined_fields: { query: 'pear', fields: ['title^2', 'body'] } });
    expect(pear.hits.map((h: any) => h._id).sort()).toEqual(['a', 'b']);
    expect(pear.total).toBe(2);
    expect(expectOk(await call('count', { query: { combined_fields: { query: 'pear', fields: ['title', 'body'] } } })).count).toBe(2);
  });

  it('intervals finds words in order and near each other, never in another tenant\'s entity', async () => {
    const ordered = await search({ intervals: { body: { match: { query: 'apple tree', ordered: true } } } });
    expect(ordered.hits.map((h: any) => [h._id, h._score])).toEqual([['a', 0.5]]);
    const near = { intervals: { body: { all_of: { intervals: [{ match: { query: 'pear' } }, { prefix: { prefix: 'app' } }], max_gaps: 0 } } } };
    expect((await search(near)).hits.map((h: any) => h._id)).toEqual(['b']);
    // globex's "pear pear" is never found nor counted
    expect(expectOk(await call('count', { query: { intervals: { body: { match: { query: 'pear pear' } } } } })).count).toBe(0);
    expectError(await call('search', { query: { intervals: { body: { match: { query: 'a', filter: { near: {} } } } } } }), 'services.storage.invalid_search_query', 400);
  });

  it('combined_fields is refused with a 400 where Elasticsearch refuses it', async () => {
    expectError(await call('search', { query: { combined_fields: { query: 'pear', fields: ['title^0.5'] } } }), 'services.storage.invalid_search_query', 400);
    expectError(await call('search', { query: { combined_fields: { query: 'pear', fields: ['title', 'title.keyword'] } } }), 'services.storage.invalid_search_query', 400);
  });
});
