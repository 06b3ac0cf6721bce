/**
 * As-you-type search on the demo countries, end to end over REST, the raw WebSocket and GraphQL:
 * match_phrase_prefix, match_bool_prefix and multi_match (phrase_prefix, bool_prefix,
 * cross_fields) find what a search box would, answer alike on every way in, are refused with a 400
 * where Elasticsearch refuses them, and never show another tenant's entities.
 */
import { demoCountries } from '../../src/demo/countries';
import { request, startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, transportOf, TRANSPORTS, seedEntities } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';

let server: TestServer;
let reader: string;

beforeAll(async () => {
  server = await startTestServer();
  reader = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  await seedEntities(server, 'countries', [
    // the demo countries (ICU names a few twice: kept once, as slugs are unique)
    ...demoCountries().filter((c, i, all) => all.findIndex((d) => d.name === c.name) === i),
    // one entity of acme, one of globex: both start like France
    { _id: 'frankland', name: 'Frankland', code: 'FK-A', allowTenantIds: ['acme'] },
    { _id: 'francovia', name: 'Francovia', code: 'FV-G', allowTenantIds: ['globex'] },
  ]);
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('as-you-type search over %s', (name) => {
  const t = transportOf(name, () => server);

  const search = async (query: unknown, size = 10) => expectOk(await t.call({ controller: 'document', action: 'search', collection: 'countries', body: { query }, args: { size }, token: reader }));
  const names = async (query: unknown) => (await search(query, 50)).hits.map((h: any) => h._source.name);

  it('{"match_phrase_prefix":{"name":"fran"}} finds France, and the tenant\'s own Frankland, never another tenant\'s Francovia', async () => {
    const result = await search({ match_phrase_prefix: { name: 'fran' } });
    expect(result.hits[0]._source.name).toBe('France');
    expect(result.hits.map((h: any) => h._id).sort()).toEqual(['fr', 'frankland']);
    expect(result.total).toBe(2);
    const count = expectOk(await t.call({ controller: 'document', action: 'count', collection: 'countries', body: { query: { match_phrase_prefix: { name: 'fran' } } }, token: reader }));
    expect(count.count).toBe(2);
  });

  it('{"match_bool_prefix":{"name":"united k"}} puts United Kingdom first', async () => {
    const result = await search({ match_bool_prefix: { name: 'united k' } });
    expect(result.hits[0]._source.name).toBe('United Kingdom');
    expect(await names({ match_bool_prefix: { name: { query: 'united k', operator: 'and' } } })).toEqual(['United Kingdom']);
    expect(await names({ match_phrase_prefix: { name: 'united k' } })).toEqual(['United Kingdom']);
  });

  it('multi_match phrase_prefix, bool_prefix and cross_fields search name and code together', async () => {
    expect((await names({ multi_match: { query: 'new z', type: 'phrase_prefix', fields: ['name', 'code'] } }))[0]).toBe('New Zealand');
    expect((await names({ multi_match: { query: 'south kor', type: 'bool_prefix', fields: ['name^2', 'code'], operator: 'and' } }))[0]).toBe('South Korea');
    expect((await names({ multi_match: { query: 'korea kp', type: 'cross_fields', fields: ['name', 'code'], operator: 'and' } }))[0]).toBe('North Korea');
  });

  it('refuses a phrase prefix on a keyword field (400 services.storage.invalid_search_query)', async () => {
    const answer = await t.call({ controller: 'document', action: 'search', collection: 'countries', body: { query: { match_phrase_prefix: { 'name.keyword': 'Fr' } } }, token: reader });
    expectError(answer, 'services.storage.invalid_search_query', 400);
    expect(answer.envelope.error.message).toContain('Can only use phrase prefix queries on text fields');
  });
});

describe('as-you-type search over GraphQL', () => {
  const SEARCH = `query Search($query: JSON) { search(type: "countries", query: $query, size: 10) { total hits { id score entity { ... on Country { name } } } } }`;

  it('answers what REST answers', async () => {
    for (const query of [{ match_phrase_prefix: { name: 'fran' } }, { match_bool_prefix: { name: 'united k' } }, { multi_match: { query: 'korea kp', type: 'cross_fields', fields: ['name', 'code'] } }]) {
      const data = expectGqlData(await gqlHttp(server, SEARCH, { token: reader, variables: { query } }));
      const viaRest = (await request(server, 'POST', '/v4/entity/countries/search', { token: reader, body: { query } })).body.result;
      expect(data.search.total).toBe(viaRest.total);
      expect(data.search.hits.map((h: any) => [h.id, h.score])).toEqual(viaRest.hits.map((h: any) => [h._id, h._score]));
    }
    const france = expectGqlData(await gqlHttp(server, SEARCH, { token: reader, variables: { query: { match_phrase_prefix: { name: 'fran' } } } }));
    expect(france.search.hits[0].entity.name).toBe('France');
    expect(france.search.hits.map((h: any) => h.id)).not.toContain('francovia');
  });

  it('answers a refused query with its catalogue id', async () => {
    const res = await gqlHttp(server, SEARCH, { token: reader, variables: { query: { multi_match: { query: 'x', type: 'bool_prefix', slop: 2 } } } });
    expectGqlError(res.body.errors, 'services.storage.invalid_search_query', 400);
  });
});
