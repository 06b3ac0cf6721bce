/**
 * WORKERS (issue 15): several processes behind one port on one DATA_DIR, as `npm start` runs them.
 * Each new connection goes to the next worker (node:cluster), so two clients with one connection
 * each talk to two workers. What one acknowledges the other reads at once; live subscriptions on
 * one hear the writes made through the other; a key deleted on one is refused by all; a worker
 * that dies is replaced; SIGHUP restarts them one by one without refusing a request; and two
 * gateways started separately on one DATA_DIR work the same way.
 */
import { execFileSync } from 'node:child_process';
import { SocketClient } from '../support/testServer';
import { waitForSocketMessage } from '../support/graphql';
import { httpClient, startGatewayProcess, type GatewayProcess } from '../support/processes';

jest.setTimeout(180_000);

let gateway: GatewayProcess;
let writer: string;
let reader: string;
const clients: ReturnType<typeof httpClient>[] = [];
const sockets: SocketClient[] = [];

const client = (keepAlive = true) => {
  const c = httpClient(gateway.url, keepAlive);
  clients.push(c);
  return c;
};
const workerPids = (): number[] =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(gateway.child.pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);

beforeAll(async () => {
  gateway = await startGatewayProcess({ env: { WORKERS: '2' }, readyMsg: 'every worker listening' });
  writer = await gateway.token({ sub: 'wanda', tenantId: 'acme', roles: ['writer'] });
  reader = await gateway.token({ sub: 'rita', tenantId: 'acme', roles: [] });
});

afterAll(async () => {
  for (const s of sockets) await s.close();
  for (const c of clients) c.close();
  await gateway?.stop();
});

