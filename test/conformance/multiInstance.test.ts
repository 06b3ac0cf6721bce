/**
 * Conformance, DESIGN.md "Elasticsearch store" and "API keys": several gateway instances on one
 * backend, as behind a load balancer. A key deleted through one instance stops working on every
 * instance within API_KEY_CACHE_MS; a slug raced for by two instances goes to one entity; what one
 * instance writes, the others read at once. The embedded store's instances share one DATA_DIR and
 * follow each other's writes through its SQLite change log.
 */
import { sleep } from '../support/e2e';
import { waitForSocketMessage } from '../support/graphql';
import { SocketClient } from '../support/testServer';
import type { TestServer } from '../support/testServer';
import { call, failsWith, ok, uniqueCollection } from './support/api';
import { startGateway } from './support/gateway';
import { describeEachStore, type Backend, type StoreTarget } from './support/targets';
import { NO_REDIS, REDIS_AVAILABLE, startRedis, type RedisServer } from '../support/redis';

const CACHE_MS = 500;
/** Request latency allowed on top of the cache bound (a loaded CI machine). */
const SLACK_MS = 750;

describeEachStore(
  'several instances',
  (target) => {
    let backend: Backend;
    let one: TestServer;
    let two: TestServer;

    beforeAll(async () => {
      backend = await target.open();
      one = await startGateway(backend, { API_KEY_CACHE_MS: String(CACHE_MS) });
      two = await startGateway(backend, { API_KEY_CACHE_MS: String(CACHE_MS) });
    });

    afterAll(async () => {
      await one?.stop();
      await two?.stop();
      await backend?.destroy();
    });

    it(`a key deleted through one instance stops working on the others within API_KEY_CACHE_MS (${CACHE_MS} ms)`, async () => {
      const alice = { server: one, token: await one.token({ sub: 'alice', tenantId: 'acme', roles: [] }) };
      const key = await ok(alice, 'POST', '/v4/api-keys/_create', { description: 'shared' });
      const onTwo = { server: two, token: key._source.token };
      expect((await call(onTwo, 'POST', '/v4/entity/countries/search', {})).httpStatus).toBe(200); // instance two now caches the key

      await ok(alice, 'DELETE', `/v4/api-keys/${key._id}`);
      const deletedAt = Date.now();
      await failsWith({ server: one, token: key._source.token }, 'POST', '/v4/entity/countries/search', {}, 'security.token.invalid', 401); // at once where deleted
      let refusedAfter = -1;
      while (refusedAfter < 0 && Date.now() - deletedAt < CACHE_MS + 3000) {
        const answer = await call(onTwo, 'POST', '/v4/entity/countries/search', {});
        if (answer.httpStatus === 401) {
          refusedAfter = Date.now() - deletedAt;
          expect(answer.envelope.error.id).toBe('security.token.invalid');
        } else await sleep(25);
      }
      expect(refusedAfter).toBeGreaterThanOrEqual(0);
      expect(refusedAfter).toBeLessThanOrEqual(CACHE_MS + SLACK_MS);
    });

    it('two instances racing for one slug: one entity, one 409', async () => {
      const type = uniqueCollection();
      const writers = await Promise.all([one, two].map(async (server) => ({ server, token: await server.token({ sub: 'w', tenantId: 'acme', roles: ['writer'] }) })));
      for (let round = 0; round < 5; round++) {
        const answers = await Promise.all(writers.map((w, i) => call(w, 'POST', `/v4/entity/${type.collection}?_id=r${round}-${i}`, { name: `Contested ${round}`, slug: `contested-${round}` })));
        expect(answers.map((a) => a.httpStatus).sort()).toEqual([200, 409]);
      }
      const all = await ok(writers[0], 'POST', `/v4/entity/${type.collection}/search?size=100`, {});
      expect(all.total).toBe(5);
      expect(new Set(all.hits.map((h: any) => h._source.slug)).size).toBe(5);
    });

    it('two instances deriving one slug at the same moment: two entities, two slugs', async () => {
      const type = uniqueCollection();
      const writers = await Promise.all([one, two].map(async (server) => ({ server, token: await server.token({ sub: 'w', tenantId: 'acme', roles: ['writer'] }) })));
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(writers.map((w, i) => call(w, 'POST', `/v4/entity/${type.collection}?_id=d${round}-${i}`, { name: `Derived ${round}` })));
        expect(answers.map((a) => a.httpStatus)).toEqual([200, 200]);
        expect(answers.map((a) => a.envelope.result._source.slug).sort()).toEqual([`derived-${round}`, `derived-${round}-2`]);
      }
    });

    it('what one instance writes, another reads and searches at once', async () => {
      const type = uniqueCollection();
      const onOne = { server: one, token: await one.token({ sub: 'w', tenantId: 'acme', roles: ['writer'] }) };
      const onTwo = { server: two, token: await two.token({ sub: 'r', tenantId: 'acme', roles: [] }) };
      await ok(onOne, 'POST', `/v4/entity/${type.collection}?_id=x`, { name: 'Written on one' });
      expect((await ok(onTwo, 'GET', `/v4/entity/${type.collection}/x`))._source.name).toBe('Written on one');
      expect((await ok(onTwo, 'POST', `/v4/entity/${type.collection}/search`, { query: { match: { name: 'written' } } })).total).toBe(1);
      await ok(onOne, 'DELETE', `/v4/entity/${type.collection}/x`);
      await failsWith(onTwo, 'GET', `/v4/entity/${type.collection}/x`, undefined, 'services.storage.not_found', 404);
    });
  },
  (target) => target.multiInstance,
);

