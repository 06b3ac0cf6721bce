/**
 * Rate limits on the real server (issue 15, README "Rate limits"): RATE_LIMIT per principal over
 * REST, the raw WebSocket and GraphQL (HTTP and graphql-ws), the RateLimit headers on every REST
 * answer, principals kept apart, probes never limited; RATE_LIMIT_AUTH_FAILURES per client address.
 * Every client here is 127.0.0.1: what is counted per address shares one counter.
 */
import { algNoneToken, sleep } from '../support/e2e';
import { expectGqlError, gqlHttp, gqlWs, openGraphQLWs } from '../support/graphql';
import { request, SocketClient, startTestServer, type HttpResponse, type TestServer } from '../support/testServer';

const SEARCH = '/v4/entity/countries/search';
const POLICY = '"requests";q=3;w=60';

/** r and t of a RateLimit header value of the given policy. */
function rateLimit(res: HttpResponse, policy = 'requests'): { r: number; t: number } {
  const value = res.headers.get('ratelimit') ?? '';
  const match = new RegExp(`^"${policy}";r=(\\d+);t=(\\d+)$`).exec(value);
  if (match === null) throw new Error(`RateLimit: ${JSON.stringify(value)}`);
  return { r: Number(match[1]), t: Number(match[2]) };
}

function expectTooMany(res: HttpResponse, policy = 'requests'): void {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(rateLimit(res, policy)).toEqual({ r: 0, t: retryAfter });
}

