import type { CoreDeps } from '../deps';
import { MappingError } from '../../store/mapping/mappingError';
import { fitsMapping } from './documentFit';

describe('fitsMapping', () => {
  it("ok when the store finds the entity fits; the store's refusal as its 400 otherwise", async () => {
    const answer: (MappingError | null)[] = [null];
    const checkDocuments = jest.fn(async () => answer);
    const deps = { store: { entities: { checkDocuments } } } as unknown as CoreDeps;
    expect(await fitsMapping(deps, 'products', 'x', { price: 1 })).toEqual({ ok: true, value: undefined });
    expect(checkDocuments).toHaveBeenCalledWith('products', [{ id: 'x', source: { price: 1 } }]);
    answer[0] = new MappingError('document_parse_failed', { field: 'price', type: 'long', id: 'x' });
    const refused = await fitsMapping(deps, 'products', 'x', { price: 'cheap' });
    expect(refused.ok ? null : [refused.error.id, refused.error.status, refused.error.message]).toEqual(['services.storage.document_parse_failed', 400, "failed to parse field [price] of type [long] in document with id 'x'"]);
  });

  it('a store without the check refuses nothing', async () => {
    expect((await fitsMapping({ store: { entities: {} } } as unknown as CoreDeps, 'p', 'x', {})).ok).toBe(true);
  });
});
