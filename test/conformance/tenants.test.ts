/**
 * Conformance, DESIGN.md "Permissions and tenants": visibility is a filter inside the store query
 * (totals and pages stay right), an entity of another tenant does not exist for the caller, "*"
 * shares with everyone, and writers keep to their own tenant.
 */
import type { TestServer } from '../support/testServer';
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { describeEachStore } from './support/targets';

describeEachStore('tenants', (target) => {
  const gw = gatewayOn(target);
  let server: TestServer;
  const as: Record<'writerA' | 'writerB' | 'readerC' | 'noTenant' | 'admin', Caller> = {} as never;
  const type = uniqueCollection();
  const at = (suffix = '') => `/v4/entity/${type.collection}${suffix}`;

  beforeAll(async () => {
    server = gw.server();
    const make = async (sub: string, tenantId: string | undefined, roles: string[]) => ({ server, token: await server.token({ sub, ...(tenantId ? { tenantId } : {}), roles }) });
    as.writerA = await make('anna', 'tenant-a', ['writer']);
    as.writerB = await make('bob', 'tenant-b', ['writer']);
    as.readerC = await make('carl', 'tenant-c', []);
    as.noTenant = await make('nemo', undefined, []);
    as.admin = await make('root', 'hq', ['admin']);
    // 12 entities of tenant A, 3 of tenant B, 5 shared with everyone: all about "islands"
    for (let i = 0; i < 12; i++) await ok(as.writerA, 'POST', at(`?_id=a${i}`), { name: `Island A${i}` });
    for (let i = 0; i < 3; i++) await ok(as.writerB, 'POST', at(`?_id=b${i}`), { name: `Island B${i}` });
    await ok(as.admin, 'POST', at('/_bulk'), [0, 1, 2, 3, 4].map((i) => ({ _id: `s${i}`, name: `Island S${i}`, allowTenantIds: ['*'] })));
  });

  const visible = async (c: Caller, query?: unknown) => {
    const ids: string[] = [];
    let total = -1;
    for (let from = 0; ; from += 5) {
      const page = await ok(c, 'POST', at(`/search?from=${from}&size=5`), query ? { query } : {});
      total = page.total;
      ids.push(...page.hits.map((h: any) => h._id));
      if (page.hits.length < 5) break;
    }
    expect(ids.length).toBe(total);
    return ids.sort();
  };

  it('each tenant sees its own entities and the shared ones, with exact totals page after page', async () => {
    const shared = ['s0', 's1', 's2', 's3', 's4'];
    expect(await visible(as.writerA)).toEqual([...Array.from({ length: 12 }, (_, i) => `a${i}`), ...shared].sort());
    expect(await visible(as.writerB)).toEqual(['b0', 'b1', 'b2', ...shared].sort());
    expect(await visible(as.readerC)).toEqual(shared);
    expect(await visible(as.noTenant)).toEqual(shared);
    expect((await visible(as.admin)).length).toBe(20);
    expect(await visible(as.readerC, { match: { name: 'island' } })).toEqual(shared);
    expect(await ok(as.writerB, 'POST', at('/count'), { query: { match: { name: 'island' } } })).toEqual({ count: 8 });
  });

  it("another tenant's entity does not exist: 404 on get, update and delete, and it stays", async () => {
    await failsWith(as.writerB, 'GET', at('/a0'), undefined, 'services.storage.not_found', 404);
    await failsWith(as.writerB, 'PATCH', at('/a0'), { name: 'Taken over' }, 'services.storage.not_found', 404);
    await failsWith(as.writerB, 'DELETE', at('/a0'), undefined, 'services.storage.not_found', 404);
    await failsWith(as.readerC, 'GET', at('/b1'), undefined, 'services.storage.not_found', 404);
    expect((await ok(as.writerA, 'GET', at('/a0')))._source.name).toBe('Island A0');
    expect((await ok(as.readerC, 'GET', at('/s0')))._source.allowTenantIds).toEqual(['*']);
  });

  it('writers write for their own tenant only; shared entities are the admin\'s to change', async () => {
    await failsWith(as.writerA, 'POST', at('?_id=x'), { name: 'X', allowTenantIds: ['tenant-b'] }, 'security.rights.forbidden', 403);
    await failsWith(as.writerA, 'PATCH', at('/s0'), { name: 'Mine now' }, 'security.rights.forbidden', 403);
    await failsWith(as.readerC, 'POST', at('?_id=y'), { name: 'Y' }, 'security.rights.forbidden', 403);
    expect((await ok(as.admin, 'PATCH', at('/s0'), { name: 'Island S0 bis' }))._source.name).toBe('Island S0 bis');
  });
});