describe('RATE_LIMIT (3 requests a minute per principal)', () => {
  let server: TestServer;
  const sockets: SocketClient[] = [];
  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT: '3/1m', RATE_LIMIT_AUTH_FAILURES: 'off' } });
  });
  afterAll(async () => {
    for (const s of sockets) await s.close();
    await server.stop();
  });
  const user = (sub: string, tenantId = 'acme') => server.token({ sub, tenantId });

  it('tells every REST answer the policy and what is left, errors included', async () => {
    const token = await user('heidi');
    const answers = [
      await request(server, 'POST', SEARCH, { token, body: {} }),
      await request(server, 'GET', '/v4/entity/countries/nowhere', { token }),
      await request(server, 'POST', SEARCH, { token, body: { query: { bogus: {} } } }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 404, 400]);
    for (const a of answers) {
      expect(a.headers.get('ratelimit-policy')).toBe(POLICY);
      expect(a.headers.get('retry-after')).toBeNull();
    }
    expect(answers.map((a) => rateLimit(a).r)).toEqual([2, 1, 0]);
    for (const a of answers) expect(rateLimit(a).t).toBeGreaterThanOrEqual(1);
  });

  it('refuses the request past the limit with 429, Retry-After and the state in the envelope', async () => {
    const token = await user('ivan');
    for (let i = 0; i < 3; i++) expect((await request(server, 'POST', SEARCH, { token, body: {} })).status).toBe(200);
    const refused = await request(server, 'POST', SEARCH, { token, body: {} });
    expectTooMany(refused);
    expect(refused.headers.get('ratelimit-policy')).toBe(POLICY);
    expect(refused.body).toMatchObject({
      status: 429,
      controller: 'document',
      action: 'search',
      result: null,
      error: { id: 'api.process.too_many_requests', code: 33685512, status: 429, props: { policy: 'requests', limit: 3, window: 60, remaining: 0, retryAfter: Number(refused.headers.get('retry-after')) } },
    });
    expect(refused.body.error.message).toMatch(/^Rate limit exceeded: more than 3 requests in 60 s \(RATE_LIMIT\); retry in \d+ s\.$/);
    // still refused: a refused request is not counted, but the window has not moved on
    expectTooMany(await request(server, 'POST', '/v4/api-keys/_search', { token, body: {} }));
  });

  it('keeps principals apart: another user, the same user in another tenant, each API key', async () => {
    const owner = await user('judy');
    const key1 = (await request(server, 'POST', '/v4/api-keys/_create', { token: owner, body: { description: 'one' } })).body.result._source.token;
    const key2 = (await request(server, 'POST', '/v4/api-keys/_create', { token: owner, body: { description: 'two' } })).body.result._source.token;
    // judy has used 2 of hers; one more, then she is refused
    expect((await request(server, 'POST', SEARCH, { token: owner, body: {} })).status).toBe(200);
    expectTooMany(await request(server, 'POST', SEARCH, { token: owner, body: {} }));
    for (const token of [key1, key2, await user('judy', 'globex'), await user('karl')]) {
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await request(server, 'POST', SEARCH, { token, body: {} }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
    }
  });

  it('counts requests without a token against the client address, whatever X-Forwarded-For says (TRUST_PROXY unset)', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await request(server, 'POST', SEARCH, { body: {}, headers: { 'X-Forwarded-For': `198.51.100.${i}` } }));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 429]);
    expect(rateLimit(answers[0]).r).toBe(2);
    expectTooMany(answers[3]);
  });

  it('never limits the health probes', async () => {
    for (let i = 0; i < 10; i++) {
      for (const path of ['/healthz', '/readyz']) {
        const res = await request(server, 'GET', path);
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit')).toBeNull();
      }
    }
  });

  it('refuses over the raw WebSocket with a 429 envelope, and the connection stays open', async () => {
    const socket = await SocketClient.connect(server);
    sockets.push(socket);
    const jwt = await user('lena');
    const search = { controller: 'document', action: 'search', collection: 'countries', body: {}, jwt };
    for (let i = 0; i < 3; i++) expect((await socket.send(search)).status).toBe(200);
    const refused = await socket.send({ ...search, requestId: 'over' });
    expect(refused).toMatchObject({
      room: 'over',
      status: 429,
      error: { id: 'api.process.too_many_requests', status: 429, props: { policy: 'requests', limit: 3, window: 60, remaining: 0 } },
    });
    expect(refused.error.props.retryAfter).toBeGreaterThanOrEqual(1);
    // the realtime controller is admitted the same way
    expect((await socket.send({ controller: 'realtime', action: 'subscribe', collection: 'countries', body: {}, jwt })).status).toBe(429);
    expect(await socket.sendRaw(JSON.stringify({ p: 1 }))).toEqual({ p: 2 });
    expect((await socket.send({ ...search, jwt: await user('mona') })).status).toBe(200);
  });

  it('refuses a GraphQL request over HTTP with HTTP 429 and the headers', async () => {
    const token = await user('nina');
    for (let i = 0; i < 3; i++) {
      const ok = await gqlHttp(server, '{ me { userId } }', { token });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit-policy')).toBe(POLICY);
      expect(rateLimit(ok).r).toBe(2 - i);
    }
    const refused = await gqlHttp(server, '{ me { userId } }', { token });
    expectTooMany(refused);
    const error = expectGqlError(refused.body.errors, 'api.process.too_many_requests', 429);
    expect(error.extensions).toMatchObject({ errorCode: 33685512, props: { policy: 'requests', limit: 3, window: 60 } });
    expect(typeof error.extensions.requestId).toBe('string');
    expect(refused.body.data).toBeUndefined();
  });

  it('refuses a GraphQL operation over graphql-ws with an error coded api.process.too_many_requests; the connection goes on', async () => {
    const token = await user('olga');
    const client = openGraphQLWs(server, token);
    try {
      for (let i = 0; i < 3; i++) expect((await gqlWs(client, '{ me { userId } }')).data).toEqual([{ me: { userId: 'olga' } }]);
      const refused = await gqlWs(client, '{ me { userId } }');
      const error = expectGqlError(refused.graphqlErrors, 'api.process.too_many_requests', 429);
      expect(error.extensions.props).toMatchObject({ policy: 'requests', limit: 3, window: 60 });
      // (a subscription is an operation too)
      const sub = await gqlWs(client, 'subscription { entityChanged(type: "countries") { id } }');
      expectGqlError(sub.graphqlErrors, 'api.process.too_many_requests', 429);
    } finally {
      await client.dispose();
    }
  });
});

