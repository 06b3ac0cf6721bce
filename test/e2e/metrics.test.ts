/**
 * GET /metrics on the real server (README "Observability"): requests counted by transport,
 * controller, action and status over REST, raw WebSocket and GraphQL (HTTP and graphql-ws), the
 * latency histogram, request cache hits, store sizes, live connections and subscriptions, rate
 * limit refusals, the process metrics; METRICS=admin and off.
 */
import { gqlHttp, gqlWs, openGraphQLWs, Operation, sleep } from '../support/graphql';
import { parseMetrics, sample, sampleSum } from '../support/metrics';
import { request, SocketClient, startTestServer, type TestServer } from '../support/testServer';

const SEARCH = { query: { match: { name: 'land' } } };
const scrape = async (server: TestServer, token?: string) => {
  const res = await request(server, 'GET', '/metrics', { token });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return res.text;
};
/** Scrapes until `ready` holds for the text (a bounded wait: what a socket's close sets happens a little later). */
async function scrapeUntil(server: TestServer, ready: (text: string) => boolean, what: string): Promise<string> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const text = await scrape(server);
    if (ready(text)) return text;
    if (Date.now() > deadline) throw new Error(`${what}: not within 5 s; last scrape:\n${text}`);
    await sleep(20);
  }
}
const requests = (text: string, labels: Record<string, string>) => sample(text, 'gateway_requests_total', labels) ?? 0;

