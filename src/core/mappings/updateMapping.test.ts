import type { CoreDeps } from '../deps';
import { caller } from '../server/testing/serverDeps';
import { makeRequest } from '../request';
import { MappingError } from '../../store/mapping/mappingError';
import { updateMapping, updateMappingOperation } from './updateMapping';

const type = { collection: 'products', entityType: 'product' } as never;
function deps(putMapping: jest.Mock = jest.fn(async (_c: string, m: { properties: object }) => ({ dynamic: 'true', properties: m.properties }))) {
  return { deps: { store: { entities: { putMapping } }, settings: { indexName: 'entity' } } as unknown as CoreDeps, putMapping };
}

describe('collection:updateMapping', () => {
  it('an admin puts a mapping: the merged mapping, _meta always there', async () => {
    const { deps: d, putMapping } = deps();
    const done = await updateMapping(d, caller({ roles: ['admin'] }), { type, mapping: { properties: { code: { type: 'keyword' } } } });
    expect(done).toEqual({ ok: true, value: { dynamic: 'true', _meta: {}, properties: { code: { type: 'keyword' } } } });
    expect(putMapping).toHaveBeenCalledWith('products', { properties: { code: { type: 'keyword' } } });
  });

  it('a writer or a reader is 403 and the store is not asked', async () => {
    for (const roles of [['writer'], []]) {
      const { deps: d, putMapping } = deps();
      const done = await updateMapping(d, caller({ roles }), { type, mapping: { properties: {} } });
      expect(done.ok ? null : done.error.id).toBe('security.rights.forbidden');
      expect(putMapping).not.toHaveBeenCalled();
    }
    expect(updateMappingOperation.allows?.(caller({ roles: ['writer'] }))).toBe(false);
  });

  it("parse: the collection, then the body as Elasticsearch's mapping parser reads it", () => {
    const { deps: d } = deps();
    const parse = (fields: object) => updateMappingOperation.parse(makeRequest({ controller: 'collection', action: 'updateMapping', requestId: 'r', collection: 'products', ...fields }), d);
    expect(parse({ body: { dynamic: false, properties: { code: { type: 'keyword' } } } })).toEqual({ ok: true, value: { type: expect.objectContaining({ collection: 'products' }), mapping: { dynamic: 'false', properties: { code: { type: 'keyword' } } } } });
    const refused = (fields: object) => {
      const r = parse(fields);
      return r.ok ? null : [r.error.id, r.error.message];
    };
    expect(refused({})).toEqual(['api.assert.body_required', 'A request body is required.']);
    expect(refused({ body: { properties: { code: { type: 'strnig' } } } })).toEqual(['services.storage.invalid_mapping', 'Failed to parse mapping: No handler for type [strnig] declared on field [code]']);
    expect(refused({ collection: 'product', body: {} })?.[0]).toBe('api.assert.invalid_argument');
  });

  it("the store's refusal (a type change) reaches the caller as the store threw it", async () => {
    const { deps: d } = deps(jest.fn(async () => Promise.reject(new MappingError('mapping_conflict', { field: 'code', from: 'keyword', to: 'text' }))));
    await expect(updateMapping(d, caller({ roles: ['admin'] }), { type, mapping: { properties: {} } })).rejects.toThrow('mapper [code] cannot be changed from type [keyword] to [text]');
  });
});
