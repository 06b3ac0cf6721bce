/**
 * The response envelope of spec 2.1 on success (DESIGN.md "Envelope"), for API key creation and for
 * entity search, over REST and raw WebSocket (requestId repeated in the X-Request-Id header on HTTP,
 * in `room` on WebSocket); then what only WebSocket does: echo a given volatile object.
 */
import { startTestServer, type TestServer } from '../support/testServer';
import { expectOk, openTransport, TRANSPORTS, UUID_PATTERN, type Answer, type Call, type Transport } from '../support/e2e';

const ENVELOPE_FIELDS = ['requestId', 'status', 'error', 'controller', 'action', 'collection', 'index', 'volatile', 'result'];

let server: TestServer;
let alice: string;

beforeAll(async () => {
  server = await startTestServer();
  alice = await server.token({ sub: 'alice', tenantId: 'acme', roles: [] });
});

afterAll(() => server.stop());

const createKey = (extra: Partial<Call> = {}): Call => ({
  controller: 'auth',
  action: 'createApiKey',
  token: alice,
  body: { description: 'envelope test' },
  ...extra,
});
const search = (extra: Partial<Call> = {}): Call => ({ controller: 'document', action: 'search', collection: 'countries', body: {}, token: alice, ...extra });

/** The request id as the transport shows it besides the body: the X-Request-Id header, or `room`. */
const sideChannelId = (answer: Answer): unknown => (answer.headers !== null ? answer.headers.get('x-request-id') : answer.envelope.room);

describe.each(TRANSPORTS)('envelope over %s', (name) => {
  let t: Transport;

  beforeAll(async () => {
    t = await openTransport(name, server);
  });
  afterAll(() => t.close());

  it('auth:createApiKey: every field of 2.1; controller/action set, collection/index/volatile null', async () => {
    const answer = await t.call(createKey());
    expectOk(answer);
    const env = answer.envelope;
    for (const field of ENVELOPE_FIELDS) expect(env).toHaveProperty(field);
    expect(env).toEqual(
      expect.objectContaining({
        status: 200,
        error: null,
        controller: 'auth',
        action: 'createApiKey',
        collection: null,
        index: null,
        volatile: null,
      }),
    );
    expect(typeof env.requestId).toBe('string');
    expect(env.result).toEqual(expect.objectContaining({ _id: expect.any(String), _source: expect.any(Object) }));
  });

  it('document:search: every field of 2.1; collection "countries", index "entity"', async () => {
    const answer = await t.call(search());
    expectOk(answer);
    const env = answer.envelope;
    for (const field of ENVELOPE_FIELDS) expect(env).toHaveProperty(field);
    expect(env).toEqual(
      expect.objectContaining({
        status: 200,
        error: null,
        controller: 'document',
        action: 'search',
        collection: 'countries',
        index: 'entity',
        volatile: null,
      }),
    );
    expect(env.result).toEqual(expect.objectContaining({ hits: expect.any(Array), total: expect.any(Number) }));
  });

  it('requestId is a fresh UUID when the request gives none, and is repeated beside the body', async () => {
    const first = await t.call(createKey({ requestId: null }));
    const second = await t.call(search({ requestId: null }));
    for (const answer of [first, second]) {
      expectOk(answer);
      expect(answer.envelope.requestId).toMatch(UUID_PATTERN);
      expect(sideChannelId(answer)).toBe(answer.envelope.requestId);
    }
    expect(first.envelope.requestId).not.toBe(second.envelope.requestId);
  });

  it('a given requestId is echoed in the envelope and beside it', async () => {
    const requestId = `client-chosen-id-${name}`;
    for (const call of [createKey({ requestId }), search({ requestId })]) {
      const answer = await t.call(call);
      expectOk(answer);
      expect(answer.envelope.requestId).toBe(requestId);
      expect(sideChannelId(answer)).toBe(requestId);
    }
  });
});

describe('envelope, WebSocket only', () => {
  let t: Transport;

  beforeAll(async () => {
    t = await openTransport('WebSocket', server);
  });
  afterAll(() => t.close());

  it('adds room equal to requestId and echoes a given volatile object', async () => {
    const volatile = { sdkName: 'e2e', nested: { n: 1, list: ['a', 'b'] } };
    for (const call of [createKey({ volatile, requestId: 'ws-volatile-1' }), search({ volatile, requestId: 'ws-volatile-2' })]) {
      const answer = await t.call(call);
      expectOk(answer);
      expect(answer.envelope.room).toBe(answer.envelope.requestId);
      expect(answer.envelope.volatile).toEqual(volatile);
      expect(Object.keys(answer.envelope)).toEqual(['requestId', 'status', 'error', 'controller', 'action', 'collection', 'index', 'volatile', 'result', 'room']);
    }
  });
});
