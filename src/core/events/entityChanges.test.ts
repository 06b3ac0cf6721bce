/** subscribeEntityChanges with Koncorde filters: what a subscriber is told, and never told. */
import { Authenticator } from '../auth/authenticate';
import type { CoreDeps } from '../deps';
import { ANONYMOUS, type Principal } from '../principal';
import type { Doc } from '../../store/port';
import { ChangeFeed } from './changeFeed';
import { subscribeEntityChanges, type ChangeScope, type EntityChangesSpec } from './entityChanges';
import { koncordeFiltersOf } from './koncordeFilters';

const countries = { entityType: 'country', collection: 'countries' } as EntityChangesSpec['type'];

function setup() {
  const feed = new ChangeFeed();
  const authenticator = new Authenticator({} as never, {} as never, { tenantClaim: 'tenantId', keyCacheMs: 1000 });
  const store = { entities: { matcher: () => () => true } };
  const deps = { feed, authenticator, store, settings: { apiKeyCacheMs: 1000 }, now: () => 0 } as unknown as CoreDeps;
  return { deps, feed };
}

const reader = (tenantId: string | null, roles: string[] = []): Principal => ({ ...ANONYMOUS, userId: `u-${tenantId}`, tenantId, roles });

function listen(deps: CoreDeps, principal: Principal, filters: Record<string, unknown>, scope: EntityChangesSpec['scope'] = 'all') {
  const told: string[] = [];
  const opened = subscribeEntityChanges(deps, principal, null, { type: countries, filters, scope }, {
    onChange: (change, s: ChangeScope, source) => told.push(`${change.action} ${change._id} ${s} ${String(source.code)}`),
    onRevoked: () => told.push('revoked'),
  });
  return { opened, told };
}

const doc = (code: string, tenants: string[]): Doc => ({ code, allowTenantIds: tenants });

describe('subscribeEntityChanges with Koncorde filters', () => {
  it('tells in and out as the filter matches before and after each write', () => {
    const { deps, feed } = setup();
    const { told } = listen(deps, reader('acme'), { equals: { code: 'FR' } });
    feed.publish({ action: 'create', collection: 'countries', _id: 'a', _source: doc('FR', ['acme']) });
    feed.publish({ action: 'create', collection: 'countries', _id: 'b', _source: doc('DE', ['acme']) });
    feed.publish({ action: 'update', collection: 'countries', _id: 'a', _source: doc('IT', ['acme']), previous: doc('FR', ['acme']) });
    feed.publish({ action: 'update', collection: 'countries', _id: 'b', _source: doc('FR', ['acme']), previous: doc('DE', ['acme']) });
    feed.publish({ action: 'delete', collection: 'countries', _id: 'b', _source: doc('FR', ['acme']) });
    feed.publish({ action: 'create', collection: 'regions', _id: 'r', _source: doc('FR', ['acme']) });
    expect(told).toEqual(['create a in FR', 'update a out IT', 'update b in FR', 'delete b out FR']);
  });

  it("never makes another tenant's entity visible, whatever the filter names (allowTenantIds included)", () => {
    const { deps, feed } = setup();
    const filters = [{}, { equals: { code: 'FR' } }, { in: { allowTenantIds: ['globex'] } }, { exists: 'allowTenantIds["globex"]' }, { not: { equals: { code: 'x' } } }];
    const subscriptions = filters.map((f) => listen(deps, reader('acme'), f));
    feed.publish({ action: 'create', collection: 'countries', _id: 'g', _source: doc('FR', ['globex']) });
    // shared with acme, then taken away: told out (as it was), then nothing
    feed.publish({ action: 'create', collection: 'countries', _id: 's', _source: doc('FR', ['globex', 'acme']) });
    feed.publish({ action: 'update', collection: 'countries', _id: 's', _source: { ...doc('FR', ['globex']), secret: 1 }, previous: doc('FR', ['globex', 'acme']) });
    feed.publish({ action: 'update', collection: 'countries', _id: 's', _source: doc('FR', ['globex']), previous: doc('FR', ['globex']) });
    const [all, fr, inList, exists, not] = subscriptions.map((x) => x.told);
    for (const told of [all, fr, exists, not]) expect(told).toEqual(['create s in FR', 'update s out FR']);
    // (Koncorde's in compares a scalar field: an array never equals its values)
    expect(inList).toEqual([]);
    // the out shows the entity as it was, never the fields added out of sight
    const { deps: d2, feed: f2 } = setup();
    const shown: Doc[] = [];
    subscribeEntityChanges(d2, reader('acme'), null, { type: countries, filters: { equals: { code: 'FR' } } }, { onChange: (_c, _s, source) => shown.push(source), onRevoked: () => {} });
    f2.publish({ action: 'update', collection: 'countries', _id: 's', _source: { ...doc('FR', ['globex']), secret: 1 }, previous: doc('FR', ['globex', 'acme']) });
    expect(shown).toEqual([doc('FR', ['globex', 'acme'])]);
  });

  it('a caller without a tenant sees only what is shared with "*"; an admin sees every tenant', () => {
    const { deps, feed } = setup();
    const none = listen(deps, reader(null), { exists: 'code' });
    const admin = listen(deps, reader('hq', ['admin']), { exists: 'code' });
    feed.publish({ action: 'create', collection: 'countries', _id: 'p', _source: doc('FR', ['acme']) });
    feed.publish({ action: 'create', collection: 'countries', _id: 'q', _source: doc('DE', ['*']) });
    expect(none.told).toEqual(['create q in DE']);
    expect(admin.told).toEqual(['create p in FR', 'create q in DE']);
  });

  it('keeps only one scope when asked', () => {
    const { deps, feed } = setup();
    const onlyOut = listen(deps, reader('acme'), { equals: { code: 'FR' } }, 'out');
    feed.publish({ action: 'create', collection: 'countries', _id: 'a', _source: doc('FR', ['acme']) });
    feed.publish({ action: 'delete', collection: 'countries', _id: 'a', _source: doc('FR', ['acme']) });
    expect(onlyOut.told).toEqual(['delete a out FR']);
  });

  it('refuses a filter Koncorde refuses, storing nothing; closing releases the filter', () => {
    const { deps } = setup();
    const bad = listen(deps, reader('acme'), { term: { code: 'FR' } });
    expect(bad.opened).toMatchObject({ ok: false, error: { id: 'api.assert.koncorde_dsl_error', props: { keyword: 'term' } } });
    const good = listen(deps, reader('acme'), { equals: { code: 'FR' } });
    expect(koncordeFiltersOf(deps.feed).size).toBe(1);
    if (good.opened.ok) good.opened.value();
    expect(koncordeFiltersOf(deps.feed).size).toBe(0);
    expect((deps.feed as ChangeFeed).size).toBe(0);
  });
});
