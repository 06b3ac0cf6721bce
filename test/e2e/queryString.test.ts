/**
 * The search-box syntaxes on the demo countries, end to end over REST, the raw WebSocket and
 * GraphQL: `query_string` and `simple_query_string` find what a search box means, answer alike on
 * every way in, refuse a syntax error with a 400 naming its column, and never show or count
 * another tenant's entities (whatever `_id:`, `allowTenantIds:`, `*` or NOT they hold).
 */
import { request, type TestServer } from '../support/testServer';
import { startDemoCountries } from '../support/demoCountries';
import { expectError, expectOk, transportOf, TRANSPORTS } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';

let server: TestServer;
let reader: string;
let admin: string;

beforeAll(async () => {
  ({ server, reader, admin } = await startDemoCountries([
    { _id: 'acmeland', name: 'Acmeland South', code: 'AC-X', allowTenantIds: ['acme'] },
    { _id: 'globexia', name: 'Globexia South', code: 'GL-X', allowTenantIds: ['globex'] },
  ]));
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('search-box syntax over %s', (name) => {
  const t = transportOf(name, () => server);

  const call = (action: 'search' | 'count', body: unknown, token = reader) => t.call({ controller: 'document', action, collection: 'countries', body, args: action === 'search' ? { size: 300 } : undefined, token });
  const search = async (query: unknown, token = reader) => expectOk(await call('search', { query }, token));
  const names = async (query: unknown, token = reader) => (await search(query, token)).hits.map((h: any) => h._source.name);

  it('query_string: name:(south AND korea), OR, phrases, prefixes, -, wildcards', async () => {
    expect(await names({ query_string: { query: 'name:(south AND korea)' } })).toEqual(['South Korea']);
    expect(await names({ query_string: { query: '"united kingdom" OR "united states"', default_field: 'name' } })).toEqual(expect.arrayContaining(['United Kingdom', 'United States']));
    expect((await names({ query_string: { query: 'name:fran*' } }))[0]).toBe('France');
    expect(await names({ query_string: { query: 'south -africa -korea -sudan -georgia', default_field: 'name' } })).toEqual(['Acmeland South']);
    const query = { query_string: { query: 'code:F?' } };
    expect((await search(query)).total).toBe(expectOk(await call('count', { query })).count);
  });

  it('simple_query_string: + | - and quotes, never a syntax error', async () => {
    expect(await names({ simple_query_string: { query: 'south + korea + -north', fields: ['name'] } })).toEqual(['South Korea']);
    expect((await names({ simple_query_string: { query: '"new zealand" | "papua new guinea"', fields: ['name'] } })).sort()).toEqual(['New Zealand', 'Papua New Guinea']);
    expect((await search({ simple_query_string: { query: '((("', fields: ['name'] } })).total).toBe(0);
  });

  it("never shows or counts another tenant's entity: _id, allowTenantIds, * and NOT stay inside the caller's view", async () => {
    for (const query of [
      { query_string: { query: '_id:globexia' } },
      { query_string: { query: 'allowTenantIds:globex' } },
      { query_string: { query: 'globexia OR *:*' } },
      { query_string: { query: 'NOT allowTenantIds:acme AND south', default_field: 'name' } },
      { simple_query_string: { query: 'globexia | acmeland' } },
    ]) {
      const result = await search(query);
      expect(result.hits.map((h: any) => h._id)).not.toContain('globexia');
      expect(expectOk(await call('count', { query })).count).toBe(result.total);
    }
    expect(await names({ query_string: { query: 'name:south AND allowTenantIds:acme' } })).toEqual(['Acmeland South']);
    expect(await names({ query_string: { query: 'name:south AND allowTenantIds:globex' } }, admin)).toEqual(['Globexia South']);
  });

  it('refuses a syntax error with a 400 naming its column', async () => {
    const bad = await call('search', { query: { query_string: { query: 'name:(south AND' } } });
    expectError(bad, 'services.storage.invalid_search_query', 400);
    expect(bad.envelope.error.message).toContain("Cannot parse 'name:(south AND': Encountered \"<EOF>\" at line 1, column 15.");
    const deep = await call('count', { query: { query_string: { query: `${'('.repeat(64)}x${')'.repeat(64)}` } } });
    expectError(deep, 'services.storage.query_too_deep', 400);
  });
});

describe('API keys searched with a query string', () => {
  it("show the caller's own keys only, whatever fields the query string names", async () => {
    const bob = await server.token({ sub: 'bob', tenantId: 'acme', roles: [] });
    for (const [token, description] of [[reader, 'rita ci'], [bob, 'bob ci']]) {
      expect((await request(server, 'POST', '/v4/api-keys/_create', { token, body: { description } })).status).toBe(200);
    }
    for (const query of [{ query_string: { query: '*' } }, { query_string: { query: 'userId:bob OR description:ci' } }, { simple_query_string: { query: 'bob | ci' } }, { query_string: { query: 'NOT userId:rita' } }]) {
      const answer = await request(server, 'POST', '/v4/api-keys/_search', { token: reader, body: { query } });
      expect(answer.status).toBe(200);
      for (const hit of answer.body.result.hits) {
        expect(hit._source.userId).toBe('rita');
        expect(hit._source.token).toBeUndefined();
      }
    }
    const mine = await request(server, 'POST', '/v4/api-keys/_search', { token: reader, body: { query: { query_string: { query: 'description:ci' } } } });
    expect(mine.body.result.hits.map((h: any) => h._source.description)).toEqual(['rita ci']);
  });
});

describe('search-box syntax over GraphQL', () => {
  const SEARCH = `query Search($query: JSON) { search(type: "countries", query: $query, size: 10) { total hits { id score entity { ... on Country { name } } } } }`;

  it("answers what REST answers, without another tenant's entities", async () => {
    for (const query of [{ query_string: { query: 'south OR globexia', default_field: 'name' } }, { simple_query_string: { query: 'sou* + -africa' } }]) {
      const data = expectGqlData(await gqlHttp(server, SEARCH, { token: reader, variables: { query } }));
      const viaRest = (await request(server, 'POST', '/v4/entity/countries/search', { token: reader, body: { query } })).body.result;
      expect(data.search.total).toBe(viaRest.total);
      expect(data.search.hits.map((h: any) => [h.id, h.score])).toEqual(viaRest.hits.map((h: any) => [h._id, h._score]));
      expect(data.search.hits.map((h: any) => h.id)).not.toContain('globexia');
    }
  });

  it('answers a syntax error with its catalogue id', async () => {
    const res = await gqlHttp(server, SEARCH, { token: reader, variables: { query: { query_string: { query: 'a:(' } } } });
    expectGqlError(res.body.errors, 'services.storage.invalid_search_query', 400);
    expect(res.body.errors[0].message).toContain('column 3');
  });
});
