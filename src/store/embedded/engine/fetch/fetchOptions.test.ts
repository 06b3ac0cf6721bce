import { InvalidQueryError } from '../../../port';
import { parseFetchOptions } from './fetchOptions';

describe('fetch options: _source, stored_fields, fields, docvalue_fields', () => {
  it('keeps _source unless false, _none_, or stored_fields without an explicit _source', () => {
    expect(parseFetchOptions({}).source).toEqual({ enabled: true, includes: [], excludes: [] });
    expect(parseFetchOptions({ _source: false }).source).toBeNull();
    expect(parseFetchOptions({ stored_fields: '_none_' }).source).toBeNull();
    expect(parseFetchOptions({ stored_fields: ['name'] }).source).toBeNull();
    expect(parseFetchOptions({ stored_fields: ['name'], _source: ['name'] }).source?.includes).toEqual(['name']);
  });

  it('reads field requests with their date formats', () => {
    const options = parseFetchOptions({ fields: ['name', { field: 'd', format: 'yyyy' }], docvalue_fields: 'code' });
    expect(options.fields.map((f) => f.pattern)).toEqual(['name', 'd']);
    expect(options.fields[1].format?.print(0)).toBe('1970');
    expect(options.docvalueFields).toEqual([{ pattern: 'code', format: null }]);
  });

  it('refuses what Elasticsearch refuses, and what is not supported', () => {
    const refused = (request: Record<string, unknown>) => () => parseFetchOptions(request);
    expect(refused({ stored_fields: '_none_', _source: true })).toThrow('[stored_fields] cannot be disabled if [_source] is requested');
    expect(refused({ stored_fields: '_none_', fields: ['a'] })).toThrow('[stored_fields] cannot be disabled when using the [fields] option');
    expect(refused({ stored_fields: ['_none_', 'a'] })).toThrow(InvalidQueryError);
    expect(refused({ fields: [{ field: 'a', include_unmapped: true }] })).toThrow('unsupported parameter "include_unmapped"');
    expect(refused({ fields: [3] })).toThrow(InvalidQueryError);
    expect(refused({ fields: [{ field: 'd', format: 'yyyy-Q' }] })).toThrow(InvalidQueryError);
  });
});
