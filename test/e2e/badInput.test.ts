/**
 * Bad input, one row per mistake, each with its exact error id and status (DESIGN.md "Errors"):
 * the HTTP status and the envelope status both equal error.status, and the error object is
 * {id, code, message, status}. Rows that make sense on both transports run on both.
 */
import { request, SocketClient, startTestServer, type TestServer } from '../support/testServer';
import { algNoneToken, expectError, expectOk, foreignToken, openTransport, TRANSPORTS, type Call, type Transport } from '../support/e2e';

let server: TestServer;
let user: string;
let writer: string;

beforeAll(async () => {
  server = await startTestServer();
  user = await server.token({ sub: 'alice', tenantId: 'acme', roles: [] });
  writer = await server.token({ sub: 'wendy', tenantId: 'acme', roles: ['writer'] });
});

afterAll(() => server.stop());

interface Row {
  title: string;
  /** Builds the request; `tag` tells one transport's data from the other's. */
  call: (tag: string) => Call | Promise<Call>;
  id: string;
  status: number;
  /** What the message must name, when it matters. */
  message?: RegExp;
}

const search = (extra: Partial<Call>): Call => ({ controller: 'document', action: 'search', collection: 'countries', body: {}, token: user, ...extra });
const createKey = (extra: Partial<Call>): Call => ({ controller: 'auth', action: 'createApiKey', body: { description: 'bad input' }, token: user, ...extra });
const createEntity = (extra: Partial<Call>): Call => ({ controller: 'document', action: 'create', collection: 'countries', token: writer, ...extra });
const claims = { sub: 'mallory', tenantId: 'acme', roles: ['admin'] };

const ROWS: Row[] = [
  { title: 'no token (search)', call: () => search({ token: undefined }), id: 'security.rights.unauthorized', status: 401 },
  { title: 'no token (createApiKey)', call: () => createKey({ token: undefined }), id: 'security.rights.unauthorized', status: 401 },
  { title: 'garbage token', call: () => search({ token: 'this-is-not-a-jwt' }), id: 'security.token.invalid', status: 401 },
  { title: '"alg: none" token', call: () => search({ token: algNoneToken(claims) }), id: 'security.token.invalid', status: 401 },
  { title: 'token signed with another secret', call: async () => search({ token: await foreignToken(claims) }), id: 'security.token.invalid', status: 401 },
  {
    title: 'expired token',
    call: async () => search({ token: await server.token({ sub: 'alice', tenantId: 'acme', roles: [] }, -60_000) }),
    id: 'security.token.expired',
    status: 401,
  },
  { title: 'entity type "Countries!"', call: () => search({ collection: 'Countries!' }), id: 'api.assert.invalid_argument', status: 400 },
  { title: 'entity type "my_type"', call: () => search({ collection: 'my_type' }), id: 'api.assert.invalid_argument', status: 400 },
  { title: 'size=abc', call: () => search({ args: { size: 'abc' } }), id: 'api.assert.invalid_type', status: 400 },
  { title: 'from=-1', call: () => search({ args: { from: -1 } }), id: 'api.assert.invalid_type', status: 400 },
  { title: 'from=9995&size=10', call: () => search({ args: { from: 9995, size: 10 } }), id: 'services.storage.get_limit_exceeded', status: 413 },
  { title: 'expiresIn=soon', call: () => createKey({ args: { expiresIn: 'soon' } }), id: 'api.assert.invalid_argument', status: 400 },
  { title: 'expiresIn=0', call: () => createKey({ args: { expiresIn: 0 } }), id: 'api.assert.invalid_argument', status: 400 },
  { title: 'missing description', call: () => createKey({ body: {} }), id: 'api.assert.missing_argument', status: 400 },
  { title: 'non-string description', call: () => createKey({ body: { description: 42 } }), id: 'api.assert.invalid_type', status: 400 },
  { title: 'duplicate API key _id', call: (tag) => createKey({ _id: `${tag}-taken-key` }), id: 'services.storage.document_already_exists', status: 409 },
  {
    title: 'duplicate entity _id',
    call: (tag) => createEntity({ _id: `${tag}-taken-entity`, body: { name: `${tag} Other Name`, code: 'ON' } }),
    id: 'services.storage.document_already_exists',
    status: 409,
  },
  {
    title: 'duplicate slug',
    call: (tag) => createEntity({ _id: `${tag}-new-entity`, body: { name: `${tag} Slug Thief`, code: 'ST', slug: `${tag}-taken-slug` } }),
    id: 'services.storage.document_already_exists',
    status: 409,
  },
  {
    title: 'unsupported query clause (more_like_this)',
    call: () => search({ body: { query: { more_like_this: { like: 'frnace' } } } }),
    id: 'services.storage.invalid_search_query',
    status: 400,
    message: /more_like_this/,
  },
  {
    title: 'unsupported body key (suggest)',
    call: () => search({ body: { suggest: { s: { text: 'fra' } } } }),
    id: 'services.storage.invalid_search_query',
    status: 400,
    message: /suggest/,
  },
  {
    title: 'aggregation on a text field',
    call: () => search({ body: { aggs: { codes: { terms: { field: 'code' } } } } }),
    id: 'services.storage.invalid_search_query',
    status: 400,
    message: /Text fields are not optimised/,
  },
];

