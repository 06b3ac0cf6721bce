/**
 * Observability as a real process (README "Observability"): with WORKERS=2 a scrape reaching
 * either worker counts the requests both served; the access log (the process's stdout) has one
 * line per request on every way in, with no token in it; LOG_REQUESTS=false writes none.
 */
import WebSocket from 'ws';
import { httpClient, startGatewayProcess, type GatewayProcess } from '../support/processes';
import { gqlWs, openGraphQLWs, sleep } from '../support/graphql';
import { parseMetrics, sample, sampleSum } from '../support/metrics';

jest.setTimeout(120_000);

/** GET /metrics on a connection of its own (so on the next worker). */
async function scrape(gateway: GatewayProcess): Promise<string> {
  const res = await fetch(`${gateway.url}/metrics`, { headers: { Connection: 'close' } });
  expect(res.status).toBe(200);
  return res.text();
}

/** One raw WebSocket message and its answer, on a connection of its own. */
function socketRequest(gateway: GatewayProcess, message: Record<string, unknown>): Promise<any> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(gateway.wsUrl);
    ws.once('error', reject);
    ws.once('open', () => ws.send(JSON.stringify(message)));
    ws.once('message', (data) => {
      ws.close();
      resolve(JSON.parse(data.toString()));
    });
  });
}

const accessLines = (gateway: GatewayProcess) => gateway.logs.filter((l) => l.msg === 'request');

