/**
 * API keys over GraphQL (spec 4.2 and 5, DESIGN.md "API keys"): createApiKey's ttl, expiresAt and
 * fingerprint; the token usable as a bearer token over REST and GraphQL; never listed again; refused
 * once deleted. And 64-bit timestamps (GraphQL `Long`): createdAt / expiresAt above 2^31 come back
 * as exact JSON numbers, equal to what REST returns for the same objects.
 */
import { request, startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, sha256Hex } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';

let server: TestServer;
let alice: string;
let admin: string;

const CREATE_KEY = `
  mutation Create($description: String!, $expiresIn: Duration, $id: ID) {
    createApiKey(description: $description, expiresIn: $expiresIn, id: $id) {
      id description expiresAt ttl fingerprint token userId
      _service_info { author createdAt updatedAt updater }
    }
  }`;

const LIST_KEYS = `
  query { apiKeys(size: 100) { total hits { id key { id description expiresAt ttl fingerprint userId _service_info { createdAt } } } } }`;

const SEARCH_COUNTRIES = `query { search(type: "countries") { total hits { id } } }`;

let seq = 0;
const unique = (label: string) => `gql-${label}-${++seq}-${Date.now()}`;

async function createKey(variables: Record<string, unknown>, token = alice) {
  return expectGqlData(await gqlHttp(server, CREATE_KEY, { token, variables })).createApiKey;
}

beforeAll(async () => {
  server = await startTestServer();
  alice = await server.token({ sub: 'alice', tenantId: 'acme', roles: [] });
  admin = await server.token({ sub: 'root', tenantId: 'hq', roles: ['admin'] });
  const created = await request(server, 'POST', '/v4/entity/countries', { token: admin, body: { name: 'France', code: 'FR', allowTenantIds: ['*'] } });
  expect(created.status).toBe(200);
});

afterAll(() => server.stop());