describe.each(TRANSPORTS)('bad input over %s', (name) => {
  let t: Transport;
  const tag = name.toLowerCase();

  beforeAll(async () => {
    t = await openTransport(name, server);
    // What the "duplicate" rows collide with.
    expectOk(await t.call(createKey({ _id: `${tag}-taken-key` })));
    expectOk(await t.call(createEntity({ _id: `${tag}-taken-entity`, body: { name: `${tag} Taken`, code: 'TK', slug: `${tag}-taken-slug` } })));
  });
  afterAll(() => t.close());

  it.each(ROWS)('$title: $status $id', async (row) => {
    const answer = await t.call(await row.call(tag));
    expectError(answer, row.id, row.status);
    if (row.message) expect(answer.envelope.error.message).toMatch(row.message);
  });
});

describe('bad input over REST only', () => {
  it('non-JSON body: 400 network.http.body_parse_failed', async () => {
    const res = await request(server, 'POST', '/v4/entity/countries/search', { token: user, raw: '{"query": {not json' });
    expectError({ httpStatus: res.status, envelope: res.body }, 'network.http.body_parse_failed', 400);
  });

  it('body over 1 MB: 413 network.http.request_too_large', async () => {
    const raw = JSON.stringify({ query: { match: { name: 'x'.repeat(1024 * 1024 + 1) } } });
    const res = await request(server, 'POST', '/v4/entity/countries/search', { token: user, raw });
    expectError({ httpStatus: res.status, envelope: res.body }, 'network.http.request_too_large', 413);
  });

  it.each([
    ['GET', '/v4/nowhere'],
    ['POST', '/v4/entity/countries/frobnicate'],
    ['GET', '/v4/api-keys/_create'],
    ['GET', '/not-under-v4'],
  ])('unknown path %s %s: 404 api.process.action_not_found', async (method, path) => {
    const res = await request(server, method, path, { token: user });
    expectError({ httpStatus: res.status, envelope: res.body }, 'api.process.action_not_found', 404);
  });
});

describe('bad input over WebSocket only', () => {
  let client: SocketClient;

  beforeAll(async () => {
    client = await SocketClient.connect(server);
  });
  afterAll(() => client.close());

  it.each([
    ['unknown controller', { controller: 'nope', action: 'search' }],
    ['unknown action', { controller: 'document', action: 'frobnicate', collection: 'countries' }],
  ])('%s: 404 api.process.action_not_found', async (_title, message) => {
    const envelope = await client.send({ ...message, jwt: user });
    expectError({ httpStatus: null, envelope }, 'api.process.action_not_found', 404);
  });
});
