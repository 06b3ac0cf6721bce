/**
 * Durability (DESIGN.md "Embedded engine: Persistence"): every acknowledged write (entity creates,
 * an update, a delete, an API key) is found again by a new server started on the same data
 * directory.
 */
import { rmSync } from 'node:fs';
import { request, startTestServer, type TestServer } from '../support/testServer';
import { COUNTRIES, expectError, expectOk } from '../support/e2e';

const ok = (res: { status: number; body: any }) => expectOk({ httpStatus: res.status, envelope: res.body });

let first: TestServer;
let second: TestServer | undefined;
let admin: string;
/** The last acknowledged state of every entity that should exist, by _id. */
const expected = new Map<string, any>();
const deletedId = 'restart-deleted';
const patchedId = 'restart-patched';
let apiKey: { _id: string; token: string; fingerprint: string };

beforeAll(async () => {
  first = await startTestServer();
  admin = await first.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });

  const bulk = ok(
    await request(first, 'POST', '/v4/entity/countries/_bulk', {
      token: admin,
      body: COUNTRIES.slice(0, 12).map((c) => ({ ...c, allowTenantIds: ['*'] })),
    }),
  );
  expect(bulk.errors).toEqual([]);
  for (const s of bulk.successes) expected.set(s._id, s._source);

  for (const [id, country] of [
    [patchedId, { name: 'Iceland', code: 'IS' }],
    [deletedId, { name: 'Atlantis', code: 'AX' }],
  ] as const) {
    const created = ok(await request(first, 'POST', `/v4/entity/countries?_id=${id}`, { token: admin, body: { ...country, allowTenantIds: ['*'] } }));
    expected.set(id, created._source);
  }
  const patched = ok(await request(first, 'PATCH', `/v4/entity/countries/${patchedId}`, { token: admin, body: { capital: 'Reykjavik' } }));
  expected.set(patchedId, patched._source);
  ok(await request(first, 'DELETE', `/v4/entity/countries/${deletedId}`, { token: admin }));
  expected.delete(deletedId);

  const key = ok(await request(first, 'POST', '/v4/api-keys/_create', { token: admin, body: { description: 'survives restarts' } }));
  apiKey = { _id: key._id, token: key._source.token, fingerprint: key._source.fingerprint };

  await first.stop({ keepData: true });
  second = await startTestServer({ dataDir: first.dataDir });
});

afterAll(async () => {
  await second?.stop();
  rmSync(first.dataDir, { recursive: true, force: true });
});

describe('after a restart on the same data directory', () => {
  it('search finds every acknowledged entity, with the exact total', async () => {
    const result = ok(await request(second!, 'POST', '/v4/entity/countries/search?size=100', { token: admin, body: {} }));
    expect(result.total).toBe(expected.size);
    expect(result.total).toBe(13);
    expect(result.hits.map((h: any) => h._id).sort()).toEqual([...expected.keys()].sort());
    for (const hit of result.hits) expect(hit._source).toEqual(expected.get(hit._id));
  });

  it('get returns each entity as last acknowledged, the update included', async () => {
    for (const [id, source] of expected) {
      const got = ok(await request(second!, 'GET', `/v4/entity/countries/${id}`, { token: admin }));
      expect(got._source).toEqual(source);
    }
    const patched = ok(await request(second!, 'GET', `/v4/entity/countries/${patchedId}`, { token: admin }));
    expect(patched._source).toEqual(expect.objectContaining({ name: 'Iceland', capital: 'Reykjavik' }));
  });

  it('a deleted entity stays deleted', async () => {
    const res = await request(second!, 'GET', `/v4/entity/countries/${deletedId}`, { token: admin });
    expectError({ httpStatus: res.status, envelope: res.body }, 'services.storage.not_found', 404);
  });

  it('the API key token still works, and the key is still listed', async () => {
    const searched = ok(await request(second!, 'POST', '/v4/entity/countries/search', { token: apiKey.token, body: {} }));
    expect(searched.total).toBe(expected.size);
    const keys = ok(await request(second!, 'POST', '/v4/api-keys/_search', { token: admin, body: {} }));
    const listed = keys.hits.find((h: any) => h._id === apiKey._id);
    expect(listed?._source).toEqual(expect.objectContaining({ description: 'survives restarts', fingerprint: apiKey.fingerprint }));
  });
});
