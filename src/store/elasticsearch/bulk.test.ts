import { StoreUnavailableError } from '../port';
import { bulkItemFailure, bulkItems, DocumentRejectedError, isSuccess } from './bulk';

describe('bulk answers', () => {
  it('reads items of one action, in order', () => {
    const items = bulkItems({ items: [{ create: { status: 201, _id: 'a' } }, { create: { status: 409, _id: 'b' } }] }, 'create');
    expect(items.map((i) => [i._id, isSuccess(i)])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(() => bulkItems({ items: [{ index: { status: 200 } }] }, 'create')).toThrow('no "create" result');
  });

  it('maps unexpected item failures', () => {
    expect(bulkItemFailure('entity', { status: 429, _id: 'a', error: { type: 'es_rejected_execution_exception', reason: 'queue full' } })).toBeInstanceOf(StoreUnavailableError);
    expect(bulkItemFailure('entity', { status: 503, _id: 'a' })).toBeInstanceOf(StoreUnavailableError);
    const rejected = bulkItemFailure('entity', { status: 400, _id: 'a', error: { type: 'document_parsing_exception', reason: 'failed', caused_by: { reason: 'object mapping for [x] tried to parse field [x] as object' } } });
    expect(rejected).toBeInstanceOf(DocumentRejectedError);
    expect(rejected.message).toContain('tried to parse field [x] as object');
    expect((rejected as DocumentRejectedError).ids).toEqual(['a']);
    expect(bulkItemFailure('entity', { status: 418, _id: 'a' }).constructor).toBe(Error);
  });
});