/**
 * Live changes and revocations across two instances: told by the store itself (the embedded store's
 * change log), or by the Redis fleet bus (`redis`: a real redis-server started here), or by both
 * (the embedded store with Redis: still told once).
 */
function liveChangesAcrossInstances(target: StoreTarget, redis: boolean): void {
    let backend: Backend;
    let one: TestServer;
    let two: TestServer;
    let server: RedisServer | undefined;
    const sockets: SocketClient[] = [];

    beforeAll(async () => {
      backend = await target.open();
      server = redis ? await startRedis() : undefined;
      // a long key cache: what ends the subscription below is the store's or the bus's word, not a re-check
      const env = { API_KEY_CACHE_MS: '60000', ...(server ? { REDIS_URL: server.url } : {}) };
      one = await startGateway(backend, env);
      two = await startGateway(backend, env);
    });

    afterAll(async () => {
      for (const s of sockets) await s.close();
      await one?.stop();
      await two?.stop();
      await backend?.destroy();
      await server?.stop();
    });

    const subscribe = async (server: TestServer, jwt: string, collection: string, body: unknown = {}) => {
      const socket = await SocketClient.connect(server);
      sockets.push(socket);
      const answer = await socket.send({ controller: 'realtime', action: 'subscribe', collection, body, jwt });
      expect(answer.status).toBe(200);
      return { socket, channel: answer.result.channel as string };
    };
    const changesOf = (s: { socket: SocketClient; channel: string }) =>
      s.socket.received.filter((m) => m.room === s.channel && m.type === 'document').map((m) => `${m.action} ${m.result._id} ${m.scope} ${m.result._source?.name}`);

    it('a subscription on one instance hears every visible change made through the other, once, in commit order, with its scope', async () => {
      const type = uniqueCollection();
      const writer = { server: two, token: await two.token({ sub: 'w', tenantId: 'acme', roles: ['writer'] }) };
      const stranger = { server: two, token: await two.token({ sub: 's', tenantId: 'globex', roles: ['writer'] }) };
      const reader = await one.token({ sub: 'r', tenantId: 'acme', roles: [] });
      const all = await subscribe(one, reader, type.collection);
      const filtered = await subscribe(one, reader, type.collection, { query: { match: { name: 'blue' } } });
      await ok(writer, 'POST', `/v4/entity/${type.collection}?_id=a`, { name: 'blue sky' });
      await ok(stranger, 'POST', `/v4/entity/${type.collection}?_id=hidden`, { name: 'blue secret' });
      await ok(writer, 'PATCH', `/v4/entity/${type.collection}/a`, { name: 'grey sky' });
      await ok(writer, 'PUT', `/v4/entity/${type.collection}/a`, { name: 'blue again' });
      await ok(writer, 'DELETE', `/v4/entity/${type.collection}/a`);
      await waitForSocketMessage(all.socket, (m) => m.room === all.channel && m.action === 'delete', 'the delete');
      await waitForSocketMessage(filtered.socket, (m) => m.room === filtered.channel && m.action === 'delete', 'the delete (filtered)');
      await sleep(100); // nothing more comes
      expect(changesOf(all)).toEqual(['create a in blue sky', 'update a in grey sky', 'replace a in blue again', 'delete a out blue again']);
      expect(changesOf(filtered)).toEqual(['create a in blue sky', 'update a out grey sky', 'replace a in blue again', 'delete a out blue again']);
    });

    it('a subscription made with an API key ends on every instance when the key is deleted on one', async () => {
      const type = uniqueCollection();
      const alice = { server: one, token: await one.token({ sub: 'alice', tenantId: 'acme', roles: [] }) };
      const key = await ok(alice, 'POST', '/v4/api-keys/_create', { description: 'live' });
      const sub = await subscribe(two, key._source.token, type.collection);
      // used once on two: its lookup is cached there for API_KEY_CACHE_MS (60 s)
      await ok({ server: two, token: key._source.token }, 'POST', `/v4/entity/${type.collection}/search`, {});
      await ok(alice, 'DELETE', `/v4/api-keys/${key._id}`);
      const ended = await waitForSocketMessage(sub.socket, (m) => m.room === sub.channel && m.type === 'TokenExpired', 'the end of the subscription', 2000);
      expect(ended).toEqual(expect.objectContaining({ room: sub.channel }));
      await failsWith({ server: two, token: key._source.token }, 'POST', `/v4/entity/${type.collection}/search`, {}, 'security.token.invalid', 401);
    });
}

describeEachStore('several instances, live changes from the store', (target) => liveChangesAcrossInstances(target, false), (target) => target.sharesChanges);

if (REDIS_AVAILABLE) {
  describeEachStore('several instances joined by Redis (REDIS_URL)', (target) => liveChangesAcrossInstances(target, true));
} else {
  describe.skip(`several instances joined by Redis (${NO_REDIS})`, () => {
    it('needs redis-server', () => undefined);
  });
}
