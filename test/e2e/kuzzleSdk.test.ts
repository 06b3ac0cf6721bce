/**
 * Issue 16 item 1, the proof with a real client: kuzzle-sdk 7 (Kuzzle's official JavaScript SDK,
 * a dev dependency) connects to the raw WebSocket, subscribes the Kuzzle way with Koncorde filters,
 * is notified of a change made over REST, and calls the server and auth actions it has methods for.
 */
import { Kuzzle, WebSocket as KuzzleWebSocket } from 'kuzzle-sdk';
import { expectOk } from '../support/e2e';
import { waitUntil } from '../support/graphql';
import { tenantTokens, type TenantTokens } from '../support/tenantTokens';
import { request, startTestServer, type TestServer } from '../support/testServer';

let server: TestServer;
let tokens: TenantTokens;
let kuzzle: Kuzzle;

beforeAll(async () => {
  server = await startTestServer();
  tokens = await tenantTokens(server);
  const port = Number(new URL(server.url).port);
  kuzzle = new Kuzzle(new KuzzleWebSocket('127.0.0.1', { port, autoReconnect: false }));
  await kuzzle.connect();
  kuzzle.jwt = tokens.readerAcme;
});

afterAll(async () => {
  kuzzle.disconnect();
  await server.stop();
});

async function create(collection: string, _id: string, body: Record<string, unknown>): Promise<void> {
  expectOk({ httpStatus: null, envelope: (await request(server, 'POST', `/v4/entity/${collection}?_id=${_id}`, { token: tokens.writerAcme, body })).body });
}

describe('kuzzle-sdk 7 against the gateway', () => {
  it('subscribes with Koncorde filters and is notified of the changes they match', async () => {
    const heard: { id: string; scope: string; action: string; code: unknown }[] = [];
    const roomId = await kuzzle.realtime.subscribe('entity', 'sdk-countries', { equals: { code: 'FR' } }, (notification: any) => {
      heard.push({ id: notification.result._id, scope: notification.scope, action: notification.action, code: notification.result._source.code });
    });
    expect(typeof roomId).toBe('string');
    await create('sdk-countries', 'de', { name: 'Germany', code: 'DE' });
    await create('sdk-countries', 'fr', { name: 'France', code: 'FR' });
    await waitUntil(() => heard.length > 0 || undefined, 'the notification of fr');
    expect(heard).toEqual([{ id: 'fr', scope: 'in', action: 'create', code: 'FR' }]);
    await kuzzle.realtime.unsubscribe(roomId);
  });

  it('a filter the gateway refuses rejects subscribe with the error', async () => {
    await expect(kuzzle.realtime.subscribe('entity', 'sdk-countries', { term: { code: 'FR' } }, () => undefined)).rejects.toMatchObject({
      status: 400,
      id: 'api.assert.koncorde_dsl_error',
    });
  });

  it('server.now(), server.info(), server.getConfig(), server.healthCheck()', async () => {
    const before = Date.now();
    const now = await kuzzle.server.now({});
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    const info = (await kuzzle.server.info({})) as any;
    expect(info.serverInfo.kuzzle.api.routes.realtime.subscribe).toEqual({ controller: 'realtime', action: 'subscribe' });
    const config = (await kuzzle.server.getConfig({})) as any;
    expect(config.indexName).toBe('entity');
    expect(JSON.stringify(config)).not.toContain(server.config.auth.secret ?? 'no secret');
    expect(await kuzzle.query({ controller: 'server', action: 'healthCheck' })).toMatchObject({ result: { status: 'green' } });
  });

  it('auth.getCurrentUser() and auth.checkRights()', async () => {
    const user = await kuzzle.auth.getCurrentUser();
    expect(user._id).toBe('rita');
    expect(user.content).toMatchObject({ tenantId: 'acme', profileIds: [] });
    expect(await kuzzle.auth.checkRights({ controller: 'document', action: 'create' })).toBe(false);
    expect(await kuzzle.auth.checkRights({ controller: 'document', action: 'search' })).toBe(true);
  });
});
