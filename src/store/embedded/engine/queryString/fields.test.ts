import { QueryLimitError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { IndexMapping } from '../mapping';
import { BuildContext } from '../query/context';
import { checkFieldCount, hasAllFields, parseFieldsAndWeights, resolveField, resolveFields } from './fields';

const mapping = new IndexMapping();
mapping.parse({ name: 'France', code: 'FR', population: 68, _service_info: { author: 'a' }, address: { city: 'Paris' } });
const ctx: BuildContext = { mapping, now: 0, limits: DEFAULT_LIMITS };
const entries = (m: Map<string, number>) => [...m].sort();

describe('query string fields', () => {
  it('reads field^boost lists as QueryParserHelper.parseFieldsAndWeights does, quirks included', () => {
    expect([...parseFieldsAndWeights('q', ['name^2', 'code', 'pop*^0.5'], 'fields')]).toEqual([['name', 2], ['code', 1], ['pop*', 0.5]]);
    // a name given again keeps its last boost, multiplied only when the earlier entry was written as the name alone
    expect([...parseFieldsAndWeights('q', ['name^3', 'name^2'], 'fields')]).toEqual([['name', 2]]);
    expect([...parseFieldsAndWeights('q', ['name', 'name^3'], 'fields')]).toEqual([['name', 3]]);
    expect(() => parseFieldsAndWeights('q', ['name^x'], 'fields')).toThrow('invalid boost');
    expect(() => parseFieldsAndWeights('q', ['name^-1'], 'fields')).toThrow('negative [boost]');
    expect(() => parseFieldsAndWeights('q', [3], 'fields')).toThrow('must be a string');
  });

  it('resolves names and patterns over the mapping, `*` leaving out names that start with _', () => {
    expect(entries(resolveField(ctx, 'name', 2, true, null))).toEqual([['name', 2]]);
    expect(entries(resolveField(ctx, 'nope', 1, true, null))).toEqual([]);
    expect(entries(resolveField(ctx, '_id', 1, true, null))).toEqual([['_id', 1]]);
    expect(entries(resolveField(ctx, 'na*', 1, false, null))).toEqual([['name', 1], ['name.keyword', 1]]);
    expect(entries(resolveField(ctx, '*', 1, false, null)).map(([f]) => f)).toEqual(['address.city', 'address.city.keyword', 'code', 'code.keyword', 'name', 'name.keyword', 'population']);
    expect(entries(resolveField(ctx, '_*', 1, true, null)).map(([f]) => f)).toEqual(['_id', '_service_info.author', '_service_info.author.keyword']);
    // an object is no field
    expect(entries(resolveField(ctx, 'address', 1, true, null))).toEqual([]);
  });

  it('tries a suffix on each field (quote_field_suffix)', () => {
    expect(entries(resolveField(ctx, 'name', 1, true, '.keyword'))).toEqual([['name.keyword', 1]]);
    expect(entries(resolveField(ctx, 'population', 1, true, '.keyword'))).toEqual([['population', 1]]);
  });

  it('multiplies the boosts of a field named by several entries, and counts fields against the clause limit', () => {
    expect(entries(resolveFields(ctx, new Map([['name', 2], ['na*', 3]])))).toEqual([['name', 6], ['name.keyword', 3]]);
    expect(hasAllFields(['name', '*'])).toBe(true);
    expect(hasAllFields(['name*'])).toBe(false);
    expect(() => checkFieldCount({ ...ctx, limits: { ...DEFAULT_LIMITS, maxClauseCount: 2 } }, 3, 'n*')).toThrow(QueryLimitError);
    expect(() => resolveFields({ ...ctx, limits: { ...DEFAULT_LIMITS, maxClauseCount: 2 } }, new Map([['*', 1]]))).toThrow('matches too many fields, limit: 2, got: 7');
  });
});
