/**
 * Conformance, DESIGN.md "Entities": create, get, replace, update, delete, bulk create with per-item
 * outcomes, server-managed fields, unique slugs per type, and writes searchable once acknowledged.
 */
import { ISO_UTC_PATTERN } from '../support/e2e';
import type { TestServer } from '../support/testServer';
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { describeEachStore } from './support/targets';

describeEachStore('entities', (target) => {
  const gw = gatewayOn(target);
  let server: TestServer;
  let writer: Caller;

  beforeAll(async () => {
    server = gw.server();
    writer = { server, token: await server.token({ sub: 'wendy', tenantId: 'acme', roles: ['writer'], slug: 'wendy-w', shortName: 'Wendy' }) };
  });

  const at = (type: { collection: string }, suffix = '') => `/v4/entity/${type.collection}${suffix}`;

  it('create, get, replace, update, delete, with the managed fields', async () => {
    const type = uniqueCollection();
    const created = await ok(writer, 'POST', at(type, '?_id=fr'), { name: 'France', code: 'FR', capital: 'Paris', id: 'forged', entityType: 'forged' });
    expect(created._id).toBe('fr');
    expect(created._source).toEqual({
      _service_info: { author: 'wendy', createdAt: expect.any(Number), updatedAt: null, updater: null },
      entityType: type.entityType,
      id: 'fr',
      modified: expect.stringMatching(ISO_UTC_PATTERN),
      modifier: { entityType: 'user', id: 'wendy', slug: 'wendy-w', shortName: 'Wendy' },
      slug: 'france',
      allowTenantIds: ['acme'],
      name: 'France',
      code: 'FR',
      capital: 'Paris',
    });
    expect(await ok(writer, 'GET', at(type, '/fr'))).toEqual(created);

    const replaced = await ok(writer, 'PUT', at(type, '/fr'), { name: 'French Republic', code: 'FR' });
    expect(replaced._source).not.toHaveProperty('capital');
    expect(replaced._source.slug).toBe('france'); // kept when not given
    expect(replaced._source._service_info).toEqual({ author: 'wendy', createdAt: created._source._service_info.createdAt, updatedAt: expect.any(Number), updater: 'wendy' });

    const updated = await ok(writer, 'PATCH', at(type, '/fr'), { capital: 'Paris', languages: { official: 'fr' } });
    expect(updated._source).toEqual(expect.objectContaining({ name: 'French Republic', capital: 'Paris', languages: { official: 'fr' } }));
    expect(await ok(writer, 'GET', at(type, '/fr'))).toEqual(updated);

    expect(await ok(writer, 'DELETE', at(type, '/fr'))).toEqual({ _id: 'fr' });
    await failsWith(writer, 'GET', at(type, '/fr'), undefined, 'services.storage.not_found', 404);
    await failsWith(writer, 'DELETE', at(type, '/fr'), undefined, 'services.storage.not_found', 404);
    await failsWith(writer, 'PUT', at(type, '/fr'), { name: 'x' }, 'services.storage.not_found', 404);
  });

  it('a write is searchable as soon as it is acknowledged', async () => {
    const type = uniqueCollection();
    const search = async () => (await ok(writer, 'POST', at(type, '/search'), { query: { match: { name: 'atlantis' } } })).hits.map((h: any) => h._source.name);
    await ok(writer, 'POST', at(type, '?_id=a'), { name: 'Atlantis' });
    expect(await search()).toEqual(['Atlantis']);
    await ok(writer, 'PUT', at(type, '/a'), { name: 'Atlantis Nova' });
    expect(await search()).toEqual(['Atlantis Nova']);
    await ok(writer, 'DELETE', at(type, '/a'));
    expect(await search()).toEqual([]);
    expect(await ok(writer, 'POST', at(type, '/count'), {})).toEqual({ count: 0 });
  });

  it('a taken id is 409', async () => {
    const type = uniqueCollection();
    await ok(writer, 'POST', at(type, '?_id=x'), { name: 'One' });
    await failsWith(writer, 'POST', at(type, '?_id=x'), { name: 'Two' }, 'services.storage.document_already_exists', 409);
    expect((await ok(writer, 'GET', at(type, '/x')))._source.name).toBe('One');
  });

  it('slugs are unique per type: a derived one takes the next free form, a chosen one is a 409 on create and replace; freed by a rename or a delete', async () => {
    const type = uniqueCollection();
    const other = uniqueCollection('regions');
    await ok(writer, 'POST', at(type, '?_id=a'), { name: 'Same Name' });
    expect((await ok(writer, 'POST', at(type, '?_id=a2'), { name: 'Same Name' }))._source.slug).toBe('same-name-2');
    expect((await ok(writer, 'POST', at(type, '?_id=a3'), { name: 'Same  name!' }))._source.slug).toBe('same-name-3');
    const clash = await failsWith(writer, 'POST', at(type, '?_id=b'), { name: 'Other', slug: 'same-name' }, 'services.storage.document_already_exists', 409);
    expect(clash.message).toContain('same-name');
    await ok(writer, 'DELETE', at(type, '/a2'));
    await ok(writer, 'DELETE', at(type, '/a3'));
    await ok(writer, 'POST', at(other, '?_id=a'), { name: 'Same Name' }); // another type: fine

    await ok(writer, 'POST', at(type, '?_id=b'), { name: 'Bee' });
    await failsWith(writer, 'PUT', at(type, '/b'), { name: 'Bee', slug: 'same-name' }, 'services.storage.document_already_exists', 409);
    await failsWith(writer, 'PATCH', at(type, '/b'), { slug: 'same-name' }, 'services.storage.document_already_exists', 409);
    expect((await ok(writer, 'GET', at(type, '/b')))._source.slug).toBe('bee');

    await ok(writer, 'PATCH', at(type, '/a'), { slug: 'renamed' });
    expect((await ok(writer, 'PATCH', at(type, '/b'), { slug: 'same-name' }))._source.slug).toBe('same-name');
    await ok(writer, 'DELETE', at(type, '/b'));
    expect((await ok(writer, 'POST', at(type, '?_id=c'), { name: 'Same Name' }))._source.slug).toBe('same-name');
    // a type's entities keep their slugs apart, and no two share one
    const all = await ok(writer, 'POST', at(type, '/search?size=100'), {});
    const slugs = all.hits.map((h: any) => h._source.slug).sort();
    expect(slugs).toEqual(['renamed', 'same-name']);
  });

  it('bulk create: per-item outcomes, in order, one bad item sinking nothing', async () => {
    const type = uniqueCollection();
    await ok(writer, 'POST', at(type, '?_id=old'), { name: 'Old' });
    const result = await ok(writer, 'POST', at(type, '/_bulk'), {
      documents: [
        { _id: 'a', body: { name: 'Alpha' } },
        { _id: 'b', body: { name: 'Alpha' } }, // slug of the first
        { _id: 'a', body: { name: 'Other' } }, // id of the first
        { _id: 'old', body: { name: 'Fresh' } }, // id taken before
        { _id: 'c', body: { name: 'Old' } }, // slug taken before
        { _id: 'd', body: 'not an object' },
        { _id: 'e', body: { name: 'Echo' } },
      ],
    });
    // derived slugs taken (in the batch, or before) take the next free form; ids never do
    expect(result.successes.map((s: any) => [s._id, s._source.slug, s.status])).toEqual([
      ['a', 'alpha', 201],
      ['b', 'alpha-2', 201],
      ['c', 'old-2', 201],
      ['e', 'echo', 201],
    ]);
    expect(result.errors.map((e: any) => [e.document._id, e.status, e.reason.id])).toEqual([
      ['d', 400, 'api.assert.invalid_type'],
      ['a', 409, 'services.storage.document_already_exists'],
      ['old', 409, 'services.storage.document_already_exists'],
    ]);
    const chosen = await ok(writer, 'POST', at(type, '/_bulk'), [{ _id: 'f', name: 'Foxtrot', slug: 'alpha' }]);
    expect(chosen.errors.map((e: any) => [e.document.body._id ?? 'f', e.status])).toEqual([['f', 409]]);
    const listed = await ok(writer, 'POST', at(type, '/search?size=100'), { sort: [{ id: 'asc' }] });
    expect(listed.hits.map((h: any) => h._id)).toEqual(['a', 'b', 'c', 'e', 'old']);
    expect(listed.total).toBe(5);
  });

  it('keeps values of any JSON type, nested objects and arrays', async () => {
    const type = uniqueCollection();
    const body = { name: 'Typed', population: 67_000_000, area: 551695.5, eu: true, founded: '1958-10-04', tags: ['a', 'b'], capital: { name: 'Paris', geo: { lat: 48.85 } } };
    const created = await ok(writer, 'POST', at(type, '?_id=t'), body);
    expect(created._source).toEqual(expect.objectContaining(body));
    expect((await ok(writer, 'GET', at(type, '/t')))._source).toEqual(created._source);
    const found = await ok(writer, 'POST', at(type, '/search'), { query: { bool: { filter: [{ range: { population: { gte: 1_000_000 } } }, { term: { eu: true } }, { match: { 'capital.name': 'paris' } }] } } });
    expect(found.hits.map((h: any) => h._id)).toEqual(['t']);
  });
});
