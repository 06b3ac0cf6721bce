/**
 * `highlight` end to end, on a real server: over REST and the raw WebSocket (each hit's `highlight`)
 * and GraphQL (SearchHit.highlight), the same fragments; tenants (no highlight of what a caller may
 * not see, never the tenant filter's terms); API keys (only their public fields); the refusals.
 */
import { request, startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, transportOf, TRANSPORTS, type Transport } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';

let server: TestServer;
let admin: string;
let acme: string;
let globex: string;

const MOTTO = 'Unity in diversity. The rainbow nation of the south of Africa, with eleven official languages and three capitals.';

beforeAll(async () => {
  server = await startTestServer({ env: { MAX_ANALYZED_OFFSET: '2000' } });
  admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
  acme = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  globex = await server.token({ sub: 'gus', tenantId: 'globex', roles: [] });
  const bulk = await request(server, 'POST', '/v4/entity/countries/_bulk', {
    token: admin,
    body: {
      documents: [
        { _id: 'za', body: { name: 'South Africa', code: 'ZA', motto: MOTTO, allowTenantIds: ['*'] } },
        { _id: 'kr', body: { name: 'South Korea', code: 'KR', motto: 'Benefit all mankind.', allowTenantIds: ['*'] } },
        { _id: 'ac', body: { name: 'South Acmeland', code: 'AC', motto: 'Secret south plans of acme.', allowTenantIds: ['acme'] } },
      ],
    },
  });
  expect(bulk.status).toBe(200);
  const long = await request(server, 'POST', '/v4/entity/lands?_id=long', { token: admin, body: { name: 'Longland', motto: `south ${'word '.repeat(500)}`, allowTenantIds: ['*'] } });
  expect(long.status).toBe(200);
});

afterAll(() => server.stop());

const search = (t: Transport, token: string, body: Record<string, unknown>, args: Record<string, number> = {}, collection = 'countries') => t.call({ controller: 'document', action: 'search', collection, token, body, args });

