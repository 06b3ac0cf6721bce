/**
 * Rate limits shared by a fleet (issue 15): the requests of one principal count against one
 * counter whichever worker of WORKERS=2 serves them (the primary holds the counts), and whichever
 * of two gateway processes joined by a real redis-server serves them (Redis holds them). With Redis
 * gone, each process counts alone and says so in its log. No token ever reaches a log.
 */
import { httpClient, startGatewayProcess, type GatewayProcess } from '../support/processes';
import { describeWithRedis, startRedis, type RedisServer } from '../support/redis';

jest.setTimeout(120_000);

type Client = ReturnType<typeof httpClient>;
const SEARCH = '/v4/entity/countries/search';

/** `n` searches of `token`, each through the next client in turn: the statuses. */
async function alternate(clients: Client[], token: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await clients[i % clients.length].call('POST', SEARCH, token, {})).status);
  return statuses;
}

function expectNoSecretIn(logs: Record<string, unknown>[], secrets: string[]): void {
  const text = JSON.stringify(logs);
  for (const secret of secrets) expect(text.includes(secret)).toBe(false);
}

describe('WORKERS=2: one counter per principal whichever worker serves', () => {
  let gateway: GatewayProcess;
  const clients: Client[] = [];
  beforeAll(async () => {
    gateway = await startGatewayProcess({ env: { WORKERS: '2', RATE_LIMIT: '4/1m', RATE_LIMIT_AUTH_FAILURES: '3/1m' }, readyMsg: 'every worker listening' });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await gateway?.stop();
  });

  it('counts requests alternating between the two workers against one counter', async () => {
    // two kept-alive connections: node:cluster hands each new connection to the next worker
    clients.push(httpClient(gateway.url), httpClient(gateway.url));
    const token = await gateway.token({ sub: 'tess', tenantId: 'acme' });
    expect(await alternate(clients, token, 6)).toEqual([200, 200, 200, 200, 429, 429]);
    // another principal has its own
    expect(await alternate(clients, await gateway.token({ sub: 'uma', tenantId: 'acme' }), 5)).toEqual([200, 200, 200, 200, 429]);
  });

  it('counts refused tokens from one address across the workers', async () => {
    const fresh = [httpClient(gateway.url), httpClient(gateway.url)];
    clients.push(...fresh);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await fresh[i % 2].call('POST', SEARCH, `forged-${i}`, {})).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const newcomer = await gateway.token({ sub: 'vera', tenantId: 'acme' });
    expect((await fresh[0].call('POST', SEARCH, newcomer, {})).status).toBe(429);
    expect((await fresh[1].call('POST', SEARCH, newcomer, {})).status).toBe(429);
    expectNoSecretIn(gateway.logs, ['forged-0', 'forged-3', newcomer]);
  });
});

describeWithRedis('two gateway processes joined through Redis', () => {
  let redis: RedisServer;
  let a: GatewayProcess;
  let b: GatewayProcess;
  const clients: Client[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    const env = { REDIS_URL: redis.url, RATE_LIMIT: '4/1m', RATE_LIMIT_AUTH_FAILURES: '3/1m' };
    [a, b] = await Promise.all([startGatewayProcess({ env }), startGatewayProcess({ env })]);
    clients.push(httpClient(a.url), httpClient(b.url));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  it('counts a principal once over both instances', async () => {
    const token = await a.token({ sub: 'wes', tenantId: 'acme' });
    expect(await alternate(clients, token, 6)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(await alternate(clients, await a.token({ sub: 'xia', tenantId: 'acme' }), 5)).toEqual([200, 200, 200, 200, 429]);
  });

  it('counts refused tokens from one address over both instances', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await clients[i % 2].call('POST', SEARCH, `forged-${i}`, {})).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await clients[1].call('POST', SEARCH, await b.token({ sub: 'yuri', tenantId: 'acme' }), {})).status).toBe(429);
  });

  it('counts alone, with a warning, while Redis is gone; no token in any log', async () => {
    const from = a.logs.length;
    await redis.stop();
    await a.waitForLog('Redis unreachable: rate limits are counted by this instance alone until it is back', 20_000, from);
    // still limited, by this instance's own counts
    const token = await a.token({ sub: 'zoe', tenantId: 'acme' });
    expect(await alternate([clients[0]], token, 5)).toEqual([200, 200, 200, 200, 429]);
    expectNoSecretIn([...a.logs, ...b.logs], [token, 'forged-0', 'forged-3']);
  });
});
