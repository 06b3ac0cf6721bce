/** document:mCreate with a JSON body on a real embedded store: items created, items refused alone, and who may call it. */
import type { Principal } from '../principal';
import { SOURCE_TEXT } from '../../store/port';
import { mCreateEntities, parseBulkItems } from './mCreateEntities';
import { admin, bulkFixture, towns as type } from './testing/bulkFixture';

const writer: Principal = { ...admin, userId: 'wes', slug: 'wes', tenantId: 'acme', roles: ['writer'] };

describe('mCreateEntities', () => {
  const fixture = bulkFixture('mcreate-');

  const run = (body: unknown, principal = admin) => {
    const items = parseBulkItems(body);
    if (!items.ok) throw items.error;
    return mCreateEntities(fixture.deps, principal, { type, documents: items.value });
  };

  it('creates every valid item, each told to the feed; a taken derived slug moves to the next free one', async () => {
    const r = await run([{ _id: 'lyon', name: 'Lyon', allowTenantIds: ['*'] }, { name: 'Lyon', allowTenantIds: ['*'] }]);
    expect(r.ok && r.value.successes.map((s) => [s._id, s._source.slug, s.status])).toEqual([
      ['lyon', 'lyon', 201],
      ['id1', 'lyon-2', 201],
    ]);
    expect(fixture.changes.map((c) => [c.action, c._id])).toEqual([
      ['create', 'lyon'],
      ['create', 'id1'],
    ]);
  });

  it("answers each created entity's _source as the text stored, the slug it was written with in it (a taken derived slug, 250 items: the commit thread's pieces)", async () => {
    await run([{ _id: 'paris', name: 'Paris', allowTenantIds: ['*'] }]);
    const body = [{ _id: 'paris-again', name: 'Paris', allowTenantIds: ['*'] }, ...Array.from({ length: 249 }, (_, i) => ({ _id: `v${i}`, name: `Village ${i}` }))];
    const r = await run(body);
    if (!r.ok) throw r.error;
    expect(r.value.successes).toHaveLength(250);
    expect(r.value.successes[0]._source.slug).toBe('paris-2');
    for (const success of r.value.successes) {
      const text = (success as unknown as Record<symbol, string>)[SOURCE_TEXT];
      expect(text).toBe(JSON.stringify(success._source));
      expect(JSON.parse(text)).toEqual(await fixture.store.entities.get('towns', success._id));
    }
  });

  it('refuses a bad item alone, with its reason, and creates the others', async () => {
    const r = await run({ documents: [{ _id: 'lyon', body: { name: 'Again' } }, { body: 'not an entity' }, { _id: 'nice', body: { name: 'Nice' } }] });
    expect(r.ok && r.value.successes.map((s) => s._id)).toEqual(['nice']);
    expect(r.ok && r.value.errors.map((e) => [e.document._id, e.status, e.reason.id])).toEqual([
      [undefined, 400, 'api.assert.invalid_type'],
      ['lyon', 409, 'services.storage.document_already_exists'],
    ]);
  });

  it('refuses a caller without the writer role whole, and a writer sharing beyond its tenant per item', async () => {
    for (const roles of [[], ['reader']]) {
      const r = await run([{ name: 'Reader Town' }], { ...writer, roles });
      expect(!r.ok && [r.error.status, r.error.id]).toEqual([403, 'security.rights.forbidden']);
    }
    expect(await fixture.store.entities.get('towns', 'reader-town')).toBeNull();
    const r = await run([{ _id: 'own', name: 'Own' }, { _id: 'shared', name: 'Shared', allowTenantIds: ['*'] }], writer);
    expect(r.ok && r.value.successes.map((s) => s._id)).toEqual(['own']);
    expect(r.ok && r.value.errors.map((e) => [(e.document.body as { _id: string })._id, e.status, e.reason.id])).toEqual([['shared', 403, 'security.rights.forbidden']]);
  });
});