describe('RATE_LIMIT_AUTH_FAILURES (20 refused tokens a minute per address)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_AUTH_FAILURES: '20/1m' } });
  });
  afterAll(() => server.stop());

  it('does not count expired tokens (their bearers held genuine ones)', async () => {
    const expired = await server.token({ sub: 'pia', tenantId: 'acme' }, -1000);
    for (let i = 0; i < 25; i++) {
      const res = await request(server, 'POST', SEARCH, { token: expired, body: {} });
      expect(res.status).toBe(401);
      expect(res.body.error.id).toBe('security.token.expired');
    }
  });

  it('answers 401 to 20 refused tokens, telling what is left, then 429 before verifying any token from that address', async () => {
    const known = await server.token({ sub: 'quinn', tenantId: 'acme' });
    expect((await request(server, 'POST', SEARCH, { token: known, body: {} })).status).toBe(200);
    const forged = await server.token({ sub: 'quinn', tenantId: 'acme' });
    const bad = [`${forged.slice(0, -4)}AAAA`, 'not-a-token', algNoneToken({ sub: 'admin', roles: ['admin'] })];
    for (let i = 0; i < 20; i++) {
      const res = await request(server, 'POST', SEARCH, { token: bad[i % bad.length], body: {} });
      expect(res.status).toBe(401);
      expect(res.body.error.id).toBe('security.token.invalid');
      expect(res.headers.get('ratelimit-policy')).toBe('"auth-failures";q=20;w=60');
      expect(rateLimit(res, 'auth-failures').r).toBe(19 - i);
    }
    const blocked = await request(server, 'POST', SEARCH, { token: bad[0], body: {} });
    expectTooMany(blocked, 'auth-failures');
    expect(blocked.body.error).toMatchObject({ id: 'api.process.too_many_requests', props: { policy: 'auth-failures', limit: 20, window: 60 } });
    expect(blocked.body.error.message).toMatch(/more than 20 refused tokens from this address in 60 s \(RATE_LIMIT_AUTH_FAILURES\)/);

    // a genuine token not seen before is not verified either, on every way in
    const fresh = await server.token({ sub: 'rosa', tenantId: 'acme' });
    expectTooMany(await request(server, 'POST', SEARCH, { token: fresh, body: {} }), 'auth-failures');
    expectTooMany(await request(server, 'POST', SEARCH, { body: {} }), 'auth-failures');
    expectTooMany(await gqlHttp(server, '{ me { userId } }', { token: fresh }), 'auth-failures');
    expectTooMany(await request(server, 'POST', '/v4/_checkToken', { body: { token: fresh } }), 'auth-failures');
    const socket = await SocketClient.connect(server);
    try {
      expect((await socket.send({ controller: 'document', action: 'search', collection: 'countries', body: {}, jwt: fresh })).error.id).toBe('api.process.too_many_requests');
    } finally {
      await socket.close();
    }
    // a token this server accepted before the block goes on working
    expect((await request(server, 'POST', SEARCH, { token: known, body: {} })).status).toBe(200);
  });
});

describe('RATE_LIMIT_AUTH_FAILURES over a short window', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_AUTH_FAILURES: '3/1s' } });
  });
  afterAll(() => server.stop());

  it('counts auth:checkToken answering valid: false, and lets the address in again after Retry-After', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await request(server, 'POST', '/v4/_checkToken', { body: { token: `bad-${i}` } });
      expect(res.status).toBe(200);
      expect(res.body.result.valid).toBe(false);
    }
    const good = await server.token({ sub: 'sam', tenantId: 'acme' });
    const blocked = await request(server, 'POST', SEARCH, { token: good, body: {} });
    expectTooMany(blocked, 'auth-failures');
    // (the counts of one window fade out over the next: at most two windows)
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(2);
    await sleep(Number(blocked.headers.get('retry-after')) * 1000 + 50);
    const after = await request(server, 'POST', SEARCH, { token: good, body: {} });
    expect(after.status).toBe(200);
    expect(after.headers.get('ratelimit')).toBeNull(); // (RATE_LIMIT is off: a good token is not counted)
  });
});

describe('TRUST_PROXY=1 (one proxy in front of the gateway)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT: '1/1m', TRUST_PROXY: '1' } });
  });
  afterAll(() => server.stop());

  it("counts each client at the address the proxy appended to X-Forwarded-For, not at the proxy's", async () => {
    const from = (chain: string) => request(server, 'POST', SEARCH, { body: {}, headers: { 'X-Forwarded-For': chain } });
    expect((await from('203.0.113.1')).status).toBe(401);
    expect((await from('203.0.113.1')).status).toBe(429);
    // what the client wrote left of the proxy's entry is not read
    expect((await from('198.51.100.9, 203.0.113.1')).status).toBe(429);
    expect((await from('203.0.113.2')).status).toBe(401);
    expect((await from('2001:db8:1:2::1')).status).toBe(401);
    // IPv6: one /64
    expect((await from('2001:db8:1:2::ffff')).status).toBe(429);
  });
});
