import { InvalidQueryError } from '../../../port';
import { IndexMapping } from '../mapping';
import { parseFetchOptions } from './fetchOptions';
import { checkFieldRequests, hitFields } from './hitFields';

const mapping = new IndexMapping({ keyword: ['tags'], float: ['rate'] });
const SOURCE = { name: 'Côte', tags: ['b', 'a', 'b'], n: '5', rate: 1.1, when: '2024-02-03T04:05:06Z', ok: true, nested: { x: 2 } };
mapping.parse(SOURCE);
const fieldsOf = (request: Record<string, unknown>) => {
  const { fields, docvalueFields } = parseFetchOptions(request);
  return hitFields(SOURCE, mapping, fields, docvalueFields);
};

describe('hit fields', () => {
  it('answers the source values as the mapping reads them, in source order', () => {
    expect(fieldsOf({ fields: ['*'] })).toEqual({
      name: ['Côte'],
      'name.keyword': ['Côte'],
      tags: ['b', 'a', 'b'],
      n: ['5'],
      'n.keyword': ['5'],
      rate: [1.1],
      when: ['2024-02-03T04:05:06.000Z'],
      ok: [true],
      'nested.x': [2],
    });
  });

  it('answers doc values sorted, keywords unique, floats widened', () => {
    expect(fieldsOf({ docvalue_fields: ['tags', 'rate', { field: 'when', format: 'epoch_millis' }, 'name'] })).toEqual({ tags: ['a', 'b'], rate: [Math.fround(1.1)], when: ['1706933106000'] });
  });

  it('checks requests against the mapping', () => {
    expect(() => checkFieldRequests(parseFetchOptions({ docvalue_fields: ['name'] }).docvalueFields, mapping, true)).toThrow(InvalidQueryError);
    expect(() => checkFieldRequests(parseFetchOptions({ fields: [{ field: 'rate', format: 'yyyy' }] }).fields, mapping, false)).toThrow('does not support custom formats');
    expect(() => checkFieldRequests(parseFetchOptions({ docvalue_fields: ['na*', 'unmapped'] }).docvalueFields, mapping, true)).not.toThrow();
  });
});
