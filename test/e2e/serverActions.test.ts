/**
 * Issue 16 item 1: the server controller actions kuzzle-sdk calls (now, info, healthCheck,
 * getConfig) and auth:getCurrentUser, auth:checkRights, on the real server over REST (/v4/_now,
 * /v4/_serverInfo, /v4/_healthCheck, /v4/_getConfig, /v4/_me, POST /v4/_checkRights), the raw
 * WebSocket and GraphQL.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectError, expectOk, transportOf, TRANSPORTS } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';
import { tenantTokens, type TenantTokens } from '../support/tenantTokens';
import { startTestServer, type TestServer } from '../support/testServer';

let server: TestServer;
let tokens: TenantTokens;
const SECRETS = {
  AUTH_SECRET: 'e2e-auth-secret-do-not-show-0123456789',
  ELASTICSEARCH_API_KEY: 'e2e-elasticsearch-api-key',
  AUTH_JWKS_URL: 'http://jwks:e2e-jwks-password@127.0.0.1:1/jwks.json',
};
const { version } = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { version: string };

beforeAll(async () => {
  server = await startTestServer({ env: SECRETS });
  tokens = await tenantTokens(server);
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('server and user actions over %s', (name) => {
  const t = transportOf(name, () => server);

  it('server:now answers the server clock, with or without a token', async () => {
    for (const token of [undefined, tokens.readerAcme]) {
      const before = Date.now();
      const answer = await t.call({ controller: 'server', action: 'now', token });
      const { now } = expectOk(answer);
      expect(answer.envelope).toMatchObject({ controller: 'server', action: 'now', index: null, collection: null });
      expect(now).toBeGreaterThanOrEqual(before);
      expect(now).toBeLessThanOrEqual(Date.now());
    }
  });

  it("server:info answers Kuzzle's serverInfo: version, Node.js, uptime, every action, the store", async () => {
    const { serverInfo } = expectOk(await t.call({ controller: 'server', action: 'info', token: tokens.readerAcme }));
    expect(serverInfo.kuzzle).toMatchObject({ version, nodeVersion: process.version, application: { name: 'entity-gateway', version }, plugins: {} });
    expect(serverInfo.kuzzle.uptime).toMatch(/^\d+(\.\d+)?s$/);
    expect(serverInfo.kuzzle.api.routes.server.now).toEqual({ controller: 'server', action: 'now' });
    expect(serverInfo.kuzzle.api.routes.realtime.subscribe).toEqual({ controller: 'realtime', action: 'subscribe' });
    expect(serverInfo.services).toEqual({ publicStorage: { backend: 'embedded', status: 'green' } });
    expectError(await t.call({ controller: 'server', action: 'info' }), 'security.rights.unauthorized', 401);
  });

  it('server:healthCheck tells the store is up, with no token; services keeps some', async () => {
    expect(expectOk(await t.call({ controller: 'server', action: 'healthCheck' }))).toEqual({ status: 'green', services: { storageEngine: 'green' } });
    expect(expectOk(await t.call({ controller: 'server', action: 'healthCheck', args: { services: 'memoryStorage' } }))).toEqual({ status: 'green', services: {} });
  });

  it('server:getConfig answers the settings without any secret', async () => {
    const answer = await t.call({ controller: 'server', action: 'getConfig', token: tokens.readerAcme });
    const config = expectOk(answer);
    expect(config).toMatchObject({ nodeEnv: 'test', indexName: 'entity', limits: { maxBodyBytes: 1048576 }, auth: { jwksUrl: 'http://***@127.0.0.1:1/jwks.json' } });
    expect(config.auth.secret).toBeUndefined();
    expect(config.elasticsearch.apiKey).toBeUndefined();
    for (const secret of Object.values(SECRETS).flatMap((v) => [v, ...(v.match(/e2e-[a-z-]+/g) ?? [])])) expect(answer.text).not.toContain(secret);
    expect(answer.text).not.toContain(server.config.auth.secret!);
    expectError(await t.call({ controller: 'server', action: 'getConfig' }), 'security.rights.unauthorized', 401);
  });

  it("auth:getCurrentUser answers Kuzzle's {_id, _source, strategies} for a user token and an API key", async () => {
    const user = expectOk(await t.call({ controller: 'auth', action: 'getCurrentUser', token: tokens.writerAcme }));
    expect(user).toEqual({
      _id: 'wanda',
      _source: { profileIds: ['writer'], roles: ['writer'], tenantId: 'acme', slug: expect.any(String), shortName: expect.any(String), apiKeyId: null, expiresAt: expect.any(Number) },
      strategies: ['jwt'],
    });
    const key = expectOk(await t.call({ controller: 'auth', action: 'createApiKey', body: { description: 'me' }, token: tokens.writerAcme }));
    const viaKey = expectOk(await t.call({ controller: 'auth', action: 'getCurrentUser', token: key._source.token }));
    expect(viaKey).toMatchObject({ _id: 'wanda', _source: { apiKeyId: key._id, tenantId: 'acme', expiresAt: key._source.expiresAt }, strategies: ['apiKey'] });
    expect(JSON.stringify(viaKey)).not.toContain(key._source.token);
    expectError(await t.call({ controller: 'auth', action: 'getCurrentUser' }), 'security.rights.unauthorized', 401);
  });

  it('auth:checkRights says what the action then does', async () => {
    const collection = `rights-${name.toLowerCase()}-things`;
    for (const [token, expected] of [[tokens.readerAcme, false], [tokens.writerAcme, true]] as const) {
      const asked = expectOk(await t.call({ controller: 'auth', action: 'checkRights', token, body: { controller: 'document', action: 'create', collection, body: { name: 'x' } } }));
      expect(asked).toEqual({ allowed: expected });
      const done = await t.call({ controller: 'document', action: 'create', collection, body: { name: 'x' }, token });
      expect(done.envelope.status).toBe(expected ? 200 : 403);
      expect(expectOk(await t.call({ controller: 'auth', action: 'checkRights', token, body: { controller: 'document', action: 'search' } }))).toEqual({ allowed: true });
    }
    expect(expectOk(await t.call({ controller: 'auth', action: 'checkRights', token: tokens.admin, body: { controller: 'admin', action: 'resetDatabase' } }))).toEqual({ allowed: false });
    expectError(await t.call({ controller: 'auth', action: 'checkRights', token: tokens.admin, body: { action: 'search' } }), 'api.assert.missing_argument', 400);
    expectError(await t.call({ controller: 'auth', action: 'checkRights', body: { controller: 'document', action: 'search' } }), 'security.rights.unauthorized', 401);
  });
});

describe('server and user actions over GraphQL', () => {
  it('serverNow and healthCheck need no token', async () => {
    const before = Date.now();
    const data = expectGqlData(await gqlHttp(server, '{ serverNow healthCheck { status services { storageEngine } } }'));
    expect(data.serverNow).toBeGreaterThanOrEqual(before);
    expect(data.healthCheck).toEqual({ status: 'green', services: { storageEngine: 'green' } });
  });

  it('serverInfo, serverConfig (no secret), checkRights and me', async () => {
    const res = await gqlHttp(
      server,
      '{ serverInfo serverConfig me { userId tenantId roles } reader: checkRights(controller: "document", action: "create") search: checkRights(controller: "document", action: "search") }',
      { token: tokens.readerAcme },
    );
    const data = expectGqlData(res);
    expect(data.serverInfo.kuzzle.version).toBe(version);
    expect(data.serverConfig.indexName).toBe('entity');
    for (const secret of Object.values(SECRETS)) expect(res.text).not.toContain(secret);
    expect(data.me).toEqual({ userId: 'rita', tenantId: 'acme', roles: [] });
    expect([data.reader, data.search]).toEqual([false, true]);
  });

  it('serverInfo, serverConfig and checkRights need a token', async () => {
    for (const query of ['{ serverInfo }', '{ serverConfig }', '{ checkRights(controller: "document", action: "search") }']) {
      expectGqlError((await gqlHttp(server, query)).body.errors, 'security.rights.unauthorized', 401);
    }
  });
});