describe.each(TRANSPORTS)('highlight over %s', (name) => {
  const t = transportOf(name, () => server);

  it('gives each hit the fragments of the fields asked, only fields with fragments', async () => {
    const result = expectOk(await search(t, acme, { query: { match: { name: 'south africa' } }, highlight: { fields: { name: {}, motto: {} } } }, { size: 2 }));
    const za = result.hits.find((h: any) => h._source.code === 'ZA');
    expect(za.highlight).toEqual({ name: ['<em>South</em> <em>Africa</em>'] });
    expect(Object.keys(za)).toEqual(['_id', '_score', '_source', 'highlight']);
  });

  it('takes the options: tags, fragment_size, number_of_fragments, order, encoder, require_field_match', async () => {
    const body = {
      query: { match: { motto: 'south capitals' } },
      highlight: { pre_tags: ['<mark>'], post_tags: ['</mark>'], fields: [{ motto: { fragment_size: 30, number_of_fragments: 3 } }, { name: { require_field_match: false } }] },
    };
    const za = expectOk(await search(t, acme, body)).hits.find((h: any) => h._source.code === 'ZA');
    expect(za.highlight).toEqual({
      motto: ['The rainbow nation of the <mark>south</mark>', 'official languages and three <mark>capitals</mark>'],
      name: ['<mark>South</mark> Africa'],
    });
    const whole = expectOk(await search(t, acme, { query: { match: { motto: 'rainbow' } }, highlight: { encoder: 'html', fields: { motto: { number_of_fragments: 0 } } } }));
    expect(whole.hits[0].highlight.motto).toEqual([MOTTO.replace('rainbow', '<em>rainbow</em>')]);
  });

  it('highlights a phrase as one match', async () => {
    const result = expectOk(await search(t, acme, { query: { match_phrase: { motto: 'rainbow nation' } }, highlight: { fields: { motto: {} } } }));
    expect(result.hits[0].highlight.motto[0]).toContain('<em>rainbow nation</em>');
  });

  it("never shows another tenant's entity, and never highlights the tenant filter", async () => {
    const seen = expectOk(await search(t, globex, { query: { match: { motto: 'south' } }, highlight: { fields: { '*': {} } } }));
    expect(seen.hits.map((h: any) => h._source.code)).toEqual(['ZA']);
    expect(JSON.stringify(seen)).not.toContain('acme');
    const own = expectOk(await search(t, acme, { query: { match: { motto: 'south' } }, highlight: { require_field_match: false, fields: { '*': {} } } }));
    const ac = own.hits.find((h: any) => h._source.code === 'AC');
    expect(ac.highlight.motto).toEqual(['Secret <em>south</em> plans of acme.']);
    expect(ac.highlight).not.toHaveProperty('allowTenantIds');
  });

  it('refuses a bad highlight with a 400 naming it', async () => {
    const answer = await search(t, acme, { query: { match_all: {} }, highlight: { fields: { name: { type: 'fvh' } } } });
    expectError(answer, 'services.storage.invalid_search_query', 400);
    expect(answer.envelope.error.message).toContain('highlighter type [fvh] is not supported');
    expectError(await search(t, acme, { highlight: ['name'] }), 'services.storage.invalid_search_query', 400);
  });

  it('refuses a field longer than MAX_ANALYZED_OFFSET, unless max_analyzed_offset cuts it', async () => {
    const refused = await search(t, acme, { query: { match: { motto: 'south' } }, highlight: { fields: { motto: {} } } }, {}, 'lands');
    expectError(refused, 'services.storage.max_analyzed_offset', 400);
    expect(refused.envelope.error.message).toContain('MAX_ANALYZED_OFFSET');
    const cut = expectOk(await search(t, acme, { query: { match: { motto: 'south' } }, highlight: { fields: { motto: { max_analyzed_offset: 100 } } } }, {}, 'lands'));
    expect(cut.hits.find((h: any) => h._id === 'long').highlight.motto[0]).toMatch(/^<em>south<\/em> word word/);
  });

  it('highlights only the public fields of API keys', async () => {
    const created = expectOk(await t.call({ controller: 'auth', action: 'createApiKey', token: acme, body: { description: 'nightly export job' } }));
    const found = expectOk(
      await t.call({ controller: 'auth', action: 'searchApiKeys', token: acme, body: { query: { bool: { should: [{ match: { description: 'export' } }, { term: { tenantId: 'acme' } }] } }, highlight: { fields: { '*': {} } } } }),
    );
    const hit = found.hits.find((h: any) => h._id === created._id);
    expect(hit.highlight).toEqual({ description: ['nightly <em>export</em> job'] });
  });
});

describe('highlight over GraphQL', () => {
  const QUERY = `query($query: JSON, $highlight: JSON) { search(type: "countries", query: $query, highlight: $highlight) { hits { id highlight } } }`;

  it('answers the same fragments as REST, null without highlight', async () => {
    const variables = { query: { match: { name: 'south korea' } }, highlight: { fields: { name: {}, motto: {} } } };
    const data = expectGqlData(await gqlHttp(server, QUERY, { variables, token: acme }));
    const rest = (await request(server, 'POST', '/v4/entity/countries/search', { token: acme, body: variables })).body.result;
    expect(data.search.hits).toEqual(rest.hits.map((h: any) => ({ id: h._id, highlight: h.highlight ?? null })));
    expect(data.search.hits[0]).toEqual({ id: 'kr', highlight: { name: ['<em>South</em> <em>Korea</em>'] } });
    const plain = expectGqlData(await gqlHttp(server, QUERY, { variables: { query: variables.query }, token: acme }));
    expect(plain.search.hits[0].highlight).toBeNull();
  });

  it('refuses a bad highlight with the catalogue id', async () => {
    const res = await gqlHttp(server, QUERY, { variables: { highlight: { fields: { name: { number_of_fragments: -1 } } } }, token: acme });
    expectGqlError(res.body.errors, 'services.storage.invalid_search_query', 400);
  });
});
