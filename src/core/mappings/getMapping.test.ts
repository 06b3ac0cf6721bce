import type { CoreDeps } from '../deps';
import { caller } from '../server/testing/serverDeps';
import { makeRequest } from '../request';
import { getMapping, getMappingOperation } from './getMapping';

describe('collection:getMapping', () => {
  const getMappingOf = jest.fn(async () => ({ dynamic: 'strict', properties: { code: { type: 'keyword' } } }));
  const deps = { store: { entities: { getMapping: getMappingOf } }, settings: { indexName: 'entity' } } as unknown as CoreDeps;

  it('any authenticated caller reads the declared mapping, with _meta', async () => {
    expect(getMappingOperation.allows).toBeUndefined();
    const done = await getMapping(deps, caller({ roles: [] }), { type: { collection: 'products' } as never });
    expect(done).toEqual({ ok: true, value: { dynamic: 'strict', _meta: {}, properties: { code: { type: 'keyword' } } } });
    expect(getMappingOf).toHaveBeenCalledWith('products');
  });

  it('parse: a malformed collection or another index is refused', () => {
    const parse = (fields: object) => getMappingOperation.parse(makeRequest({ controller: 'collection', action: 'getMapping', requestId: 'r', ...fields }), deps);
    const id = (r: ReturnType<typeof parse>) => (r.ok ? null : r.error.id);
    expect(id(parse({ collection: 'Products' }))).toBe('api.assert.invalid_argument');
    expect(id(parse({ collection: 'products', index: 'other' }))).toBe('services.storage.not_found');
    expect(id(parse({ collection: 'products' }))).toBeNull();
  });
});
