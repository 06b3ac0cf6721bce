/**
 * Issue 20: a live subscription notifies exactly what a search with the same query finds, entering
 * (`scope: "in"`) and leaving (`scope: "out"`): the real `_id`, the collection's field types, Kuzzle's
 * `scope` option on the raw WebSocket and GraphQL, tenant isolation when `allowTenantIds` changes,
 * and date math evaluated at each write.
 */
import { request, SocketClient, startTestServer, type TestServer } from '../support/testServer';
import { expectOk } from '../support/e2e';
import { openGraphQLWs, Operation, untilLive, waitUntil } from '../support/graphql';

let server: TestServer;
const tokens = { admin: '', readerAcme: '', readerGlobex: '' };
const sockets: SocketClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
  tokens.admin = await server.token({ sub: 'root', tenantId: 'hq', roles: ['admin'] });
  tokens.readerAcme = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  tokens.readerGlobex = await server.token({ sub: 'gus', tenantId: 'globex', roles: [] });
});

afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await server.stop();
});

async function socket(): Promise<SocketClient> {
  const c = await SocketClient.connect(server);
  sockets.push(c);
  return c;
}

/** Subscribes; returns the channel. */
async function subscribe(client: SocketClient, jwt: string, collection: string, body: unknown, scope?: string): Promise<string> {
  const answer = await client.send({ controller: 'realtime', action: 'subscribe', collection, body, jwt, ...(scope === undefined ? {} : { scope }) });
  return expectOk({ httpStatus: null, envelope: answer }).channel;
}

/** A write over the same socket: its answer comes after the notifications it caused. */
async function write(client: SocketClient, message: Record<string, unknown>): Promise<any> {
  const answer = await client.send({ jwt: tokens.admin, ...message });
  return expectOk({ httpStatus: null, envelope: answer });
}

const seen = (client: SocketClient, channel: string) => client.received.filter((m) => m.room === channel && m.type === 'document').map((m) => `${m.action} ${m.result._id} ${m.scope}`);

describe('what a subscription sees is what a search sees', () => {
  it('an ids filter matches the entity by its real _id', async () => {
    const c = await socket();
    const channel = await subscribe(c, tokens.admin, 'products', { query: { ids: { values: ['p-1', 'p-2'] } } });
    await write(c, { controller: 'document', action: 'create', collection: 'products', _id: 'p-1', body: { name: 'one' } });
    await write(c, { controller: 'document', action: 'create', collection: 'products', _id: 'p-3', body: { name: 'three' } });
    expect(seen(c, channel)).toEqual(['create p-1 in']);
  });

  it("a field's type is the collection's (fixed by earlier entities), not the one the changed entity alone would give", async () => {
    const c = await socket();
    await write(c, { controller: 'document', action: 'create', collection: 'scores', _id: 's-1', body: { points: 5 } });
    const query = { range: { points: { gte: 9 } } };
    const channel = await subscribe(c, tokens.admin, 'scores', { query });
    // "12" is the number 12 in a long field (12 >= 9); alone it would be text ("12" < "9")
    await write(c, { controller: 'document', action: 'create', collection: 'scores', _id: 's-2', body: { points: '12' } });
    const found = await request(server, 'POST', '/v4/entity/scores/search', { token: tokens.admin, body: { query } });
    expect(found.body.result.hits.map((h: { _id: string }) => h._id)).toEqual(['s-2']);
    expect(seen(c, channel)).toEqual(['create s-2 in']);
  });
});