describe('WORKERS=2 on one DATA_DIR', () => {
  it('runs two worker processes behind the port', () => {
    expect(workerPids()).toHaveLength(2);
  });

  it('what one worker acknowledges, the other reads and searches at once', async () => {
    for (let i = 0; i < 6; i++) {
      // a pair of new connections: one to each worker
      const [a, b] = [client(), client()];
      const created = await a.call('POST', `/v4/entity/widgets?_id=w${i}`, writer, { name: `Written ${i}` });
      expect(created.status).toBe(200);
      expect((await b.call('GET', `/v4/entity/widgets/w${i}`, reader)).body.result._source.name).toBe(`Written ${i}`);
      expect((await b.call('POST', '/v4/entity/widgets/count', reader, { query: { match: { name: 'written' } } })).body.result.count).toBe(1); // the earlier ones are changed below
      expect((await b.call('PATCH', `/v4/entity/widgets/w${i}`, writer, { name: `Changed ${i}` })).status).toBe(200);
      expect((await a.call('GET', `/v4/entity/widgets/w${i}`, reader)).body.result._source.name).toBe(`Changed ${i}`);
    }
  });

  it('a live subscription on one worker hears every change made through any worker, once, in order', async () => {
    const socket = await SocketClient.connect(gateway);
    sockets.push(socket);
    const answer = await socket.send({ controller: 'realtime', action: 'subscribe', collection: 'gadgets', body: {}, jwt: reader });
    const channel = answer.result.channel as string;
    const writers = [client(), client(), client(), client()];
    for (let i = 0; i < 8; i++) expect((await writers[i % 4].call('POST', `/v4/entity/gadgets?_id=g${i}`, writer, { name: `Gadget ${i}` })).status).toBe(200);
    await waitForSocketMessage(socket, (m) => m.room === channel && m.result?._id === 'g7', 'the last change');
    await new Promise((r) => setTimeout(r, 200));
    const seen = socket.received.filter((m) => m.room === channel && m.type === 'document').map((m) => `${m.action} ${m.result._id}`);
    expect(seen).toEqual(Array.from({ length: 8 }, (_, i) => `create g${i}`));
  });

  it('a key deleted through one worker is refused by every worker within 100 ms, and its subscriptions end', async () => {
    const owner = await gateway.token({ sub: 'kim', tenantId: 'acme', roles: [] });
    const created = await client().call('POST', '/v4/api-keys/_create', owner, { description: 'fleet' });
    const key = created.body.result;
    const users = [client(), client()];
    for (const u of users) expect((await u.call('POST', '/v4/entity/widgets/count', key._source.token, {})).status).toBe(200);
    const socket = await SocketClient.connect(gateway);
    sockets.push(socket);
    const channel = (await socket.send({ controller: 'realtime', action: 'subscribe', collection: 'widgets', body: {}, jwt: key._source.token })).result.channel;
    expect((await client().call('DELETE', `/v4/api-keys/${key._id}`, owner)).status).toBe(200);
    // each worker follows the others' writes every 20 ms (the revocation bound is 100 ms; a loaded machine gets some slack)
    const deleted = Date.now();
    for (const u of users) {
      let status = 200;
      while (status === 200 && Date.now() - deleted < 500) status = (await u.call('POST', '/v4/entity/widgets/count', key._source.token, {})).status;
      expect(status).toBe(401);
    }
    await waitForSocketMessage(socket, (m) => m.room === channel && m.type === 'TokenExpired', 'the end of the subscription', 2000);
  });

  it('replaces a worker that dies', async () => {
    const [victim] = workerPids();
    const mark = gateway.logs.length;
    process.kill(victim, 'SIGKILL');
    await gateway.waitForLog('worker exited: starting another', 10_000, mark);
    await gateway.waitForLog('entity gateway listening', 20_000, mark);
    const pids = workerPids();
    expect(pids).toHaveLength(2);
    expect(pids).not.toContain(victim);
    // the new worker loaded what was stored
    for (let i = 0; i < 4; i++) expect((await client().call('GET', '/v4/entity/widgets/w0', reader)).body.result._source.name).toBe('Changed 0');
  });

  it('SIGHUP restarts the workers one by one without refusing a request', async () => {
    const before = workerPids();
    const mark = gateway.logs.length;
    let stop = false;
    const statuses = new Map<string, number>();
    const tally = (s: string) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    // searches on new connections and on kept-alive ones, back to back, all through the restart
    const loop = async (keepAlive: boolean) => {
      const c = client(keepAlive);
      while (!stop) {
        try {
          const answer = await c.call('POST', '/v4/entity/widgets/search', reader, { query: { match: { name: 'changed' } } });
          tally(`${answer.status} ${answer.body?.result?.total}`);
        } catch (err) {
          tally(`${keepAlive ? 'kept-alive' : 'new'} connection: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        }
      }
    };
    const loops = [loop(false), loop(false), loop(true)];
    process.kill(gateway.child.pid!, 'SIGHUP');
    await gateway.waitForLog('rolling restart done', 60_000, mark);
    stop = true;
    await Promise.all(loops);
    const after = workerPids();
    expect(after).toHaveLength(2);
    for (const pid of before) expect(after).not.toContain(pid);
    const failures = [...statuses].filter(([s]) => s !== '200 6');
    // a kept-alive connection closed by a stopping worker between two requests is the one thing a
    // client may meet (as with any HTTP/1.1 server): never a refused connection, never an error answer
    expect(failures.filter(([s]) => !s.startsWith('kept-alive connection: ECONNRESET'))).toEqual([]);
    expect(statuses.get('200 6')).toBeGreaterThan(20);
  });
});

describe('two gateways started separately on one DATA_DIR', () => {
  it('each reads what the other acknowledged', async () => {
    const other = await startGatewayProcess({ dataDir: gateway.dataDir });
    try {
      const here = httpClient(gateway.url);
      const there = httpClient(other.url);
      clients.push(here, there);
      expect((await there.call('POST', '/v4/entity/widgets?_id=sep', writer, { name: 'Separate' })).status).toBe(200);
      expect((await here.call('GET', '/v4/entity/widgets/sep', reader)).body.result._source.name).toBe('Separate');
      expect((await here.call('DELETE', '/v4/entity/widgets/sep', writer)).status).toBe(200);
      expect((await there.call('GET', '/v4/entity/widgets/sep', reader)).status).toBe(404);
    } finally {
      await other.stop();
    }
  });
});
