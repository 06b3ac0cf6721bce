/**
 * Typo tolerance on the demo countries, end to end over REST, the raw WebSocket and GraphQL:
 * `fuzziness` on match and multi_match and the fuzzy query find what was meant, answer alike on
 * every way in, are refused with a 400 where Elasticsearch refuses them, and never show or count
 * another tenant's entities.
 */
import { demoCountries } from '../../src/demo/countries';
import { request, startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, transportOf, TRANSPORTS, seedEntities } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';

let server: TestServer;
let reader: string;
let admin: string;

beforeAll(async () => {
  server = await startTestServer();
  reader = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
  await seedEntities(server, 'countries', [
    // the demo countries (ICU names a few twice: kept once, as slugs are unique)
    ...demoCountries().filter((c, i, all) => all.findIndex((d) => d.name === c.name) === i),
    // acme's own misspelled France (2 edits from "frnace"), and globex's exact "Frnace"
    { _id: 'franse', name: 'Franse', code: 'FS-A', allowTenantIds: ['acme'] },
    { _id: 'frnace', name: 'Frnace', code: 'FN-G', allowTenantIds: ['globex'] },
  ], admin);
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('typo-tolerant search over %s', (name) => {
  const t = transportOf(name, () => server);

  const call = (action: 'search' | 'count', body: unknown, token = reader) => t.call({ controller: 'document', action, collection: 'countries', body, args: action === 'search' ? { size: 50 } : undefined, token });
  const search = async (query: unknown, token = reader) => expectOk(await call('search', { query }, token));

  it('{"match":{"name":{"query":"frnace","fuzziness":"AUTO"}}} finds France, and the tenant\'s own Franse, never globex\'s Frnace', async () => {
    const query = { match: { name: { query: 'frnace', fuzziness: 'AUTO' } } };
    const result = await search(query);
    expect(result.hits[0]._source.name).toBe('France');
    expect(result.hits.map((h: any) => h._id).sort()).toEqual(['fr', 'franse']);
    expect(result.total).toBe(2);
    expect(expectOk(await call('count', { query })).count).toBe(2);
    // without fuzziness: nothing, as before
    expect((await search({ match: { name: 'frnace' } })).total).toBe(0);
  });

  it('the fuzzy query finds a typo in any word, ranks the nearest first, and never shows another tenant\'s entity', async () => {
    const result = await search({ fuzzy: { name: { value: 'kingdon' } } });
    expect(result.hits[0]._source.name).toBe('United Kingdom');
    const swapped = await search({ fuzzy: { name: 'frnace' } });
    expect(swapped.hits.map((h: any) => h._id)).toEqual(['fr', 'franse']); // 1 edit (a swap), then 2
    expect(swapped.hits[0]._score).toBeGreaterThan(swapped.hits[1]._score);
    const asGlobex = await search({ fuzzy: { name: 'frnace' } }, await server.token({ sub: 'gil', tenantId: 'globex', roles: [] }));
    expect(asGlobex.hits.map((h: any) => h._id)).toEqual(['frnace', 'fr']);
  });

  it('the tenant filter never changes scores: a visible entity scores what it scores for an admin', async () => {
    const query = { multi_match: { query: 'nwe zeland', fields: ['name', 'code'], fuzziness: 'AUTO' } };
    const mine = await search(query);
    const all = await search(query, admin);
    expect(mine.hits[0]._source.name).toBe('New Zealand');
    const adminScores = new Map(all.hits.map((h: any) => [h._id, h._score]));
    for (const hit of mine.hits) expect(hit._score).toBe(adminScores.get(hit._id));
  });

  it('refuses what Elasticsearch refuses, with a 400 naming it', async () => {
    const bad = await call('search', { query: { match: { name: { query: 'x', fuzziness: 3 } } } });
    expectError(bad, 'services.storage.invalid_search_query', 400);
    expect(bad.envelope.error.message).toContain('Valid edit distances are [0, 1, 2] but was [3]');
    const phrase = await call('search', { query: { multi_match: { query: 'x', type: 'phrase', fuzziness: 1 } } });
    expect(phrase.envelope.error.message).toContain('Fuzziness not allowed for type [phrase]');
    const keyword = await call('count', { query: { fuzzy: { modified: { value: '2024', fuzziness: 1 } } } });
    expectError(keyword, 'services.storage.invalid_search_query', 400);
    expect(keyword.envelope.error.message).toContain('Can only use fuzzy queries on keyword and text fields');
  });
});

describe('typo-tolerant search over GraphQL', () => {
  const SEARCH = `query Search($query: JSON) { search(type: "countries", query: $query, size: 10) { total hits { id score entity { ... on Country { name } } } } }`;

  it('answers what REST answers, without another tenant\'s entities', async () => {
    for (const query of [{ match: { name: { query: 'frnace', fuzziness: 'AUTO' } } }, { fuzzy: { name: 'kingdon' } }, { multi_match: { query: 'grmany', fields: ['name', 'code'], fuzziness: 1 } }]) {
      const data = expectGqlData(await gqlHttp(server, SEARCH, { token: reader, variables: { query } }));
      const viaRest = (await request(server, 'POST', '/v4/entity/countries/search', { token: reader, body: { query } })).body.result;
      expect(data.search.total).toBe(viaRest.total);
      expect(data.search.hits.map((h: any) => [h.id, h.score])).toEqual(viaRest.hits.map((h: any) => [h._id, h._score]));
      expect(data.search.hits.map((h: any) => h.id)).not.toContain('frnace');
    }
    const france = expectGqlData(await gqlHttp(server, SEARCH, { token: reader, variables: { query: { match: { name: { query: 'frnace', fuzziness: 'AUTO' } } } } }));
    expect(france.search.hits[0].entity.name).toBe('France');
  });

  it('answers a refused query with its catalogue id', async () => {
    const res = await gqlHttp(server, SEARCH, { token: reader, variables: { query: { fuzzy: { name: { value: 'x', fuzziness: 'sometimes' } } } } });
    expectGqlError(res.body.errors, 'services.storage.invalid_search_query', 400);
  });
});