describe('GET /metrics', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.token({ sub: 'admin', tenantId: 'acme', roles: ['admin'] });
    for (const name of ['Iceland', 'Finland', 'Chad']) {
      expect((await request(server, 'POST', '/v4/entity/countries', { token: admin, body: { name, allowTenantIds: ['*'] } })).status).toBe(200);
    }
    expect((await request(server, 'POST', '/v4/entity/business-units', { token: admin, body: { name: 'Sales' } })).status).toBe(200);
  });
  afterAll(() => server.stop());

  it('counts REST requests by controller, action and status, with a latency histogram, and the cache hits of a repeated search', async () => {
    const before = await scrape(server);
    for (let i = 0; i < 3; i++) expect((await request(server, 'POST', '/v4/entity/countries/search', { token: admin, body: SEARCH })).status).toBe(200);
    expect((await request(server, 'POST', '/v4/entity/countries/search', { token: 'not-a-token', body: SEARCH })).status).toBe(401);
    expect((await request(server, 'GET', '/v4/entity/countries/atlantis', { token: admin })).status).toBe(404);
    expect((await request(server, 'GET', '/v4/no/such/route', { token: admin })).status).toBe(404);
    const after = await scrape(server);
    const search = { transport: 'rest', controller: 'document', action: 'search' };
    expect(requests(after, { ...search, status: '200' }) - requests(before, { ...search, status: '200' })).toBe(3);
    expect(requests(after, { ...search, status: '401' }) - requests(before, { ...search, status: '401' })).toBe(1);
    expect(requests(after, { transport: 'rest', controller: 'document', action: 'get', status: '404' })).toBe(1);
    // an unknown route is counted, under no name the client chose
    expect(requests(after, { transport: 'rest', controller: 'unknown', action: 'unknown', status: '404' })).toBe(1);
    expect(after).not.toContain('no/such/route');

    // the histogram: cumulative buckets from sub-millisecond to 10 s, +Inf = count
    const samples = parseMetrics(after);
    const buckets = samples.filter((s) => s.name === 'gateway_request_duration_seconds_bucket' && s.labels.transport === 'rest' && s.labels.action === 'search');
    expect(buckets.map((b) => b.labels.le)).toEqual(['0.0005', '0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i].value).toBeGreaterThanOrEqual(buckets[i - 1].value);
    const count = sample(samples, 'gateway_request_duration_seconds_count', search)!;
    expect(buckets.at(-1)!.value).toBe(count);
    expect(count).toBe(sampleSum(samples, 'gateway_requests_total', search));
    expect(sample(samples, 'gateway_request_duration_seconds_sum', search)).toBeGreaterThan(0);

    // the same search three times: one miss, then hits
    expect(sample(after, 'gateway_search_cache_hits_total', { kind: 'search' })! - (sample(before, 'gateway_search_cache_hits_total', { kind: 'search' }) ?? 0)).toBeGreaterThanOrEqual(2);
    expect(sample(after, 'gateway_search_cache_misses_total', { kind: 'search' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'gateway_search_cache_entries')).toBeGreaterThanOrEqual(1);
  });

  it('tells the store sizes: entities per collection and API keys', async () => {
    const created = await request(server, 'POST', '/v4/api-keys/_create', { token: admin, body: { description: 'metrics' } });
    expect(created.status).toBe(200);
    const text = await scrape(server);
    expect(sample(text, 'gateway_entities', { collection: 'countries' })).toBe(3);
    expect(sample(text, 'gateway_entities', { collection: 'business-units' })).toBe(1);
    expect(sample(text, 'gateway_api_keys')).toBe(1);
    // never a token
    expect(text).not.toContain(created.body.result._source.token);
    expect(text).not.toContain(admin);
  });

  it('counts raw WebSocket messages and GraphQL operations, and the live connections and subscriptions of both', async () => {
    const socket = await SocketClient.connect(server);
    expect((await socket.send({ controller: 'document', action: 'search', collection: 'countries', body: SEARCH, jwt: admin })).status).toBe(200);
    expect((await socket.send({ controller: 'nope', action: 'nothing', jwt: admin })).status).toBe(404);
    const room = await socket.send({ controller: 'realtime', action: 'subscribe', collection: 'countries', body: {}, jwt: admin });
    expect(room.status).toBe(200);
    expect((await gqlHttp(server, '{ search(type: "countries", query: {match: {name: "land"}}) { total } }', { token: admin })).status).toBe(200);
    expect((await gqlHttp(server, '{ nope }', { token: admin })).status).toBe(400);
    const client = openGraphQLWs(server, admin);
    const live = new Operation(client, 'subscription { entityChanged(type: "countries") { action id } }');
    expect((await gqlWs(client, '{ count(type: "countries") }')).completed).toBe(true);

    let text = await scrapeUntil(server, (t) => sample(t, 'gateway_subscriptions', { transport: 'graphql' }) === 1, 'the GraphQL subscription counted');
    expect(requests(text, { transport: 'websocket', controller: 'document', action: 'search', status: '200' })).toBe(1);
    expect(requests(text, { transport: 'websocket', controller: 'unknown', action: 'unknown', status: '404' })).toBe(1);
    expect(requests(text, { transport: 'websocket', controller: 'realtime', action: 'subscribe', status: '200' })).toBe(1);
    expect(requests(text, { transport: 'graphql', controller: 'query', action: 'search', status: '200' })).toBe(1);
    expect(requests(text, { transport: 'graphql', controller: 'unknown', action: 'unknown', status: '400' })).toBe(1);
    expect(requests(text, { transport: 'graphql', controller: 'subscription', action: 'entityChanged', status: '200' })).toBe(1);
    expect(requests(text, { transport: 'graphql', controller: 'query', action: 'count', status: '200' })).toBe(1);
    expect(sample(text, 'gateway_connections', { transport: 'websocket' })).toBe(1);
    expect(sample(text, 'gateway_connections', { transport: 'graphql' })).toBe(1);
    expect(sample(text, 'gateway_subscriptions', { transport: 'websocket' })).toBe(1);
    expect(sample(text, 'gateway_subscriptions', { transport: 'graphql' })).toBe(1);

    expect((await socket.send({ controller: 'realtime', action: 'unsubscribe', body: { roomId: room.result.roomId }, jwt: admin })).status).toBe(200);
    expect(sample(await scrape(server), 'gateway_subscriptions', { transport: 'websocket' })).toBe(0);
    live.unsubscribe();
    await scrapeUntil(server, (t) => sample(t, 'gateway_subscriptions', { transport: 'graphql' }) === 0, 'the GraphQL subscription ended');
    await socket.close();
    await client.dispose();
    text = await scrapeUntil(server, (t) => sampleSum(t, 'gateway_connections') === 0 && sampleSum(t, 'gateway_subscriptions') === 0, 'connections and subscriptions back to 0');
    expect(text).toContain('gateway_connections');
  });

  it('has the default process metrics, and zeroed rate limit refusals when no limit refused anything', async () => {
    const text = await scrape(server);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeDefined();
    expect(sample(text, 'gateway_rate_limited_total', { kind: 'requests' })).toBe(0);
    expect(sample(text, 'gateway_rate_limited_total', { kind: 'auth-failures' })).toBe(0);
    // a scrape is not a request of the API: not counted
    expect(text).not.toMatch(/action="metrics"/);
  });
});

describe('GET /metrics: rate limits, METRICS=admin and off', () => {
  it('counts the refusals of each rate limit', async () => {
    const server = await startTestServer({ env: { RATE_LIMIT: '2/1m', RATE_LIMIT_AUTH_FAILURES: '1/1m' } });
    try {
      const user = await server.token({ sub: 'u', tenantId: 't' });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await request(server, 'POST', '/v4/entity/countries/search', { token: user, body: {} })).status);
      expect(statuses).toEqual([200, 200, 429]);
      for (let i = 0; i < 2; i++) await request(server, 'POST', '/v4/entity/countries/search', { token: 'bad', body: {} });
      const refused = await request(server, 'POST', '/v4/entity/countries/search', { token: 'bad', body: {} });
      expect(refused.status).toBe(429);
      const text = await scrape(server);
      expect(sample(text, 'gateway_rate_limited_total', { kind: 'requests' })).toBe(1);
      expect(sample(text, 'gateway_rate_limited_total', { kind: 'auth-failures' })).toBeGreaterThanOrEqual(1);
      expect(requests(text, { transport: 'rest', controller: 'document', action: 'search', status: '429' })).toBeGreaterThanOrEqual(2);
    } finally {
      await server.stop();
    }
  });

  it('METRICS=admin: 401 without a token or with a bad one, 403 for another role, the metrics for an admin (token or API key)', async () => {
    const server = await startTestServer({ env: { METRICS: 'admin' } });
    try {
      const admin = await server.token({ sub: 'root', roles: ['admin'] });
      const writer = await server.token({ sub: 'w', tenantId: 't', roles: ['writer'] });
      expect((await request(server, 'GET', '/metrics')).body.error.id).toBe('security.rights.unauthorized');
      const bad = await request(server, 'GET', '/metrics', { token: 'nope' });
      expect([bad.status, bad.body.error.id]).toEqual([401, 'security.token.invalid']);
      const forbidden = await request(server, 'GET', '/metrics', { token: writer });
      expect([forbidden.status, forbidden.body.error.id]).toEqual([403, 'security.rights.forbidden']);
      expect(forbidden.text).not.toContain('gateway_requests_total');
      await scrape(server, admin);
      const key = await request(server, 'POST', '/v4/api-keys/_create', { token: admin, body: { description: 'prometheus' } });
      expect(await scrape(server, key.body.result._source.token)).toContain('gateway_requests_total');
    } finally {
      await server.stop();
    }
  });

  it('METRICS=off: /metrics is an unknown path', async () => {
    const server = await startTestServer({ env: { METRICS: 'off' } });
    try {
      const res = await request(server, 'GET', '/metrics');
      expect([res.status, res.body.error.id]).toEqual([404, 'api.process.action_not_found']);
    } finally {
      await server.stop();
    }
  });
});
