/**
 * Conformance, DESIGN.md "API keys" and spec 4.2: ttl rules, expiresAt, fingerprint, the token
 * shown once, the key as a bearer token, listing, revocation and expiry, on every store target.
 */
import { sha256Hex, sleep } from '../support/e2e';
import type { TestServer } from '../support/testServer';
import { call, failsWith, ok, type Caller } from './support/api';
import { gatewayOn, startGateway } from './support/gateway';
import { describeEachStore, uniqueToken } from './support/targets';

describeEachStore('API keys', (target) => {
  const gw = gatewayOn(target);
  let server: TestServer;
  const user = async (srv: TestServer = server): Promise<Caller> => ({ server: srv, token: await srv.token({ sub: `u${uniqueToken()}`, tenantId: 'acme', roles: ['writer'] }) });
  const create = (c: Caller, query = '', body: unknown = { description: 'a key' }) => ok(c, 'POST', `/v4/api-keys/_create${query}`, body);
  const searchCountries = (token: string) => call({ server, token }, 'POST', '/v4/entity/countries/search', {});

  beforeAll(async () => {
    server = gw.server();
  });

  it('defaults to a ttl of one hour, expiresAt = createdAt + ttl, fingerprint = SHA-256(token)', async () => {
    const alice = await user();
    const before = Date.now();
    const key = await create(alice, '', { description: 'CI key' });
    expect(key._source).toEqual({
      description: 'CI key',
      expiresAt: key._source._service_info.createdAt + 3_600_000,
      ttl: 3_600_000,
      fingerprint: sha256Hex(key._source.token),
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      userId: expect.any(String),
      _service_info: { author: key._source.userId, createdAt: expect.any(Number), updatedAt: null, updater: null },
    });
    expect(key._source._service_info.createdAt).toBeGreaterThanOrEqual(before);
  });

  it('takes expiresIn as an ms duration or milliseconds; -1 never expires; 0 and nonsense are 400', async () => {
    const alice = await user();
    expect((await create(alice, '?expiresIn=2h'))._source.ttl).toBe(7_200_000);
    expect((await create(alice, '?expiresIn=90000'))._source.ttl).toBe(90_000);
    const never = await create(alice, '?expiresIn=-1');
    expect([never._source.ttl, never._source.expiresAt]).toEqual([-1, -1]);
    expect((await call({ server, token: never._source.token }, 'POST', '/v4/entity/countries/search', {})).httpStatus).toBe(200);
    for (const bad of ['0', '-5', 'soon']) {
      await failsWith(alice, 'POST', `/v4/api-keys/_create?expiresIn=${bad}`, { description: 'x' }, 'api.assert.invalid_argument', 400);
    }
  });

  it('refuses lifetimes over API_KEY_MAX_TTL (and -1 then) with 400 ttl_exceeded', async () => {
    const cappedBackend = await target.open();
    const capped = await startGateway(cappedBackend, { API_KEY_MAX_TTL: '1d' });
    try {
      const alice = await user(capped);
      expect((await create(alice, '?expiresIn=1d'))._source.ttl).toBe(86_400_000);
      await failsWith(alice, 'POST', '/v4/api-keys/_create?expiresIn=2d', { description: 'x' }, 'security.token.ttl_exceeded', 400);
      await failsWith(alice, 'POST', '/v4/api-keys/_create?expiresIn=-1', { description: 'x' }, 'security.token.ttl_exceeded', 400);
    } finally {
      await capped.stop();
      await cappedBackend.destroy();
    }
  });

  it('a key authenticates as its creator until deleted (401 security.token.invalid afterwards)', async () => {
    const alice = await user();
    const key = await create(alice);
    const check = await ok({ server, token: '' }, 'POST', '/v4/_checkToken', { token: key._source.token });
    expect(check).toEqual({ valid: true, userId: key._source.userId, tenantId: 'acme', expiresAt: key._source.expiresAt });
    expect((await searchCountries(key._source.token)).httpStatus).toBe(200);
    expect(await ok(alice, 'DELETE', `/v4/api-keys/${key._id}`)).toEqual({ _id: key._id });
    await failsWith({ server, token: key._source.token }, 'POST', '/v4/entity/countries/search', {}, 'security.token.invalid', 401);
    expect((await ok({ server, token: '' }, 'POST', '/v4/_checkToken', { token: key._source.token })).valid).toBe(false);
  });

  it('an expired key is 401 security.token.expired', async () => {
    const alice = await user();
    const key = await create(alice, '?expiresIn=2s');
    expect((await searchCountries(key._source.token)).httpStatus).toBe(200);
    await sleep(Math.max(0, key._source.expiresAt - Date.now()) + 100);
    await failsWith({ server, token: key._source.token }, 'POST', '/v4/entity/countries/search', {}, 'security.token.expired', 401);
  });

  it('lists only the caller\'s keys (an admin\'s: everyone\'s), never a token; a key made with a key cannot outlive it', async () => {
    const alice = await user();
    const bob = await user();
    const mine = [await create(alice, '', { description: 'first key' }), await create(alice, '', { description: 'second key' })];
    const bobs = await create(bob);
    const listed = await ok(alice, 'POST', '/v4/api-keys/_search?size=100', {});
    expect(listed.total).toBe(2);
    expect(listed.hits.map((h: any) => h._id).sort()).toEqual(mine.map((k) => k._id).sort());
    for (const hit of listed.hits) expect(Object.keys(hit._source).sort()).toEqual(['_service_info', 'description', 'expiresAt', 'fingerprint', 'ttl', 'userId']);
    const matched = await ok(alice, 'POST', '/v4/api-keys/_search', { query: { match: { description: 'second' } } });
    expect(matched.hits.map((h: any) => h._id)).toEqual([mine[1]._id]);
    const admin = { server, token: await server.token({ sub: 'root', roles: ['admin'] }) };
    const everyone = await ok(admin, 'POST', '/v4/api-keys/_search?size=100', { query: { terms: { userId: [mine[0]._source.userId, bobs._source.userId] } } });
    expect(everyone.total).toBe(3);
    // Bob cannot delete Alice's key: it does not exist for him
    await failsWith(bob, 'DELETE', `/v4/api-keys/${mine[0]._id}`, undefined, 'services.storage.not_found', 404);

    const viaKey = { server, token: mine[0]._source.token }; // expires in 1h
    await failsWith(viaKey, 'POST', '/v4/api-keys/_create?expiresIn=2h', { description: 'longer' }, 'security.token.ttl_exceeded', 400);
    expect((await create(viaKey, '?expiresIn=30m'))._source.ttl).toBe(1_800_000);
  });

  it('a chosen _id is kept; a taken one is 409', async () => {
    const alice = await user();
    const id = `key-${uniqueToken()}`;
    expect((await create(alice, `?_id=${id}`))._id).toBe(id);
    await failsWith(alice, 'POST', `/v4/api-keys/_create?_id=${id}`, { description: 'again' }, 'services.storage.document_already_exists', 409);
  });
});
