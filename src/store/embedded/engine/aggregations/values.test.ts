import { SearchIndex } from '../searchIndex';
import { fieldValues, missingValue, valuePrinter } from './values';

describe('field values', () => {
  const index = new SearchIndex({ keyword: ['k'], date: ['d'], boolean: ['b'] });
  index.put('1', { k: ['x', 'y'], n: 2, d: '2024-01-01', b: true, t: 'some text' });
  const source = { mapping: (index as any).mapping, index: (index as any).index };

  it('reads keywords as term ids, numbers, dates and booleans as numbers, unmapped as none', () => {
    const k = fieldValues(source, 'k', 'terms', ['keyword']);
    expect(k.kind).toBe('keyword');
    if (k.kind === 'keyword') expect(k.forward.list(0).map((t) => k.dict.term(t))).toEqual(['x', 'y']);
    const b = fieldValues(source, 'b', 'max', ['boolean']);
    expect(b.kind === 'numeric' && b.forward.list(0)).toEqual([1]);
    expect(fieldValues(source, 'nothing', 'terms', ['keyword']).kind).toBe('none');
  });

  it('refuses text fields and types the aggregation does not take', () => {
    expect(() => fieldValues(source, 't', 'terms', ['keyword'])).toThrow(/Text fields are not optimised/);
    expect(() => fieldValues(source, 'k', 'avg', ['numeric'])).toThrow('Field [k] of type [keyword] is not supported for aggregation [avg]');
  });

  it('turns missing values into the field type, and prints dates and booleans', () => {
    const d = fieldValues(source, 'd', 'min', ['date']);
    expect(missingValue(d, '2024-01-02', 'm')).toBe(Date.UTC(2024, 0, 2));
    expect(() => missingValue(fieldValues(source, 'n', 'min', ['numeric']), 'abc', 'm')).toThrow(/"missing" value/);
    expect(valuePrinter(d, null)?.(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(valuePrinter(fieldValues(source, 'b', 'max', ['boolean']), null)?.(1)).toBe('true');
    expect(valuePrinter(fieldValues(source, 'n', 'max', ['numeric']), null)).toBeNull();
  });
});
