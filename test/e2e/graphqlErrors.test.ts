/**
 * Bad input over GraphQL, over HTTP (POST /graphql) and over WebSocket (graphql-ws's client): each
 * is a GraphQL error whose `extensions.code` is the catalogue id (DESIGN.md error table, limits.ts)
 * with its `status`; errors carry `extensions.requestId`; HTTP answers carry `X-Request-Id`, echoing
 * the one sent.
 */
import type { Client } from 'graphql-ws';
import { request, startTestServer, type TestServer } from '../support/testServer';
import { algNoneToken, foreignToken, UUID_PATTERN } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp, gqlWs, openGraphQLWs } from '../support/graphql';

/** The default server (depth limit 10), one with GRAPHQL_MAX_DEPTH=3, one with introspection and the landing page off. */
let server: TestServer;
let shallow: TestServer;
let closed: TestServer;
const tokens: Record<TokenKind, string | undefined> = { none: undefined, malformed: 'not-a-jwt', foreign: '', algNone: '', valid: '' };
type TokenKind = 'none' | 'malformed' | 'foreign' | 'algNone' | 'valid';
const clients: Client[] = [];

/**
 * The deepest selection the schema allows (its types do not nest): 5 levels, search > hits > entity
 * > modifier > slug. Deeper than a limit of 3, well within the default 10.
 */
const DEPTH_5 = `query { search(type: "countries") { hits { entity { modifier { slug } } } } }`;
const DEPTH_3 = `query { search(type: "countries") { hits { id } } }`;

interface Case {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  token: TokenKind;
  on?: 'shallow';
  code: string;
  status: number;
}

const SEARCH = `query { search(type: "countries") { total } }`;

const CASES: Case[] = [
  { name: 'no token', query: SEARCH, token: 'none', code: 'security.rights.unauthorized', status: 401 },
  { name: 'a malformed token', query: SEARCH, token: 'malformed', code: 'security.token.invalid', status: 401 },
  { name: 'a token signed with another secret', query: SEARCH, token: 'foreign', code: 'security.token.invalid', status: 401 },
  { name: 'an alg:none token', query: SEARCH, token: 'algNone', code: 'security.token.invalid', status: 401 },
  { name: 'no token, on a mutation', query: 'mutation { createApiKey(description: "x") { id } }', token: 'none', code: 'security.rights.unauthorized', status: 401 },
  {
    name: 'a malformed entity type "Not A Type!"',
    query: 'query($t: String!) { search(type: $t) { total } }',
    variables: { t: 'Not A Type!' },
    token: 'valid',
    code: 'api.assert.invalid_argument',
    status: 400,
  },
  {
    name: 'a malformed entity type in count()',
    query: 'query { count(type: "Not A Type!") }',
    token: 'valid',
    code: 'api.assert.invalid_argument',
    status: 400,
  },
  {
    name: 'expiresIn "soon"',
    query: 'mutation { createApiKey(description: "bad ttl", expiresIn: "soon") { id } }',
    token: 'valid',
    code: 'api.assert.invalid_argument',
    status: 400,
  },
  {
    name: 'expiresIn 0',
    query: 'mutation { createApiKey(description: "zero ttl", expiresIn: 0) { id } }',
    token: 'valid',
    code: 'api.assert.invalid_argument',
    status: 400,
  },
  {
    name: 'an unsupported query clause',
    query: 'query { search(type: "countries", query: {script: {source: "1"}}) { total } }',
    token: 'valid',
    code: 'services.storage.invalid_search_query',
    status: 400,
  },
  {
    name: 'from + size over 10000',
    query: 'query { search(type: "countries", from: 9995, size: 10) { total } }',
    token: 'valid',
    code: 'services.storage.get_limit_exceeded',
    status: 413,
  },
  { name: 'a depth-5 query with GRAPHQL_MAX_DEPTH=3', query: DEPTH_5, token: 'valid', on: 'shallow', code: 'graphql.limit.max_depth', status: 400 },
  {
    name: '16 aliases (default limit 15)',
    query: `query { ${Array.from({ length: 16 }, (_, i) => `a${i}: me { userId }`).join(' ')} }`,
    token: 'valid',
    code: 'graphql.limit.max_aliases',
    status: 400,
  },
];

