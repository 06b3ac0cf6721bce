import type { CoreDeps } from '../deps';
import { caller } from '../server/testing/serverDeps';
import { makeRequest } from '../request';
import { createCollection, createCollectionOperation } from './createCollection';

describe("collection:create (Kuzzle's)", () => {
  const putMapping = jest.fn(async () => ({ dynamic: 'true', properties: {} }));
  const deps = { store: { entities: { putMapping } }, settings: { indexName: 'entity' } } as unknown as CoreDeps;
  const parse = (body: unknown) => createCollectionOperation.parse(makeRequest({ controller: 'collection', action: 'create', requestId: 'r', collection: 'products', body }), deps);

  it('reads {mappings}, the mapping itself (Kuzzle 1) or nothing', () => {
    const mapping = (body: unknown) => {
      const r = parse(body);
      return r.ok ? r.value.mapping : r.error.id;
    };
    expect(mapping({ mappings: { dynamic: 'strict', properties: { code: { type: 'keyword' } } } })).toEqual({ dynamic: 'strict', properties: { code: { type: 'keyword' } } });
    expect(mapping({ properties: { code: { type: 'keyword' } } })).toEqual({ properties: { code: { type: 'keyword' } } });
    expect(mapping(undefined)).toEqual({ properties: {} });
    expect(mapping({ settings: {} })).toBe('api.assert.invalid_argument');
    expect(mapping({ mappings: {}, other: 1 })).toBe('services.storage.invalid_mapping');
    expect(mapping({ mappings: { properties: { a: { type: 'nope' } } } })).toBe('services.storage.invalid_mapping');
  });

  it('answers {acknowledged: true} to an admin; 403 to a writer, without asking the store', async () => {
    expect(await createCollection(deps, caller({ roles: ['admin'] }), { type: { collection: 'products' } as never, mapping: { properties: {} } })).toEqual({ ok: true, value: { acknowledged: true } });
    putMapping.mockClear();
    const refused = await createCollection(deps, caller({ roles: ['writer'] }), { type: { collection: 'products' } as never, mapping: { properties: {} } });
    expect(refused.ok ? null : refused.error.status).toBe(403);
    expect(putMapping).not.toHaveBeenCalled();
  });
});
