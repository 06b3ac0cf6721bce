/**
 * Malformed and abusive input, one example per kind, on every way in where it applies (REST, raw
 * WebSocket, GraphQL over HTTP and over graphql-ws): each is a 4xx with a catalogue id, never a 500;
 * the raw WebSocket stays open; nothing a client sends reaches a prototype. (The property-based
 * test beside it, abuse.property.test.ts, throws generated input at the same server.)
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';
import type { Client } from 'graphql-ws';
import { request, SocketClient, startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp, gqlWs, graphqlWsUrl, openGraphQLWs } from '../support/graphql';

const LIMIT = 1000; // MAX_JSON_DEPTH's default

let server: TestServer;
let admin: string;
let socket: SocketClient;
let graphqlWs: Client;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.token({ sub: 'root', tenantId: 'acme', roles: ['admin'] });
  socket = await SocketClient.connect(server);
  graphqlWs = openGraphQLWs(server, admin);
  for (const [id, name] of [['fr', 'France'], ['de', 'Germany'], ['it', 'Italy']]) {
    expectOk(await rest('POST', `/v4/entity/countries?_id=${id}`, JSON.stringify({ name, allowTenantIds: ['*'] })));
  }
});

afterAll(async () => {
  await graphqlWs.dispose();
  await socket.close();
  await server.stop();
});

/** Nothing reached a prototype, and the raw WebSocket still answers its heartbeat. */
afterEach(async () => {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_NAMES);
  expect(await socket.sendRaw('{"p":1}')).toEqual({ p: 2 });
});
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort();

const rest = async (method: string, path: string, raw?: string | Buffer) => {
  const res = await request(server, method, path, { token: admin, raw });
  return { httpStatus: res.status, envelope: res.body, res };
};
const ws = async (message: string | Buffer, binary = false) => ({ httpStatus: null, envelope: await sendFrame(message, binary) });

/** A frame as given (a Buffer as a text frame unless `binary`), and the next message received. */
function sendFrame(data: string | Buffer, binary: boolean): Promise<any> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer')), 5000);
    socket.socket.once('message', (answer) => {
      clearTimeout(timer);
      resolve(JSON.parse(answer.toString()));
    });
    socket.socket.send(data, { binary });
  });
}

const wsMessage = (fields: string) => `{"controller":"document","jwt":"${admin}","collection":"countries",${fields}}`;
const nested = (n: number, open: string, close: string, inner: string) => open.repeat(n) + inner + close.repeat(n);
/** JSON nested exactly n levels: n - 1 objects around an array. */
const deepJson = (n: number) => nested(n - 1, '{"a":', '}', '[1]');
/** A bool query nested n times (3 JSON levels each). */
const deepBool = (n: number) => nested(n, '{"bool":{"must":[', ']}}', '{"match_all":{}}');

