/**
 * Tenant isolation (DESIGN.md "Permissions and tenants"), over REST and raw WebSocket: an entity of
 * tenant A does not exist for tenant B (search, count, get, update, delete: 404, never 403), and an
 * entity shared with "*" is visible to every tenant.
 */
import { startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, openTransport, TRANSPORTS, type Answer, type Call, type Transport } from '../support/e2e';

let server: TestServer;
const tokens: Record<'writerA' | 'writerB' | 'readerC' | 'admin', string> = { writerA: '', writerB: '', readerC: '', admin: '' };

beforeAll(async () => {
  server = await startTestServer();
  tokens.writerA = await server.token({ sub: 'anna', tenantId: 'tenant-a', roles: ['writer'] });
  tokens.writerB = await server.token({ sub: 'bob', tenantId: 'tenant-b', roles: ['writer'] });
  tokens.readerC = await server.token({ sub: 'carl', tenantId: 'tenant-c', roles: [] });
  tokens.admin = await server.token({ sub: 'root', tenantId: 'hq', roles: ['admin'] });
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('tenant isolation over %s', (name) => {
  let t: Transport;
  const privateId = `${name.toLowerCase()}-tenant-a-only`;
  const sharedId = `${name.toLowerCase()}-shared`;
  const privateName = `${name} Atlantis`;

  const doc = (action: string, token: string, extra: Partial<Call> = {}): Promise<Answer> =>
    t.call({ controller: 'document', action, collection: 'countries', token, ...extra });
  const byId = (id: string) => ({ query: { term: { id } } });

  beforeAll(async () => {
    t = await openTransport(name, server);
    const mine = expectOk(await doc('create', tokens.writerA, { _id: privateId, body: { name: privateName, code: 'AT' } }));
    // A writer's entity belongs to its own tenant by default.
    expect(mine._source.allowTenantIds).toEqual(['tenant-a']);
    const shared = expectOk(
      await doc('create', tokens.admin, { _id: sharedId, body: { name: `${name} Everyland`, code: 'EV', allowTenantIds: ['*'] } }),
    );
    expect(shared._source.allowTenantIds).toEqual(['*']);
  });
  afterAll(() => t.close());

  it('tenant A sees its own entity (search, count, get)', async () => {
    const found = expectOk(await doc('search', tokens.writerA, { body: byId(privateId) }));
    expect(found.total).toBe(1);
    expect(found.hits.map((h: any) => h._id)).toEqual([privateId]);
    expect(expectOk(await doc('count', tokens.writerA, { body: byId(privateId) }))).toEqual({ count: 1 });
    expect(expectOk(await doc('get', tokens.writerA, { _id: privateId }))._source.name).toBe(privateName);
  });

  it('tenant B does not find it in search, and totals leave it out', async () => {
    const targeted = expectOk(await doc('search', tokens.writerB, { body: byId(privateId) }));
    expect(targeted).toEqual(expect.objectContaining({ hits: [], total: 0 }));

    const byName = expectOk(await doc('search', tokens.writerB, { body: { query: { match: { name: privateName } } } }));
    expect(byName.hits.map((h: any) => h._id)).not.toContain(privateId);

    const all = expectOk(await doc('search', tokens.writerB, { body: {}, args: { size: 1000 } }));
    expect(all.hits.map((h: any) => h._id)).not.toContain(privateId);
    expect(all.total).toBe(all.hits.length);
    const counted = expectOk(await doc('count', tokens.writerB, { body: {} }));
    expect(counted.count).toBe(all.total);
  });

  it('tenant B counts 0 for it', async () => {
    expect(expectOk(await doc('count', tokens.writerB, { body: byId(privateId) }))).toEqual({ count: 0 });
  });

  it('tenant B gets 404 services.storage.not_found on get', async () => {
    expectError(await doc('get', tokens.writerB, { _id: privateId }), 'services.storage.not_found', 404);
  });

  it('tenant B gets 404 services.storage.not_found on update, and nothing changes', async () => {
    expectError(await doc('update', tokens.writerB, { _id: privateId, body: { name: 'Taken Over' } }), 'services.storage.not_found', 404);
    const after = expectOk(await doc('get', tokens.writerA, { _id: privateId }));
    expect(after._source.name).toBe(privateName);
    expect(after._source.allowTenantIds).toEqual(['tenant-a']);
  });

  it('tenant B gets 404 services.storage.not_found on delete, and the entity stays', async () => {
    expectError(await doc('delete', tokens.writerB, { _id: privateId }), 'services.storage.not_found', 404);
    expectOk(await doc('get', tokens.writerA, { _id: privateId }));
  });

  it('an entity shared with "*" is visible to every tenant (search, count, get)', async () => {
    for (const token of [tokens.writerA, tokens.writerB, tokens.readerC]) {
      const found = expectOk(await doc('search', token, { body: byId(sharedId) }));
      expect(found.hits.map((h: any) => h._id)).toEqual([sharedId]);
      expect(found.total).toBe(1);
      expect(expectOk(await doc('count', token, { body: byId(sharedId) }))).toEqual({ count: 1 });
      expect(expectOk(await doc('get', token, { _id: sharedId }))._source.allowTenantIds).toEqual(['*']);
    }
  });
});