describe('createApiKey over GraphQL (spec 4.2)', () => {
  it('defaults to ttl 3600000, with expiresAt = _service_info.createdAt + ttl', async () => {
    const description = unique('default');
    const before = Date.now();
    const key = await createKey({ description });
    const after = Date.now();
    expect(key.description).toBe(description);
    expect(key.userId).toBe('alice');
    expect(key.ttl).toBe(3_600_000);
    expect(key._service_info).toEqual({ author: 'alice', createdAt: expect.any(Number), updatedAt: null, updater: null });
    expect(key._service_info.createdAt).toBeGreaterThanOrEqual(before);
    expect(key._service_info.createdAt).toBeLessThanOrEqual(after);
    expect(key.expiresAt).toBe(key._service_info.createdAt + 3_600_000);
  });

  it('expiresIn "2h" gives ttl 7200000 and expiresAt = createdAt + 7200000', async () => {
    const key = await createKey({ description: unique('2h'), expiresIn: '2h' });
    expect(key.ttl).toBe(7_200_000);
    expect(key.expiresAt).toBe(key._service_info.createdAt + 7_200_000);
  });

  it('an integer expiresIn is milliseconds', async () => {
    const key = await createKey({ description: unique('int'), expiresIn: 90_000 });
    expect(key.ttl).toBe(90_000);
    expect(key.expiresAt).toBe(key._service_info.createdAt + 90_000);
  });

  it('fingerprint is the lowercase hex SHA-256 of the token, and the id given is kept', async () => {
    const id = unique('named');
    const key = await createKey({ description: unique('fp'), id });
    expect(key.id).toBe(id);
    expect(typeof key.token).toBe('string');
    expect(key.token.split('.')).toHaveLength(3);
    expect(key.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(key.fingerprint).toBe(sha256Hex(key.token));
  });

  it('the token works as a bearer token over REST and GraphQL, is never listed, and is refused once deleted', async () => {
    const key = await createKey({ description: unique('lifecycle') });

    // REST: a search succeeds with the key's token.
    const rest = await request(server, 'POST', '/v4/entity/countries/search', { token: key.token, body: {} });
    expect(expectOk({ httpStatus: rest.status, envelope: rest.body }).total).toBe(1);

    // GraphQL: the key is who the caller is, and a search succeeds.
    const me = expectGqlData(await gqlHttp(server, 'query { me { userId tenantId roles apiKeyId expiresAt } }', { token: key.token })).me;
    expect(me).toEqual({ userId: 'alice', tenantId: 'acme', roles: [], apiKeyId: key.id, expiresAt: key.expiresAt });
    expect(expectGqlData(await gqlHttp(server, SEARCH_COUNTRIES, { token: key.token })).search.total).toBe(1);

    // Listed by apiKeys, with the same fields, never with the token (with the user's token and the key's own).
    for (const token of [alice, key.token]) {
      const res = await gqlHttp(server, LIST_KEYS, { token });
      const listed = expectGqlData(res).apiKeys;
      const hit = listed.hits.find((h: any) => h.id === key.id);
      expect(hit).toBeDefined();
      expect(hit.key).toEqual({
        id: key.id,
        description: key.description,
        expiresAt: key.expiresAt,
        ttl: key.ttl,
        fingerprint: key.fingerprint,
        userId: 'alice',
        _service_info: { createdAt: key._service_info.createdAt },
      });
      expect(res.text).not.toContain(key.token);
    }
    // Nor over REST's key search.
    const restList = await request(server, 'POST', '/v4/api-keys/_search?size=100', { token: alice, body: {} });
    expect(restList.status).toBe(200);
    expect(restList.body.result.hits.map((h: any) => h._id)).toContain(key.id);
    expect(restList.text).not.toContain(key.token);

    // Deleted over GraphQL: refused at once, over both.
    expect(expectGqlData(await gqlHttp(server, 'mutation($id: ID!) { deleteApiKey(id: $id) }', { token: alice, variables: { id: key.id } }))).toEqual({
      deleteApiKey: key.id,
    });
    const refused = await request(server, 'POST', '/v4/entity/countries/search', { token: key.token, body: {} });
    expectError({ httpStatus: refused.status, envelope: refused.body }, 'security.token.invalid', 401);
    const gqlRefused = await gqlHttp(server, SEARCH_COUNTRIES, { token: key.token });
    expectGqlError(gqlRefused.body.errors, 'security.token.invalid', 401);
    expect(gqlRefused.body.data ?? null).toBeNull();

    // And no longer listed.
    const after = expectGqlData(await gqlHttp(server, LIST_KEYS, { token: alice })).apiKeys;
    expect(after.hits.map((h: any) => h.id)).not.toContain(key.id);
  });

  it('deleting a key that is not the caller\'s is services.storage.not_found', async () => {
    const bob = await server.token({ sub: 'bob', tenantId: 'acme', roles: [] });
    const key = await createKey({ description: unique('alices') });
    const res = await gqlHttp(server, 'mutation($id: ID!) { deleteApiKey(id: $id) }', { token: bob, variables: { id: key.id } });
    expectGqlError(res.body.errors, 'services.storage.not_found', 404);
    // Still working.
    expect(expectGqlData(await gqlHttp(server, SEARCH_COUNTRIES, { token: key.token })).search.total).toBe(1);
  });
});

describe('timestamps above 2^31 (GraphQL Long)', () => {
  const BIG = 2 ** 31;

  const isExactMillis = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > BIG && v > 1.5e12;

  it('a created key\'s createdAt and expiresAt are JSON numbers, equal to what REST returns for the same key', async () => {
    const res = await gqlHttp(server, CREATE_KEY, { token: alice, variables: { description: unique('long'), expiresIn: '30d' } });
    const key = expectGqlData(res).createApiKey;
    expect(isExactMillis(key._service_info.createdAt)).toBe(true);
    expect(isExactMillis(key.expiresAt)).toBe(true);
    expect(key.expiresAt).toBe(key._service_info.createdAt + 30 * 86_400_000);
    // Numbers in the JSON text, not strings.
    expect(res.text).toMatch(new RegExp(`"expiresAt":${key.expiresAt}[,}]`));
    expect(res.text).toMatch(new RegExp(`"createdAt":${key._service_info.createdAt}[,}]`));

    const rest = await request(server, 'POST', '/v4/api-keys/_search?size=100', { token: alice, body: {} });
    const hit = rest.body.result.hits.find((h: any) => h._id === key.id);
    expect(hit).toBeDefined();
    expect(hit._source.expiresAt).toBe(key.expiresAt);
    expect(hit._source._service_info.createdAt).toBe(key._service_info.createdAt);

    const listed = expectGqlData(await gqlHttp(server, LIST_KEYS, { token: alice })).apiKeys.hits.find((h: any) => h.id === key.id);
    expect(listed.key.expiresAt).toBe(hit._source.expiresAt);
    expect(listed.key._service_info.createdAt).toBe(hit._source._service_info.createdAt);
  });

  it('an entity\'s _service_info.createdAt and updatedAt equal REST\'s, over entity() and search()', async () => {
    const writer = await server.token({ sub: 'wendy', tenantId: 'acme', roles: ['writer'] });
    const id = unique('ts-entity');
    const created = await request(server, 'POST', `/v4/entity/countries?_id=${id}`, { token: writer, body: { name: 'Timestampia', code: 'TS' } });
    expect(created.status).toBe(200);
    const patched = await request(server, 'PATCH', `/v4/entity/countries/${id}`, { token: writer, body: { code: 'TT' } });
    expect(patched.status).toBe(200);
    const rest = await request(server, 'GET', `/v4/entity/countries/${id}`, { token: writer });
    const info = rest.body.result._source._service_info;
    expect(isExactMillis(info.createdAt)).toBe(true);
    expect(isExactMillis(info.updatedAt)).toBe(true);

    const res = await gqlHttp(
      server,
      `query($id: ID!) {
        entity(type: "countries", id: $id) { _service_info { author createdAt updatedAt updater } }
        search(type: "countries", query: {ids: {values: [$id]}}) { hits { entity { _service_info { createdAt updatedAt } } } }
      }`,
      { token: writer, variables: { id } },
    );
    const data = expectGqlData(res);
    expect(data.entity._service_info).toEqual(info);
    expect(data.search.hits).toHaveLength(1);
    expect(data.search.hits[0].entity._service_info).toEqual({ createdAt: info.createdAt, updatedAt: info.updatedAt });
    expect(res.text).toContain(`"createdAt":${info.createdAt}`);
    expect(res.text).toContain(`"updatedAt":${info.updatedAt}`);
  });

  it('an entity created over GraphQL reads back over REST with the same createdAt', async () => {
    const writer = await server.token({ sub: 'wendy', tenantId: 'acme', roles: ['writer'] });
    const id = unique('gql-created');
    const made = expectGqlData(
      await gqlHttp(server, `mutation($id: ID!) { createEntity(type: "country", id: $id, data: {name: "Graphqlia", code: "GQ"}) { id _service_info { createdAt } } }`, {
        token: writer,
        variables: { id },
      }),
    ).createEntity;
    expect(made.id).toBe(id);
    expect(isExactMillis(made._service_info.createdAt)).toBe(true);
    const rest = await request(server, 'GET', `/v4/entity/countries/${id}`, { token: writer });
    expect(rest.status).toBe(200);
    expect(rest.body.result._source._service_info.createdAt).toBe(made._service_info.createdAt);
  });
});
