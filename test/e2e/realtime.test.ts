/**
 * Kuzzle's `realtime` controller on the raw WebSocket: `subscribe` answers `{roomId, channel}` and
 * then pushes `{room: channel, type: "document", action, result: {_id, _source}}` for each visible
 * change of the collection, optionally filtered by a query; `unsubscribe` with `{roomId}` stops
 * them; a subscription made with an API key ends when the key is deleted.
 */
import { request, SocketClient, startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk } from '../support/e2e';
import { sleep, waitForSocketMessage } from '../support/graphql';

let server: TestServer;
const tokens = { admin: '', writerAcme: '', readerAcme: '', readerGlobex: '' };
const sockets: SocketClient[] = [];

async function connect(): Promise<SocketClient> {
  const c = await SocketClient.connect(server);
  sockets.push(c);
  return c;
}

let seq = 0;
const unique = (label: string) => `rt-${label}-${++seq}-${Date.now()}`;

async function createCountry(token: string, body: Record<string, unknown>, id = unique('c')): Promise<string> {
  const res = await request(server, 'POST', `/v4/entity/countries?_id=${encodeURIComponent(id)}`, { token, body });
  expectOk({ httpStatus: res.status, envelope: res.body });
  return id;
}

/** Subscribes; returns the channel (checks the answer's shape). */
async function subscribe(client: SocketClient, jwt: string, body: unknown = {}, collection = 'countries'): Promise<string> {
  const answer = await client.send({ controller: 'realtime', action: 'subscribe', collection, body, jwt });
  const result = expectOk({ httpStatus: null, envelope: answer });
  expect(answer).toEqual(expect.objectContaining({ controller: 'realtime', action: 'subscribe', collection, index: 'entity' }));
  expect(Object.keys(result).sort()).toEqual(['channel', 'roomId']);
  expect(typeof result.channel).toBe('string');
  expect(result.channel.length).toBeGreaterThan(0);
  expect(typeof result.roomId).toBe('string');
  return result.channel;
}

const notificationsOf = (client: SocketClient, channel: string) => client.received.filter((m) => m.room === channel && m.type === 'document');
const idsIn = (client: SocketClient, channel: string) => new Set(notificationsOf(client, channel).map((m) => m.result?._id));
const waitForChange = (client: SocketClient, channel: string, id: string, action: string) =>
  waitForSocketMessage(client, (m) => m.room === channel && m.type === 'document' && m.action === action && m.result?._id === id, `${action} of ${id}`);

beforeAll(async () => {
  server = await startTestServer();
  tokens.admin = await server.token({ sub: 'root', tenantId: 'hq', roles: ['admin'] });
  tokens.writerAcme = await server.token({ sub: 'wanda', tenantId: 'acme', roles: ['writer'] });
  tokens.readerAcme = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  tokens.readerGlobex = await server.token({ sub: 'gus', tenantId: 'globex', roles: [] });
});

afterAll(async () => {
  await Promise.all(sockets.map((s) => s.close()));
  await server.stop();
});