describe("Kuzzle's scope", () => {
  it('notifies in, out and delete by scope: all (default), in, out', async () => {
    const c = await socket();
    const query = { query: { range: { rank: { gte: 10 } } } };
    const all = await subscribe(c, tokens.admin, 'teams', query);
    const onlyIn = await subscribe(c, tokens.admin, 'teams', query, 'in');
    const onlyOut = await subscribe(c, tokens.admin, 'teams', query, 'out');
    await write(c, { controller: 'document', action: 'create', collection: 'teams', _id: 't-1', body: { rank: 1 } }); // never matched: nothing
    await write(c, { controller: 'document', action: 'update', collection: 'teams', _id: 't-1', body: { rank: 12 } }); // enters
    await write(c, { controller: 'document', action: 'update', collection: 'teams', _id: 't-1', body: { rank: 15 } }); // stays
    await write(c, { controller: 'document', action: 'replace', collection: 'teams', _id: 't-1', body: { rank: 3 } }); // leaves
    await write(c, { controller: 'document', action: 'update', collection: 'teams', _id: 't-1', body: { rank: 20 } }); // enters
    await write(c, { controller: 'document', action: 'delete', collection: 'teams', _id: 't-1' }); // leaves
    expect(seen(c, all)).toEqual(['update t-1 in', 'update t-1 in', 'replace t-1 out', 'update t-1 in', 'delete t-1 out']);
    expect(seen(c, onlyIn)).toEqual(['update t-1 in', 'update t-1 in', 'update t-1 in']);
    expect(seen(c, onlyOut)).toEqual(['replace t-1 out', 'delete t-1 out']);
    const out = c.received.find((m) => m.room === all && m.action === 'replace');
    expect(out.result._source.rank).toBe(3); // still visible: the entity as it is now
    const bad = await c.send({ controller: 'realtime', action: 'subscribe', collection: 'teams', body: {}, scope: 'sideways', jwt: tokens.admin });
    expect(bad.status).toBe(400);
    expect(bad.error.id).toBe('api.assert.invalid_argument');
  });

  it('an entity leaves (out) for the tenant that loses it, with what that tenant could see, and other tenants never hear of it', async () => {
    const c = await socket();
    const acme = await subscribe(c, tokens.readerAcme, 'boxes', {});
    const globex = await subscribe(c, tokens.readerGlobex, 'boxes', {});
    await write(c, { controller: 'document', action: 'create', collection: 'boxes', _id: 'b-1', body: { label: 'shared', allowTenantIds: ['acme'] } });
    await write(c, { controller: 'document', action: 'update', collection: 'boxes', _id: 'b-1', body: { label: 'moved', allowTenantIds: ['other'] } });
    await write(c, { controller: 'document', action: 'update', collection: 'boxes', _id: 'b-1', body: { label: 'secret' } });
    await write(c, { controller: 'document', action: 'delete', collection: 'boxes', _id: 'b-1' });
    expect(seen(c, acme)).toEqual(['create b-1 in', 'update b-1 out']);
    const out = c.received.find((m) => m.room === acme && m.scope === 'out');
    expect(out.result._source.label).toBe('shared'); // not 'moved': acme can no longer see it
    expect(JSON.stringify(c.received.filter((m) => m.room === acme))).not.toContain('secret');
    expect(seen(c, globex)).toEqual([]);
  });

  it('evaluates date math on now at each write', async () => {
    const c = await socket();
    const channel = await subscribe(c, tokens.admin, 'events', { query: { range: { at: { gte: 'now-1h' } } } });
    await write(c, { controller: 'document', action: 'create', collection: 'events', _id: 'e-old', body: { at: new Date(Date.now() - 7200_000).toISOString() } });
    await write(c, { controller: 'document', action: 'create', collection: 'events', _id: 'e-new', body: { at: new Date(Date.now() - 60_000).toISOString() } });
    expect(seen(c, channel)).toEqual(['create e-new in']);
  });

  it('GraphQL: the scope argument and field', async () => {
    const client = openGraphQLWs(server, tokens.admin);
    const query = 'subscription($q: JSON, $s: ChangeScope) { entityChanged(type: "lamps", query: $q, scope: $s) { action id scope entity { id } } }';
    const all = new Operation(client, query, { q: { term: { on: true } } });
    const outs = new Operation(client, query, { q: { term: { on: true } }, s: 'OUT' });
    const c = await socket();
    // graphql-ws has no acknowledgement: repeat an in and an out until both subscriptions heard them
    await untilLive(
      async () => {
        const probe = await write(c, { controller: 'document', action: 'create', collection: 'lamps', body: { on: true } });
        await write(c, { controller: 'document', action: 'update', collection: 'lamps', _id: probe._id, body: { on: false } });
      },
      () => all.data.length > 0 && outs.data.length > 0,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    all.results.length = 0;
    outs.results.length = 0;
    await write(c, { controller: 'document', action: 'create', collection: 'lamps', _id: 'l-1', body: { on: true } });
    await write(c, { controller: 'document', action: 'update', collection: 'lamps', _id: 'l-1', body: { on: false } });
    await waitUntil(() => (all.data.filter((d) => d.entityChanged.id === 'l-1').length === 2 ? true : undefined), 'two changes of l-1');
    expect(all.data.filter((d) => d.entityChanged.id === 'l-1').map((d) => `${d.entityChanged.action} ${d.entityChanged.scope}`)).toEqual(['CREATE IN', 'UPDATE OUT']);
    await waitUntil(() => (outs.data.some((d) => d.entityChanged.id === 'l-1') ? true : undefined), 'the out');
    expect(outs.data.map((d) => `${d.entityChanged.action} ${d.entityChanged.id} ${d.entityChanged.scope}`)).toEqual(['UPDATE l-1 OUT']);
    all.unsubscribe();
    outs.unsubscribe();
    await client.dispose();
  });
});