describe('metrics and the access log with WORKERS=2', () => {
  let gateway: GatewayProcess;
  let admin: string;

  beforeAll(async () => {
    gateway = await startGatewayProcess({ env: { WORKERS: '2' }, readyMsg: 'every worker listening' });
    admin = await gateway.token({ sub: 'admin', tenantId: 'acme', roles: ['admin'] });
  });
  afterAll(() => gateway?.stop());

  it('counts in one scrape the requests both workers served, whichever worker the scrape reaches', async () => {
    // two kept-alive clients: node:cluster gives each new connection to the next worker
    const clients = [httpClient(gateway.url), httpClient(gateway.url)];
    try {
      expect((await clients[0].call('POST', '/v4/entity/countries', admin, { name: 'Iceland', allowTenantIds: ['*'] })).status).toBe(200);
      for (let i = 0; i < 5; i++) for (const client of clients) expect((await client.call('POST', '/v4/entity/countries/search', admin, {})).status).toBe(200);
    } finally {
      for (const client of clients) client.close();
    }
    const served = new Set(accessLines(gateway).filter((l) => l.action === 'search').map((l) => l.worker));
    expect(served).toEqual(new Set(['1', '2']));

    // several scrapes, on new connections: both workers answer some, all with the whole count
    for (let i = 0; i < 4; i++) {
      const samples = parseMetrics(await scrape(gateway));
      expect(sample(samples, 'gateway_requests_total', { transport: 'rest', controller: 'document', action: 'search', status: '200' })).toBe(10);
      expect(sample(samples, 'gateway_request_duration_seconds_count', { transport: 'rest', controller: 'document', action: 'search' })).toBe(10);
      // every worker sees the entity: the largest count, not their sum
      expect(sample(samples, 'gateway_entities', { collection: 'countries' })).toBe(1);
      // process metrics: one series per worker, and the primary's
      const workers = samples.filter((s) => s.name === 'process_resident_memory_bytes').map((s) => s.labels.worker);
      expect(new Set(workers)).toEqual(new Set(['1', '2', 'primary']));
    }
  });

  it('counts raw WebSocket and GraphQL requests over both workers', async () => {
    const before = parseMetrics(await scrape(gateway));
    for (let i = 0; i < 2; i++) {
      const answer = await socketRequest(gateway, { controller: 'document', action: 'count', collection: 'countries', jwt: admin });
      expect(answer.status).toBe(200);
    }
    const client = openGraphQLWs({ wsUrl: gateway.wsUrl }, admin);
    expect((await gqlWs(client, '{ count(type: "countries") }')).completed).toBe(true);
    const after = parseMetrics(await scrape(gateway));
    const wsCount = { transport: 'websocket', controller: 'document', action: 'count', status: '200' };
    expect(sampleSum(after, 'gateway_requests_total', wsCount) - sampleSum(before, 'gateway_requests_total', wsCount)).toBe(2);
    expect(sample(after, 'gateway_requests_total', { transport: 'graphql', controller: 'query', action: 'count', status: '200' })).toBe(1);
    await client.dispose();
  });

  it('logs one access line per request on every way in, with who and how long, and never a token', async () => {
    const key = (await httpClient(gateway.url, false).call('POST', '/v4/api-keys/_create', admin, { description: 'log test' })).body.result;
    const keyToken: string = key._source.token;
    await sleep(200); // (its line is written at the next turn of the event loop)
    const from = gateway.logs.length;
    const http = httpClient(gateway.url, false);
    await http.call('POST', '/v4/entity/countries/search', keyToken, {});
    await http.call('POST', '/v4/entity/countries/search', `${keyToken}x`, {});
    await http.call('GET', '/v4/nowhere', admin);
    await socketRequest(gateway, { controller: 'document', action: 'search', collection: 'countries', jwt: keyToken, requestId: 'ws-1' });
    const gql = await fetch(`${gateway.url}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/json', 'X-Request-Id': 'gql-1' },
      body: JSON.stringify({ query: 'query Named { count(type: "countries") }' }),
    });
    expect(gql.status).toBe(200);
    await sleep(200); // (lines leave once per turn of the event loop)
    const lines = gateway.logs.slice(from).filter((l) => l.msg === 'request');
    const rest = lines.filter((l) => l.transport === 'rest');
    expect(rest).toHaveLength(3);
    expect(rest[0]).toMatchObject({ level: 30, transport: 'rest', method: 'POST', path: '/v4/entity/countries/search', controller: 'document', action: 'search', status: 200, userId: 'admin', tenantId: 'acme', apiKeyId: key._id, client: '127.0.0.1' });
    expect(typeof rest[0].durationMs).toBe('number');
    expect(typeof rest[0].requestId).toBe('string');
    expect(rest[1]).toMatchObject({ status: 401, error: 'security.token.invalid' });
    expect(rest[1].userId).toBeUndefined();
    expect(rest[2]).toMatchObject({ method: 'GET', path: '/v4/nowhere', status: 404, error: 'api.process.action_not_found' });
    expect(lines.find((l) => l.transport === 'websocket')).toMatchObject({ controller: 'document', action: 'search', status: 200, requestId: 'ws-1', apiKeyId: key._id });
    expect(lines.find((l) => l.transport === 'graphql')).toMatchObject({ method: 'POST', path: '/graphql', controller: 'query', action: 'count', operationName: 'Named', status: 200, requestId: 'gql-1', userId: 'admin' });

    const everything = gateway.logs.map((l) => JSON.stringify(l)).join('\n');
    for (const secret of [admin, keyToken, `${keyToken}x`, admin.split('.')[2], keyToken.split('.')[2]]) expect(everything).not.toContain(secret);
    expect(everything.toLowerCase()).not.toContain('bearer');
  });
});

describe('LOG_REQUESTS=false', () => {
  it('writes no access line, and still counts the requests', async () => {
    const gateway = await startGatewayProcess({ env: { LOG_REQUESTS: 'false' } });
    try {
      const admin = await gateway.token({ sub: 'admin', roles: ['admin'] });
      const http = httpClient(gateway.url);
      for (let i = 0; i < 3; i++) expect((await http.call('POST', '/v4/entity/countries/search', admin, {})).status).toBe(200);
      http.close();
      await socketRequest(gateway, { controller: 'document', action: 'search', collection: 'countries', jwt: admin });
      const text = await scrape(gateway);
      await sleep(200);
      expect(accessLines(gateway)).toEqual([]);
      expect(sample(text, 'gateway_requests_total', { transport: 'rest', controller: 'document', action: 'search', status: '200' })).toBe(3);
    } finally {
      await gateway.stop();
    }
  });
});