describe('JSON nested deeper than MAX_JSON_DEPTH: 400 api.assert.body_too_deep', () => {
  const expectTooDeep = (answer: { httpStatus: number | null; envelope: any }) => {
    expectError(answer, 'api.assert.body_too_deep', 400);
    expect(answer.envelope.error.props).toEqual({ limit: LIMIT });
  };

  it.each([
    ['an array 200,000 deep in a search body', `{"sort":${nested(200_000, '[', ']', '1')}}`],
    ['a bool query 3,000 deep', `{"query":${deepBool(3000)}}`],
    ['a search body 1,001 deep', `{"sort":${deepJson(LIMIT)}}`],
  ])('REST: %s', async (_title, body) => {
    expectTooDeep(await rest('POST', '/v4/entity/countries/search', body));
  });

  it('REST: create, update and _bulk bodies 1,001 deep', async () => {
    expectTooDeep(await rest('POST', '/v4/entity/countries', `{"x":${deepJson(LIMIT)}}`));
    expectTooDeep(await rest('PATCH', '/v4/entity/countries/fr', `{"x":${deepJson(LIMIT)}}`));
    expectTooDeep(await rest('POST', '/v4/entity/countries/_bulk', `[{"x":${deepJson(LIMIT - 1)}}]`));
  });

  it('REST: a body exactly 1,000 deep is stored and read back as sent', async () => {
    const body = `{"name":"Deep REST","x":${deepJson(LIMIT - 1)}}`;
    const created = expectOk(await rest('POST', '/v4/entity/countries?_id=deep-rest', body));
    const read = expectOk(await rest('GET', '/v4/entity/countries/deep-rest'));
    expect(read._source).toEqual(created._source);
    expect(JSON.stringify(read._source.x)).toBe(deepJson(LIMIT - 1));
  });

  it('REST: a bool query 300 deep (900 levels) is the engine\'s refusal, not a crash', async () => {
    const answer = await rest('POST', '/v4/entity/countries/search', `{"query":${deepBool(300)}}`);
    expect(answer.httpStatus).toBe(400);
    expect(answer.envelope.error.id).toMatch(/^services\.storage\./);
  });

  it('raw WebSocket: the same bodies, and the connection stays open', async () => {
    expectTooDeep(await ws(wsMessage(`"action":"search","body":{"sort":${nested(200_000, '[', ']', '1')}}`)));
    expectTooDeep(await ws(wsMessage(`"action":"search","body":{"query":${deepBool(3000)}}`)));
    expectTooDeep(await ws(wsMessage(`"action":"create","body":{"x":${deepJson(LIMIT)}}`)));
    expectTooDeep(await ws(wsMessage(`"action":"search","volatile":${deepJson(LIMIT + 1)}`)));
    expectTooDeep(await ws(nested(LIMIT + 2, '[', ']', '1')));
    // a body as deep as REST allows: a message is one level more
    const created = expectOk(await ws(wsMessage(`"action":"create","_id":"deep-ws","body":{"name":"Deep WS","x":${deepJson(LIMIT - 1)}}`)));
    expect(JSON.stringify(created._source.x)).toBe(deepJson(LIMIT - 1));
  });

  const TOO_DEEP_LITERAL = `{ search(type: "countries", query: ${nested(5000, '{bool: {must: [', ']}}', '{match_all: {}}')}) { total } }`;

  it('GraphQL over HTTP: variables and the document itself (refused before graphql-js parses it)', async () => {
    const variablesTooDeep = `{"query":"query($q: JSON) { search(type: \\"countries\\", query: $q) { total } }","variables":{"q":${deepBool(400)}}}`;
    for (const raw of [variablesTooDeep, JSON.stringify({ query: TOO_DEEP_LITERAL }), JSON.stringify({ query: `{ search(type: "countries", sort: ${nested(100_000, '[', ']', '1')}) { total } }` })]) {
      const res = await request(server, 'POST', '/graphql', { token: admin, raw });
      expect(res.status).toBe(400);
      expect(expectGqlError(res.body.errors, 'api.assert.body_too_deep', 400).extensions.props).toEqual({ limit: LIMIT });
    }
    // within the limits: the literal is parsed, and its query is the engine's to refuse
    const res = await gqlHttp(server, `{ search(type: "countries", query: ${nested(100, '{bool: {must: [', ']}}', '{match_all: {}}')}) { total } }`, { token: admin });
    expect(res.body.errors[0].extensions.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toMatch(/^services\.storage\./);
  });

  it('GraphQL over HTTP: a variable exactly 1,000 deep is stored', async () => {
    const raw = `{"query":"mutation($d: JSON!) { createEntity(type: \\"countries\\", id: \\"deep-gql\\", data: $d) { id } }","variables":{"d":{"name":"Deep GraphQL","x":${deepJson(LIMIT - 1)}}}}`;
    expect(expectGqlData(await request(server, 'POST', '/graphql', { token: admin, raw }))).toEqual({ createEntity: { id: 'deep-gql' } });
    const tooDeep = raw.replace(deepJson(LIMIT - 1), deepJson(LIMIT));
    expectGqlError((await request(server, 'POST', '/graphql', { token: admin, raw: tooDeep })).body.errors, 'api.assert.body_too_deep', 400);
  });

  it('GraphQL over HTTP (GET): the document in the query string', async () => {
    // (1,500 levels: the URL stays within Node's 16 KB of headers)
    const res = await request(server, 'GET', `/graphql?query=${encodeURIComponent(`{ search(type: "countries", sort: ${nested(1500, '[', ']', '1')}) { total } }`)}`, {
      token: admin,
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(res.status).toBe(400);
    expectGqlError(res.body.errors, 'api.assert.body_too_deep', 400);
  });

  it('graphql-ws: the document and the variables', async () => {
    expectGqlError((await gqlWs(graphqlWs, TOO_DEEP_LITERAL)).graphqlErrors, 'api.assert.body_too_deep', 400);
    let deep: unknown = { match_all: {} };
    for (let i = 0; i < 400; i++) deep = { bool: { must: [deep] } };
    const op = await gqlWs(graphqlWs, 'query($q: JSON) { search(type: "countries", query: $q) { total } }', { q: deep });
    expectGqlError(op.graphqlErrors, 'api.assert.body_too_deep', 400);
    // still usable
    expect((await gqlWs(graphqlWs, '{ me { userId } }')).data).toEqual([{ me: { userId: 'root' } }]);
  });
});

// TODO(server.ts): un-skip once createGateway passes config.limits.maxJsonDepth to the four ways in
// (createRestHandler's fourth argument, and maxJsonDepth in the options of createRawSocketServer,
// createGraphQLHttp and createGraphQLWs); until then they apply the default, 1000.
describe('MAX_JSON_DEPTH=20 applies on every way in', () => {
  let small: TestServer;
  let token: string;
  beforeAll(async () => {
    small = await startTestServer({ env: { MAX_JSON_DEPTH: '20' } });
    token = await small.token({ sub: 'root', tenantId: 'acme', roles: ['admin'] });
  });
  afterAll(() => small.stop());

  it('REST, raw WebSocket, GraphQL over HTTP and graphql-ws', async () => {
    const ok = await request(small, 'POST', '/v4/entity/countries/search', { token, raw: `{"sort":${deepJson(19)}}` });
    expect(ok.body.error?.id).not.toBe('api.assert.body_too_deep');
    const res = await request(small, 'POST', '/v4/entity/countries/search', { token, raw: `{"sort":${deepJson(20)}}` });
    expectError({ httpStatus: res.status, envelope: res.body }, 'api.assert.body_too_deep', 400);
    expect(res.body.error.props).toEqual({ limit: 20 });
    const client = await SocketClient.connect(small);
    expectError({ httpStatus: null, envelope: await client.sendRaw(`{"controller":"document","action":"search","collection":"countries","jwt":"${token}","body":{"sort":${deepJson(20)}}}`) }, 'api.assert.body_too_deep', 400);
    await client.close();
    const gql = await request(small, 'POST', '/graphql', { token, raw: `{"query":"query($q: JSON) { search(type: \\"countries\\", sort: $q) { total } }","variables":{"q":${deepJson(21)}}}` });
    expectGqlError(gql.body.errors, 'api.assert.body_too_deep', 400);
    const literal = await gqlHttp(small, `{ search(type: "countries", sort: ${nested(25, '[', ']', '1')}) { total } }`, { token });
    expectGqlError(literal.body.errors, 'api.assert.body_too_deep', 400);
    const ws = openGraphQLWs(small, token);
    expectGqlError((await gqlWs(ws, `{ search(type: "countries", sort: ${nested(25, '[', ']', '1')}) { total } }`)).graphqlErrors, 'api.assert.body_too_deep', 400);
    await ws.dispose();
  });
});

describe('bytes that are not UTF-8: 400 network.http.body_parse_failed, never U+FFFD', () => {
  const INVALID = [
    ['0xFF', [0xff]],
    ['a lone continuation byte', [0x80]],
    ['an overlong "/"', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a sequence cut short', [0xe6, 0x97]],
  ] as const;
  const body = (bad: readonly number[]) => Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bad), Buffer.from('"}')]);

  it.each(INVALID)('REST: %s', async (_title, bad) => {
    expectError(await rest('POST', '/v4/entity/countries', body(bad)), 'network.http.body_parse_failed', 400);
    expectError(await rest('POST', '/v4/entity/countries/search', Buffer.concat([Buffer.from('{"query":{"match":{"name":"'), Buffer.from(bad), Buffer.from('"}}}')])), 'network.http.body_parse_failed', 400);
  });

  it.each(INVALID)('raw WebSocket, text and binary frames: %s', async (_title, bad) => {
    const message = Buffer.concat([Buffer.from(wsMessage('"action":"create","body":{"name":"')), Buffer.from(bad), Buffer.from('"}}')]);
    expectError(await ws(message), 'network.http.body_parse_failed', 400);
    expectError(await ws(message, true), 'network.http.body_parse_failed', 400);
  });

  it.each(INVALID)('GraphQL over HTTP: %s', async (_title, bad) => {
    const raw = Buffer.concat([Buffer.from('{"query":"{ search(type: \\"'), Buffer.from(bad), Buffer.from('\\") { total } }"}')]);
    const res = await request(server, 'POST', '/graphql', { token: admin, raw });
    expect(res.status).toBe(400);
    expectGqlError(res.body.errors, 'network.http.body_parse_failed', 400);
  });

  it('valid UTF-8 of every plane is kept as sent', async () => {
    const name = 'é日本🙂\u{10ffff}';
    const created = expectOk(await rest('POST', '/v4/entity/countries?_id=utf8', Buffer.from(JSON.stringify({ name }), 'utf8')));
    expect(created._source.name).toBe(name);
    expect(expectOk(await rest('GET', '/v4/entity/countries/utf8'))._source.name).toBe(name);
  });
});

describe('numbers out of range, NaN and Infinity', () => {
  it.each([
    ['size 1e999', '{"size":1e999}', 'network.http.body_parse_failed'],
    ['from -1e999', '{"from":-1e999}', 'network.http.body_parse_failed'],
    ['size 1e-999', '{"size":1e-999}', 'network.http.body_parse_failed'],
    ['a range bound 1e999', '{"query":{"range":{"n":{"gte":1e999}}}}', 'network.http.body_parse_failed'],
    ['size NaN', '{"size":NaN}', 'network.http.body_parse_failed'],
    ['size Infinity', '{"size":Infinity}', 'network.http.body_parse_failed'],
    ['size -Infinity', '{"size":-Infinity}', 'network.http.body_parse_failed'],
    ['from 2^53 + 1', '{"from":9007199254740993}', 'api.assert.invalid_type'],
    ['size 1e300', '{"size":1e300}', 'api.assert.invalid_type'],
    ['size 1.5', '{"size":1.5}', 'api.assert.invalid_type'],
  ])('REST search, %s', async (_title, body, id) => {
    expectError(await rest('POST', '/v4/entity/countries/search', body), id, 400);
  });

  it.each([
    ['size=1e999', 'api.assert.invalid_type'],
    ['from=9007199254740993', 'api.assert.invalid_type'],
    ['size=Infinity', 'api.assert.invalid_type'],
    ['size=NaN', 'api.assert.invalid_type'],
  ])('REST search, ?%s', async (query, id) => {
    expectError(await rest('POST', `/v4/entity/countries/search?${query}`, '{}'), id, 400);
  });

  it.each(['1e-999', '-1e999', '1e999'])('REST create, a field %s (never stored as null or 0)', async (n) => {
    expectError(await rest('POST', '/v4/entity/countries', `{"name":"N","n":${n}}`), 'network.http.body_parse_failed', 400);
  });

  it.each([
    ['9007199254740993', 'api.assert.invalid_argument'],
    ['1e999', 'api.assert.invalid_argument'],
    ['99999999999999999999999d', 'api.assert.invalid_argument'],
    ['Infinity', 'api.assert.invalid_argument'],
  ])('REST createApiKey, ?expiresIn=%s', async (value, id) => {
    expectError(await rest('POST', `/v4/api-keys/_create?expiresIn=${value}`, '{"description":"n"}'), id, 400);
  });

  it('raw WebSocket: the same, as fields of the message', async () => {
    expectError(await ws(wsMessage('"action":"search","size":1e999')), 'network.http.body_parse_failed', 400);
    expectError(await ws(wsMessage('"action":"search","body":{"from":1e-999}')), 'network.http.body_parse_failed', 400);
    expectError(await ws(wsMessage('"action":"search","from":9007199254740993')), 'api.assert.invalid_type', 400);
    expectError(await ws(wsMessage('"action":"search","size":NaN')), 'network.http.body_parse_failed', 400);
    expectError(await ws(`{"controller":"auth","action":"createApiKey","jwt":"${admin}","body":{"description":"n"},"expiresIn":1e999}`), 'network.http.body_parse_failed', 400);
    expectError(await ws(`{"controller":"auth","action":"createApiKey","jwt":"${admin}","body":{"description":"n"},"expiresIn":9007199254740993}`), 'api.assert.invalid_argument', 400);
  });

  it('GraphQL over HTTP: in variables and in literals', async () => {
    const raw = '{"query":"query($s: Int) { search(type: \\"countries\\", size: $s) { total } }","variables":{"s":1e999}}';
    expectGqlError((await request(server, 'POST', '/graphql', { token: admin, raw })).body.errors, 'network.http.body_parse_failed', 400);
    const literal = await gqlHttp(server, '{ search(type: "countries", query: {range: {n: {gte: 1e999}}}) { total } }', { token: admin });
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].message).toMatch(/1e999.*out of the range of a double/);
    const big = await gqlHttp(server, '{ search(type: "countries", size: 9007199254740993) { total } }', { token: admin });
    expect(big.status).toBe(400);
    expect(big.body.errors[0].extensions.status).toBe(400);
  });

  it('graphql-ws: 1e999 in a message (parsed to Infinity by graphql-ws) is refused', async () => {
    const errors = await rawGraphqlWs('{"id":"1","type":"subscribe","payload":{"query":"mutation($d: JSON!) { createEntity(type: \\"countries\\", data: $d) { id } }","variables":{"d":{"n":1e999}}}}');
    expectGqlError(errors, 'network.http.body_parse_failed', 400);
  });
});