const SUBSCRIPTION_CASES: Case[] = [
  { name: 'subscription: no token', query: 'subscription { entityChanged(type: "countries") { id } }', token: 'none', code: 'security.rights.unauthorized', status: 401 },
  { name: 'subscription: a malformed token', query: 'subscription { entityChanged(type: "countries") { id } }', token: 'malformed', code: 'security.token.invalid', status: 401 },
  {
    name: 'subscription: a malformed entity type',
    query: 'subscription { entityChanged(type: "Not A Type!") { id } }',
    token: 'valid',
    code: 'api.assert.invalid_argument',
    status: 400,
  },
  {
    name: 'subscription: an unsupported query clause',
    query: 'subscription { entityChanged(type: "countries", query: {script: {source: "1"}}) { id } }',
    token: 'valid',
    code: 'services.storage.invalid_search_query',
    status: 400,
  },
  {
    name: 'subscription: a depth-5 selection with GRAPHQL_MAX_DEPTH=3',
    query: 'subscription { entityChanged(type: "countries") { entity { modifier { slug } } } }',
    token: 'valid',
    on: 'shallow',
    code: 'graphql.limit.max_depth',
    status: 400,
  },
];

beforeAll(async () => {
  [server, shallow, closed] = await Promise.all([
    startTestServer(),
    startTestServer({ env: { GRAPHQL_MAX_DEPTH: '3' } }),
    startTestServer({ env: { GRAPHQL_INTROSPECTION: 'false', GRAPHQL_LANDING_PAGE: 'false' } }),
  ]);
  // Each server has its own secret: valid tokens for `shallow` are minted by it (tokenFor).
  tokens.valid = await server.token({ sub: 'alice', tenantId: 'acme', roles: [] });
  tokens.foreign = await foreignToken({ sub: 'alice', tenantId: 'acme', roles: [] });
  tokens.algNone = algNoneToken({ sub: 'alice', tenantId: 'acme', roles: ['admin'] });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await Promise.all([server.stop(), shallow.stop(), closed.stop()]);
});

async function tokenFor(c: Case): Promise<string | undefined> {
  if (c.token === 'valid' && c.on === 'shallow') return shallow.token({ sub: 'alice', tenantId: 'acme', roles: [] });
  return tokens[c.token];
}

const target = (c: Case) => (c.on === 'shallow' ? shallow : server);

/** Runs a case over HTTP: the errors, the data and the X-Request-Id header. */
async function overHttp(c: Case, headers: Record<string, string> = {}) {
  const res = await gqlHttp(target(c), c.query, { token: await tokenFor(c), variables: c.variables, headers });
  return { errors: res.body?.errors as any[] | undefined, data: res.body?.data, header: res.headers.get('x-request-id'), httpStatus: res.status };
}

/** Runs a case over graphql-ws, on a fresh client connected with the case's token. */
async function overWs(c: Case) {
  const client = openGraphQLWs(target(c), await tokenFor(c));
  clients.push(client);
  const op = await gqlWs(client, c.query, c.variables);
  return { errors: op.graphqlErrors, data: op.data, op };
}

describe('bad input over GraphQL HTTP', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { errors, data } = await overHttp(c);
    expectGqlError(errors, c.code, c.status);
    // No partial success: the field that failed is null (or there is no data at all).
    expect(Object.values(data ?? {}).every((v) => v === null)).toBe(true);
  });
});

describe('bad input over graphql-ws', () => {
  it.each([...CASES, ...SUBSCRIPTION_CASES].map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const { errors, op } = await overWs(c);
    expectGqlError(errors, c.code, c.status);
    expect(op.data.filter((d) => Object.values(d).some((v) => v !== null))).toEqual([]);
  });
});

