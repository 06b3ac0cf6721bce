import { MappingError } from './mappingError';

describe('MappingError', () => {
  it("words each refusal as Elasticsearch does, naming the field", () => {
    expect(new MappingError('mapping_conflict', { field: 'code', from: 'keyword', to: 'text' }).message).toBe('mapper [code] cannot be changed from type [keyword] to [text]');
    expect(new MappingError('strict_dynamic_mapping', { field: 'x', within: '_doc' }).message).toBe('mapping set to strict, dynamic introduction of [x] within [_doc] is not allowed');
    expect(new MappingError('document_parse_failed', { field: 'price', type: 'long', id: 'x' }).message).toBe("failed to parse field [price] of type [long] in document with id 'x'");
    expect(new MappingError('invalid_mapping', { reason: 'bad' }).message).toBe('Failed to parse mapping: bad');
  });
});