describe('huge arrays, empty keys, long keys and strings: answered, or a 4xx with a catalogue id', () => {
  const expectAnswered = (answer: { httpStatus: number | null; envelope: any }) => {
    expect(answer.envelope.status).toBeLessThan(500);
    if (answer.httpStatus !== null) expect(answer.httpStatus).toBe(answer.envelope.status);
    if (answer.envelope.status !== 200) expect(answer.envelope.error.id).toMatch(/^[a-z]+\.[a-z_]+\.[a-z_]+$/);
  };

  it('an entity holding an array of 150,000 numbers is stored and read back', async () => {
    const list = Array.from({ length: 150_000 }, (_, i) => i % 10);
    expectOk(await rest('POST', '/v4/entity/countries?_id=big-array', JSON.stringify({ name: 'Big', list })));
    expect(expectOk(await rest('GET', '/v4/entity/countries/big-array'))._source.list).toEqual(list);
  });

  it('_bulk with 10,001 items: 400 api.assert.invalid_argument', async () => {
    expectError(await rest('POST', '/v4/entity/countries/_bulk', JSON.stringify(Array.from({ length: 10_001 }, () => ({})))), 'api.assert.invalid_argument', 400);
  });

  it.each([
    ['terms with 150,000 values', { query: { terms: { name: Array.from({ length: 150_000 }, (_, i) => `v${i}`) } } }],
    ['ids with 150,000 values', { query: { ids: { values: Array.from({ length: 150_000 }, (_, i) => `v${i}`) } } }],
    ['bool.should with 60,000 clauses', { query: { bool: { should: Array.from({ length: 60_000 }, () => ({ match_all: {} })) } } }],
    ['search_after with 150,000 values', { sort: [{ name: 'asc' }], search_after: Array.from({ length: 150_000 }, () => 1) }],
    ['sort with 20,000 clauses', { sort: Array.from({ length: 20_000 }, () => ({ name: 'asc' })) }],
    ['_source with 5,000 patterns', { _source: Array.from({ length: 5_000 }, (_, i) => `f${i}*`) }],
  ])('search, %s', async (_title, body) => {
    expectAnswered(await rest('POST', '/v4/entity/countries/search', JSON.stringify(body)));
  });

  let named = 0;
  it.each([
    ['{"":1}', ''],
    ['{"a":{"b":[{"":1}]}}', ''],
    ['{"   ":1}', '   '],
    ['{"a.":1}', 'a.'],
    ['{"a..b":{"c":1}}', 'a..b'],
  ])('create %s: 400 api.assert.invalid_argument naming the field', async (body, key) => {
    const answer = await rest('POST', '/v4/entity/countries', body);
    expectError(answer, 'api.assert.invalid_argument', 400);
    expect(answer.envelope.error.message).toContain(JSON.stringify(key));
    expectError(await ws(wsMessage(`"action":"create","body":${body}`)), 'api.assert.invalid_argument', 400);
    expectError(await rest('PUT', '/v4/entity/countries/fr', body), 'api.assert.invalid_argument', 400);
    expectError(await rest('PATCH', '/v4/entity/countries/fr', body), 'api.assert.invalid_argument', 400);
    const bulk = expectOk(await rest('POST', '/v4/entity/countries/_bulk', `[${body},{"name":"Valid ${++named}"}]`));
    expect(bulk.errors.map((e: any) => e.reason.id)).toEqual(['api.assert.invalid_argument']);
    expect(bulk.successes).toHaveLength(1);
  });

  it.each([
    ['match on an empty field name', { query: { match: { '': 'x' } } }],
    ['sort on an empty field name', { sort: [{ '': 'asc' }] }],
    ['an empty clause name', { query: { '': {} } }],
    ['exists on an empty field', { query: { exists: { field: '' } } }],
    ['_source ""', { _source: '' }],
  ])('search, %s', async (_title, body) => {
    expectAnswered(await rest('POST', '/v4/entity/countries/search', JSON.stringify(body)));
    expectAnswered(await ws(wsMessage(`"action":"search","body":${JSON.stringify(body)}`)));
  });

  it('a 600 KB key and a 900 KB string are stored and read back as sent', async () => {
    const key = 'k'.repeat(600_000);
    expectOk(await rest('POST', '/v4/entity/countries?_id=long-key', JSON.stringify({ name: 'Long key', [key]: 'v' })));
    expect(expectOk(await rest('GET', '/v4/entity/countries/long-key'))._source[key]).toBe('v');
    const text = 'word '.repeat(180_000);
    expectOk(await rest('POST', '/v4/entity/countries?_id=long-text', JSON.stringify({ name: 'Long text', text })));
    expect(expectOk(await rest('GET', '/v4/entity/countries/long-text'))._source.text).toBe(text);
    expectAnswered(await rest('POST', '/v4/entity/countries/search', JSON.stringify({ query: { match: { [key]: 'v' } } })));
    expectAnswered(await rest('POST', '/v4/entity/countries/search', JSON.stringify({ query: { match: { text: 'w'.repeat(900_000) } } })));
    expectAnswered(await rest('POST', '/v4/entity/countries/search', JSON.stringify({ query: { term: { 'name.keyword': 'w'.repeat(900_000) } } })));
    expectAnswered(await rest('POST', '/v4/entity/countries/search', JSON.stringify({ query: { prefix: { name: 'w'.repeat(20_000) } } })));
  });

  it('long arguments: _id, description, expiresIn, X-Request-Id', async () => {
    expectError(await rest('POST', `/v4/entity/countries?_id=${'i'.repeat(129)}`, '{}'), 'api.assert.invalid_argument', 400);
    expectError(await rest('POST', '/v4/api-keys/_create', JSON.stringify({ description: 'd'.repeat(900_000) })), 'api.assert.invalid_argument', 400);
    expectError(await rest('POST', `/v4/api-keys/_create?expiresIn=${'9'.repeat(5000)}`, '{"description":"x"}'), 'api.assert.invalid_argument', 400);
    const res = await request(server, 'POST', '/v4/entity/countries/search', { token: admin, raw: '{}', headers: { 'X-Request-Id': 'r'.repeat(8000) } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).not.toBe('r'.repeat(8000));
  });
});

describe('__proto__, constructor and prototype: plain data, never a prototype', () => {
  const protoBody = (name: string) => `{"name":"${name}","__proto__":{"polluted":1,"slug":"from-proto","allowTenantIds":["other"]},"constructor":{"prototype":{"polluted":2}},"prototype":{"polluted":3},"nested":{"__proto__":{"polluted":4}}}`;
  const expectedTail = (name: string) => `"name":"${name}","__proto__":{"polluted":1,"slug":"from-proto","allowTenantIds":["other"]},"constructor":{"prototype":{"polluted":2}},"prototype":{"polluted":3},"nested":{"__proto__":{"polluted":4}}}`;

  /** What the server said it stored is what a later read shows, byte for byte. */
  const expectReadBack = async (id: string, stored: any) => {
    const read = expectOk(await rest('GET', `/v4/entity/countries/${id}`));
    expect(JSON.stringify(read._source)).toBe(JSON.stringify(stored));
    return read._source;
  };

  it('REST create: stored as plain fields; slug and allowTenantIds not read through a prototype', async () => {
    const created = expectOk(await rest('POST', '/v4/entity/countries?_id=proto-rest', protoBody('Proto REST')));
    expect(JSON.stringify(created._source).endsWith(expectedTail('Proto REST'))).toBe(true);
    expect(created._source.slug).toBe('proto-rest');
    expect(created._source.allowTenantIds).toEqual(['acme']);
    await expectReadBack('proto-rest', created._source);
  });

  it('REST update merges a patch __proto__ into the stored field of that name, replace replaces it', async () => {
    const updated = expectOk(await rest('PATCH', '/v4/entity/countries/proto-rest', '{"__proto__":{"more":true},"nested":{"__proto__":{"x":1}},"constructor":{"prototype":{"y":1}}}'));
    expect(JSON.stringify(updated._source.__proto__)).toBe('{"polluted":1,"slug":"from-proto","allowTenantIds":["other"],"more":true}');
    expect(JSON.stringify(updated._source.nested)).toBe('{"__proto__":{"polluted":4,"x":1}}');
    expect(JSON.stringify(updated._source.constructor)).toBe('{"prototype":{"polluted":2,"y":1}}');
    await expectReadBack('proto-rest', updated._source);
    const replaced = expectOk(await rest('PUT', '/v4/entity/countries/proto-rest', '{"name":"Proto REST","__proto__":[1,2]}'));
    expect(JSON.stringify(replaced._source).endsWith('"name":"Proto REST","__proto__":[1,2]}')).toBe(true);
    await expectReadBack('proto-rest', replaced._source);
  });

  it('an update on an entity without the field makes it a field', async () => {
    expectOk(await rest('POST', '/v4/entity/countries?_id=proto-plain', '{"name":"Plain"}'));
    const updated = expectOk(await rest('PATCH', '/v4/entity/countries/proto-plain', '{"__proto__":{"polluted":1}}'));
    expect(JSON.stringify(updated._source.__proto__)).toBe('{"polluted":1}');
    await expectReadBack('proto-plain', updated._source);
  });

  it('REST _bulk, both shapes', async () => {
    const plain = expectOk(await rest('POST', '/v4/entity/countries/_bulk', `[${protoBody('Proto bulk 1')}]`));
    expect(JSON.stringify(plain.successes[0]._source).endsWith(expectedTail('Proto bulk 1'))).toBe(true);
    await expectReadBack(plain.successes[0]._id, plain.successes[0]._source);
    const kuzzle = expectOk(await rest('POST', '/v4/entity/countries/_bulk', `{"documents":[{"_id":"proto-bulk","body":${protoBody('Proto bulk 2')},"__proto__":{"_id":"hijacked"}}],"__proto__":{"documents":[]}}`));
    expect(kuzzle.successes.map((s: any) => s._id)).toEqual(['proto-bulk']);
    await expectReadBack('proto-bulk', kuzzle.successes[0]._source);
  });

  it('search bodies: field names __proto__ and constructor find those fields; __proto__ as a clause or body key is refused', async () => {
    const search = async (body: string) => expectOk(await rest('POST', '/v4/entity/countries/search', body));
    expect((await search('{"query":{"match":{"__proto__.slug":"from-proto"}}}')).hits.map((h: any) => h._id)).toEqual(expect.arrayContaining(['proto-bulk']));
    expect((await search('{"query":{"exists":{"field":"constructor.prototype.polluted"}}}')).total).toBeGreaterThan(0);
    expect((await search('{"query":{"term":{"prototype.polluted":3}},"_source":["__proto__"]}')).hits[0]._source).toEqual(JSON.parse('{"__proto__":{"polluted":1,"slug":"from-proto","allowTenantIds":["other"]}}'));
    expect((await search('{"sort":[{"__proto__.polluted":"asc"}],"query":{"exists":{"field":"__proto__"}}}')).total).toBeGreaterThan(0);
    const clause = await rest('POST', '/v4/entity/countries/search', '{"query":{"__proto__":{"match_all":{}}}}');
    expectError(clause, 'services.storage.invalid_search_query', 400);
    expect(clause.envelope.error.message).toContain('__proto__');
    const key = await rest('POST', '/v4/entity/countries/search', '{"__proto__":{"size":0}}');
    expectError(key, 'services.storage.invalid_search_query', 400);
    expect(key.envelope.error.message).toContain('__proto__');
    expectError(await rest('POST', '/v4/entity/countries/search', '{"query":{"bool":{"must":[{"constructor":{}}]}}}'), 'services.storage.invalid_search_query', 400);
  });

  it('raw WebSocket: top-level __proto__ is an unknown field (ignored, never read through), volatile echoed as sent', async () => {
    const answer = await ws(`{"controller":"document","action":"search","collection":"countries","jwt":"${admin}","__proto__":{"size":0,"from":9999,"controller":"auth"},"constructor":{"size":0},"volatile":{"__proto__":{"polluted":1},"k":1}}`);
    const result = expectOk(answer);
    expect(result.hits.length).toBeGreaterThan(0); // size 0 was not read from a prototype
    expect(answer.envelope.controller).toBe('document');
    expect(JSON.stringify(answer.envelope.volatile)).toBe('{"__proto__":{"polluted":1},"k":1}');
    const created = expectOk(await ws(wsMessage(`"action":"create","_id":"proto-ws","body":${protoBody('Proto WS')}`)));
    expect(JSON.stringify(created._source).endsWith(expectedTail('Proto WS'))).toBe(true);
    await expectReadBack('proto-ws', created._source);
  });

  it('REST query parameters named __proto__ and constructor are plain (ignored) arguments', async () => {
    expect(expectOk(await rest('POST', '/v4/entity/countries/search?__proto__=x&constructor=y&size=2', '{}')).hits).toHaveLength(2);
  });

  it('GraphQL JSON literals (HTTP, executed by graphql-js) and variables (HTTP and graphql-ws)', async () => {
    const literal = await gqlHttp(server, 'mutation { createEntity(type: "countries", id: "proto-gql", data: {name: "Proto GraphQL", __proto__: {polluted: 1, slug: "from-proto"}, constructor: {prototype: {polluted: 2}}}) { id } }', { token: admin });
    expect(expectGqlData(literal)).toEqual({ createEntity: { id: 'proto-gql' } });
    const read = expectOk(await rest('GET', '/v4/entity/countries/proto-gql'));
    expect(JSON.stringify(read._source).endsWith('"name":"Proto GraphQL","__proto__":{"polluted":1,"slug":"from-proto"},"constructor":{"prototype":{"polluted":2}}}')).toBe(true);
    expect(read._source.slug).toBe('proto-graphql');
    const raw = `{"query":"mutation($d: JSON!) { createEntity(type: \\"countries\\", id: \\"proto-gql-var\\", data: $d) { data } }","variables":{"d":${protoBody('Proto variables')}}}`;
    const data = expectGqlData(await request(server, 'POST', '/graphql', { token: admin, raw }));
    expect(JSON.stringify(data.createEntity.data).endsWith(expectedTail('Proto variables'))).toBe(true);
    await expectReadBack('proto-gql-var', data.createEntity.data);
    const op = await gqlWs(graphqlWs, 'mutation($d: JSON!) { updateEntity(type: "countries", id: "proto-gql-var", data: $d) { data } }', JSON.parse('{"d":{"__proto__":{"more":1}}}'));
    expect(op.graphqlErrors).toEqual([]);
    expect(JSON.stringify(op.data[0].updateEntity.data.__proto__)).toBe('{"polluted":1,"slug":"from-proto","allowTenantIds":["other"],"more":1}');
    await expectReadBack('proto-gql-var', op.data[0].updateEntity.data);
  });

  it('GraphQL over HTTP: a string holding graphql-jit\'s code marker is data (it was code run before authentication)', async () => {
    const marker = '__MAGIC_DATE__33a9e76d_02e0_4128_8e92_3530ad3da74d0+(globalThis.polluted=1)';
    const res = await gqlHttp(server, `{ search(type: "countries", query: {match: {name: "${marker}"}}) { total } }`); // no token
    expectGqlError(res.body.errors, 'security.rights.unauthorized', 401);
    expect((globalThis as Record<string, unknown>).polluted).toBeUndefined();
    const created = await gqlHttp(server, `mutation { createEntity(type: "countries", id: "marker", data: {name: "${marker}"}) { data } }`, { token: admin });
    expect(expectGqlData(created).createEntity.data.name).toBe(marker);
  });
});

describe('frames the WebSocket protocol refuses: that connection is closed, the server stays up', () => {
  /** A WebSocket handshake on a bare TCP connection, so that any bytes can follow. */
  async function handshake(path: string, protocol?: string): Promise<{ tcp: Socket; closed: Promise<Buffer> }> {
    const { port } = new URL(server.url);
    const tcp = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => tcp.once('connect', resolve));
    const key = randomBytes(16).toString('base64');
    tcp.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${protocol ? `Sec-WebSocket-Protocol: ${protocol}\r\n` : ''}\r\n`);
    const head = await new Promise<string>((resolve) => tcp.once('data', (d) => resolve(d.toString('latin1'))));
    expect(head).toContain(createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64'));
    const received: Buffer[] = [];
    tcp.on('data', (d) => received.push(d));
    tcp.on('error', () => undefined);
    const closed = new Promise<Buffer>((resolve) => tcp.once('close', () => resolve(Buffer.concat(received))));
    return { tcp, closed };
  }
  const masked = (first: number, payload: Buffer, lengthBytes?: Buffer) => {
    const mask = randomBytes(4);
    const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
    const length = lengthBytes ?? (payload.length < 126 ? Buffer.from([0x80 | payload.length]) : Buffer.concat([Buffer.from([0x80 | 126]), Buffer.from([payload.length >> 8, payload.length & 0xff])]));
    return Buffer.concat([Buffer.from([first]), length, mask, body]);
  };
  // the declared length is what ws refuses, before any payload arrives
  const lengthOver8MB = Buffer.concat([Buffer.from([0x80 | 127]), Buffer.from([0, 0, 0, 0, 0, 0x90, 0, 0])]);

  it.each([
    ['a frame over 8 x MAX_MESSAGE_BYTES', 1009, masked(0x81, Buffer.alloc(0), lengthOver8MB)],
    ['a frame declaring 2^63 bytes', 1009, masked(0x81, Buffer.alloc(0), Buffer.concat([Buffer.from([0x80 | 127]), Buffer.from([0x80, 0, 0, 0, 0, 0, 0, 0])]))],
    ['an unmasked frame', 1002, Buffer.from([0x81, 0x02, 0x7b, 0x7d])],
    ['a reserved opcode', 1002, masked(0x83, Buffer.from('{}'))],
    ['RSV1 without an extension', 1002, masked(0xc1, Buffer.from('{}'))],
    ['a close frame with code 1005', 1002, masked(0x88, Buffer.from([0x03, 0xed]))],
    ['a fragmented control frame', 1002, masked(0x09, Buffer.from('x'))],
  ])('raw WebSocket and graphql-ws: %s closes that connection with %d', async (_title, code, frame) => {
    for (const [path, protocol] of [['/', undefined], ['/graphql', 'graphql-transport-ws']] as const) {
      const { tcp, closed } = await handshake(path, protocol);
      tcp.write(frame);
      const answer = await closed;
      // the server's close frame: opcode 8, then the code
      const at = answer.indexOf(0x88);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(answer.readUInt16BE(at + 2)).toBe(code);
    }
    const health = await request(server, 'GET', '/healthz');
    expect(health.status).toBe(200);
  });
});

/** One operation over a raw graphql-ws connection (graphql-transport-ws), sent as the text given; its errors. */
async function rawGraphqlWs(subscribe: string): Promise<any[]> {
  const client = new WebSocket(graphqlWsUrl(server), 'graphql-transport-ws');
  const messages: any[] = [];
  client.on('message', (data) => messages.push(JSON.parse(data.toString())));
  await new Promise((resolve, reject) => {
    client.once('open', resolve);
    client.once('error', reject);
  });
  const until = async (match: (m: any) => boolean) => {
    for (let i = 0; i < 500; i++) {
      const found = messages.find(match);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`no such message in ${JSON.stringify(messages)}`);
  };
  client.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${admin}` } }));
  await until((m) => m.type === 'connection_ack');
  client.send(subscribe);
  const answer = await until((m) => m.type === 'error' || m.type === 'next');
  client.close();
  return answer.type === 'error' ? answer.payload : answer.payload.errors;
}