describe('the depth limit', () => {
  it('the deepest query the schema allows passes at the default limit (10), over HTTP and graphql-ws', async () => {
    expect(expectGqlData(await gqlHttp(server, DEPTH_5, { token: tokens.valid })).search.hits).toEqual([]);
    const client = openGraphQLWs(server, tokens.valid);
    clients.push(client);
    const op = await gqlWs(client, DEPTH_5);
    expect(op.graphqlErrors).toEqual([]);
    expect(op.data).toEqual([{ search: { hits: [] } }]);
  });

  it('with GRAPHQL_MAX_DEPTH=3, a depth-3 query still passes', async () => {
    const token = await shallow.token({ sub: 'alice', tenantId: 'acme', roles: [] });
    expect(expectGqlData(await gqlHttp(shallow, DEPTH_3, { token })).search.hits).toEqual([]);
  });

  it('over HTTP, the refused query is answered 400, not executed', async () => {
    const c = CASES.find((x) => x.code === 'graphql.limit.max_depth')!;
    const { httpStatus, data } = await overHttp(c);
    expect(httpStatus).toBe(400);
    expect(data).toBeUndefined();
  });
});

describe('request ids', () => {
  it('an HTTP answer carries an X-Request-Id (a UUID when none was sent), successes included', async () => {
    const ok = await gqlHttp(server, 'query { me { userId } }', { token: tokens.valid });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toMatch(UUID_PATTERN);
    const failed = await gqlHttp(server, SEARCH, {});
    expect(failed.headers.get('x-request-id')).toMatch(UUID_PATTERN);
    expect(failed.headers.get('x-request-id')).not.toBe(ok.headers.get('x-request-id'));
  });

  it('an X-Request-Id sent is echoed in the header and in the error\'s extensions.requestId', async () => {
    const sent = 'my-trace-0001';
    const res = await gqlHttp(server, SEARCH, { headers: { 'X-Request-Id': sent } });
    expect(res.headers.get('x-request-id')).toBe(sent);
    const error = expectGqlError(res.body.errors, 'security.rights.unauthorized', 401);
    expect(error.extensions.requestId).toBe(sent);
    // And on a success.
    const ok = await gqlHttp(server, 'query { me { userId } }', { token: tokens.valid, headers: { 'X-Request-Id': 'trace-ok-42' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('trace-ok-42');
  });

  // Every error of the answer, whatever its code (the code itself is checked above).
  it.each(CASES.map((c) => [c.name, c] as const))('HTTP, %s: extensions.requestId equals the X-Request-Id header', async (_name, c) => {
    const { errors, header } = await overHttp(c);
    expect(header).toMatch(UUID_PATTERN);
    expect(errors?.length).toBeGreaterThan(0);
    expect(errors!.map((e) => e.extensions?.requestId)).toEqual(errors!.map(() => header));
  });

  it.each([...CASES, ...SUBSCRIPTION_CASES].map((c) => [c.name, c] as const))('graphql-ws, %s: the error carries extensions.requestId', async (_name, c) => {
    const { errors } = await overWs(c);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(typeof error.extensions?.requestId).toBe('string');
      expect(error.extensions.requestId.length).toBeGreaterThan(0);
    }
  });

  it('a query sent with GET is answered as Apollo answers it (with the preflight header Apollo asks of a GET)', async () => {
    const query = encodeURIComponent('{ me { tenantId } }');
    const ok = await request(server, 'GET', `/graphql?query=${query}`, { token: tokens.valid, headers: { 'Apollo-Require-Preflight': 'true', 'X-Request-Id': 'get-1' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^application\/json/);
    expect(ok.headers.get('x-request-id')).toBe('get-1');
    expect(ok.body.data.me.tenantId).toEqual(expect.any(String));
    // a "simple" request (no preflight header, no JSON content type) is refused: Apollo's CSRF prevention
    const csrf = await request(server, 'GET', `/graphql?query=${query}`, { token: tokens.valid });
    expect(csrf.status).toBe(400);
    expect(csrf.text).toMatch(/CSRF/);
    const plain = await request(server, 'POST', '/graphql', { raw: '{ me { tenantId } }', headers: { 'Content-Type': 'text/plain' } });
    expect(plain.status).toBe(400);
  });

  it('a browser asking GET /graphql for HTML gets the landing page (on outside production)', async () => {
    const page = await request(server, 'GET', '/graphql', { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toMatch(/<html/i);
  });

  it('a body that is not JSON is network.http.body_parse_failed (400), with the request id', async () => {
    const res = await request(server, 'POST', '/graphql', { raw: '{"query": ', headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'bad-json-1' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-request-id')).toBe('bad-json-1');
    const error = expectGqlError(res.body?.errors, 'network.http.body_parse_failed', 400);
    expect(error.extensions.requestId).toBe('bad-json-1');
  });
});

describe('GraphQL\'s own refusals, the same code over HTTP and graphql-ws (status 400)', () => {
  const both = async (target: TestServer, query: string, variables?: Record<string, unknown>) => {
    const token = await target.token({ sub: 'alice', tenantId: 'acme', roles: [] });
    const http = await gqlHttp(target, query, { token, variables });
    const client = openGraphQLWs(target, token);
    clients.push(client);
    const ws = await gqlWs(client, query, variables);
    return { http, ws };
  };

  it.each([
    ['a syntax error', '{ me { userId }', 'GRAPHQL_PARSE_FAILED', undefined],
    ['an unknown field', '{ me { shoeSize } }', 'GRAPHQL_VALIDATION_FAILED', undefined],
    ['a variable of the wrong type', 'query($n: Int) { search(type: "countries", size: $n) { total } }', 'BAD_USER_INPUT', { n: 'many' }],
  ])('%s', async (_name, query, code, variables) => {
    const { http, ws } = await both(server, query, variables);
    expect(http.status).toBe(400);
    expectGqlError(http.body.errors, code, 400);
    expectGqlError(ws.graphqlErrors, code, 400);
  });

  it('graphql-ws: two operations and no operationName is refused with status 400', async () => {
    const client = openGraphQLWs(server, await server.token({ sub: 'alice', tenantId: 'acme', roles: [] }));
    clients.push(client);
    const op = await gqlWs(client, 'query a { me { userId } } query b { me { tenantId } }');
    expectGqlError(op.graphqlErrors, 'GRAPHQL_PARSE_FAILED', 400);
  });

  it('introspection answers when on (outside production): __schema and __type', async () => {
    const query = '{ __schema { queryType { name } } __type(name: "Country") { fields { name } } }';
    const { http, ws } = await both(server, query);
    for (const data of [expectGqlData(http), ws.data[0]]) {
      expect(data.__schema.queryType.name).toBe('Query');
      expect(data.__type.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['name', 'code', '_service_info']));
    }
  });

  it('GRAPHQL_INTROSPECTION=false refuses __schema and __type over HTTP and graphql-ws alike', async () => {
    for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "Country") { name } }']) {
      const { http, ws } = await both(closed, query);
      expect(http.status).toBe(400);
      expect(http.body.data).toBeUndefined();
      expectGqlError(http.body.errors, 'GRAPHQL_VALIDATION_FAILED', 400);
      expectGqlError(ws.graphqlErrors, 'GRAPHQL_VALIDATION_FAILED', 400);
      expect(ws.data).toEqual([]);
    }
    // __typename is not introspection: still answered
    const { http } = await both(closed, '{ __typename }');
    expect(expectGqlData(http)).toEqual({ __typename: 'Query' });
  });

  it('GRAPHQL_LANDING_PAGE=false: no landing page for a browser', async () => {
    const page = await request(closed, 'GET', '/graphql', { headers: { Accept: 'text/html' } });
    expect(page.text).not.toMatch(/<html/i);
  });
});