describe('realtime over the raw WebSocket', () => {
  it('subscribe answers {roomId, channel}, then pushes a create, an update and a delete made over REST', async () => {
    const client = await connect();
    const channel = await subscribe(client, tokens.readerAcme);

    const id = await createCountry(tokens.writerAcme, { name: 'Realtimia', code: 'RT' });
    const created = await waitForChange(client, channel, id, 'create');
    expect(created).toEqual(
      expect.objectContaining({ room: channel, type: 'document', action: 'create', status: 200, controller: 'document', collection: 'countries', index: 'entity' }),
    );
    expect(created.result._id).toBe(id);
    expect(created.result._source).toEqual(
      expect.objectContaining({ id, entityType: 'country', name: 'Realtimia', code: 'RT', allowTenantIds: ['acme'] }),
    );
    // The pushed _source is the entity REST returns.
    const got = await request(server, 'GET', `/v4/entity/countries/${id}`, { token: tokens.readerAcme });
    expect(created.result._source).toEqual(got.body.result._source);

    expectOk({ httpStatus: null, envelope: (await request(server, 'PATCH', `/v4/entity/countries/${id}`, { token: tokens.writerAcme, body: { name: 'Realtimia Nova' } })).body });
    const updated = await waitForChange(client, channel, id, 'update');
    expect(updated.result._source.name).toBe('Realtimia Nova');

    expectOk({ httpStatus: null, envelope: (await request(server, 'DELETE', `/v4/entity/countries/${id}`, { token: tokens.writerAcme })).body });
    const deleted = await waitForChange(client, channel, id, 'delete');
    expect(deleted.result._id).toBe(id);

    expect(notificationsOf(client, channel).filter((m) => m.result._id === id).map((m) => m.action)).toEqual(['create', 'update', 'delete']);
  });

  it('a query body drops non-matching changes and pushes matching ones', async () => {
    const client = await connect();
    const filtered = await subscribe(client, tokens.readerAcme, { query: { term: { 'code.keyword': 'ZZ' } } });

    const miss = await createCountry(tokens.writerAcme, { name: 'Wrong Code', code: 'YY' });
    const hit = await createCountry(tokens.writerAcme, { name: 'Right Code', code: 'ZZ' });
    await waitForChange(client, filtered, hit, 'create');
    await sleep(300);
    expect(idsIn(client, filtered).has(miss)).toBe(false);
    for (const m of notificationsOf(client, filtered)) expect(m.result._source.code).toBe('ZZ');
  });

  it('another tenant\'s subscriber receives none of acme\'s changes', async () => {
    const client = await connect();
    const channel = await subscribe(client, tokens.readerGlobex);
    const hidden = await createCountry(tokens.writerAcme, { name: 'Acme Secret', code: 'AS', allowTenantIds: ['acme'] });
    const shared = await createCountry(tokens.admin, { name: 'Everyones', code: 'EV', allowTenantIds: ['*'] });
    await waitForChange(client, channel, shared, 'create');
    await sleep(300);
    expect(idsIn(client, channel).has(hidden)).toBe(false);
  });

  it('unsubscribe with {roomId} stops that room\'s notifications; another room on the same socket still receives', async () => {
    const client = await connect();
    const stopped = await subscribe(client, tokens.readerAcme);
    const kept = await subscribe(client, tokens.readerAcme);
    expect(stopped).not.toBe(kept);

    const first = await createCountry(tokens.writerAcme, { name: 'Before Unsubscribe', code: 'BU' });
    await waitForChange(client, stopped, first, 'create');
    await waitForChange(client, kept, first, 'create');

    const answer = await client.send({ controller: 'realtime', action: 'unsubscribe', body: { roomId: stopped }, jwt: tokens.readerAcme });
    expect(expectOk({ httpStatus: null, envelope: answer })).toEqual({ roomId: stopped });

    const second = await createCountry(tokens.writerAcme, { name: 'After Unsubscribe', code: 'AU' });
    await waitForChange(client, kept, second, 'create');
    await sleep(300);
    expect(idsIn(client, stopped).has(second)).toBe(false);

    // The room is gone.
    const again = await client.send({ controller: 'realtime', action: 'unsubscribe', body: { roomId: stopped }, jwt: tokens.readerAcme });
    expectError({ httpStatus: null, envelope: again }, 'services.storage.not_found', 404);
  });

  it('subscribe without a valid token is refused', async () => {
    const client = await connect();
    const none = await client.send({ controller: 'realtime', action: 'subscribe', collection: 'countries', body: {} });
    expectError({ httpStatus: null, envelope: none }, 'security.rights.unauthorized', 401);
    const bad = await client.send({ controller: 'realtime', action: 'subscribe', collection: 'countries', body: {}, jwt: 'not-a-jwt' });
    expectError({ httpStatus: null, envelope: bad }, 'security.token.invalid', 401);
  });

  it('a subscription made with an API key ends (TokenExpired notification) when the key is deleted', async () => {
    const key = await request(server, 'POST', '/v4/api-keys/_create', { token: tokens.readerAcme, body: { description: 'realtime key' } });
    const { _id: keyId, _source } = expectOk({ httpStatus: key.status, envelope: key.body });
    const client = await connect();
    const channel = await subscribe(client, _source.token);
    const witness = await subscribe(client, tokens.readerAcme);

    const deleted = await request(server, 'DELETE', `/v4/api-keys/${encodeURIComponent(keyId)}`, { token: tokens.readerAcme });
    expectOk({ httpStatus: deleted.status, envelope: deleted.body });
    const ended = await waitForSocketMessage(client, (m) => m.room === channel && m.type === 'TokenExpired', 'the TokenExpired notification', 3000);
    expect(ended.error?.id).toBe('security.token.invalid');

    const later = await createCountry(tokens.writerAcme, { name: 'After Key Deletion', code: 'AK' });
    await waitForChange(client, witness, later, 'create');
    await sleep(300);
    expect(idsIn(client, channel).has(later)).toBe(false);
  });
});
