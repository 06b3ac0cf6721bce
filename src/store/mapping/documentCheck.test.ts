import { checkDocument } from './documentCheck';
import { EMPTY_MAPPING, mergeTypeMapping, parseTypeMapping } from './typeMapping';

const mapping = (body: unknown) => mergeTypeMapping(EMPTY_MAPPING, parseTypeMapping(body));
const refusal = (m: ReturnType<typeof mapping>, source: Record<string, unknown>) => checkDocument(m, 'x', source)?.message ?? null;

describe('checkDocument', () => {
  const typed = mapping({
    properties: {
      price: { type: 'long' },
      small: { type: 'byte' },
      ratio: { type: 'double' },
      ok: { type: 'boolean' },
      at: { type: 'date' },
      custom: { type: 'date', format: 'dd/MM/yyyy' },
      code: { type: 'keyword' },
      where: { type: 'geo_point' },
      loose: { type: 'integer', ignore_malformed: true },
      address: { properties: { zip: { type: 'integer' } } },
    },
  });

  it('accepts values a declared type takes, with coercion (numeric strings, "true"), arrays and nulls', () => {
    expect(refusal(typed, { price: '12', small: 127, ratio: '1.5', ok: 'true', at: '2026-11-25', custom: '25/11/2026', code: 42, where: { lat: 1, lon: 2 }, address: { zip: '75001' }, other: { any: 1 } })).toBeNull();
    expect(refusal(typed, { price: [1, '2', null], where: [2.35, 48.85], at: 1764028800000 })).toBeNull();
    expect(refusal(typed, { where: '48.85,2.35', loose: 'not a number', id: 'x', modifier: { id: 'u' } })).toBeNull();
  });

  it("refuses what a declared type cannot take, in Elasticsearch's words, naming the field", () => {
    expect(refusal(typed, { price: 'cheap' })).toBe("failed to parse field [price] of type [long] in document with id 'x'");
    expect(refusal(typed, { small: 128 })).toBe("failed to parse field [small] of type [byte] in document with id 'x'");
    expect(refusal(typed, { ok: 'yes' })).toContain('[ok] of type [boolean]');
    expect(refusal(typed, { at: 'tomorrow' })).toContain('[at] of type [date]');
    expect(refusal(typed, { custom: '2026-11-25' })).toContain('[custom] of type [date]');
    expect(refusal(typed, { code: { a: 1 } })).toContain('[code] of type [keyword]');
    expect(refusal(typed, { where: { lat: 100, lon: 0 } })).toContain('[where] of type [geo_point]');
    expect(refusal(typed, { address: 'Paris' })).toContain('[address] of type [object]');
    expect(refusal(typed, { address: { zip: 'x' } })).toContain('[address.zip] of type [integer]');
    expect(refusal(typed, { 'address.zip': 'x' })).toContain('[address.zip] of type [integer]');
    expect(refusal(typed, { price: [1, 'x'] })).toContain('[price]');
  });

  it('strict: an undeclared field is refused (the server-managed fields never are); an object may loosen or tighten it', () => {
    const strict = mapping({ dynamic: 'strict', properties: { name: { type: 'text' }, meta: { properties: {}, dynamic: true }, box: { properties: { a: { type: 'keyword' } } } } });
    expect(refusal(strict, { name: 'A', id: 'x', slug: 'a', allowTenantIds: ['*'], modified: 'now', modifier: { id: 'u' }, _service_info: {}, entityType: 't', meta: { anything: 1 } })).toBeNull();
    expect(refusal(strict, { colour: 'red' })).toBe('mapping set to strict, dynamic introduction of [colour] within [_doc] is not allowed');
    expect(refusal(strict, { box: { b: 1 } })).toBe('mapping set to strict, dynamic introduction of [b] within [box] is not allowed');
    expect(refusal(strict, { colour: null })).toBeNull();
    const loose = mapping({ dynamic: false, properties: { box: { properties: {}, dynamic: 'strict' } } });
    expect(refusal(loose, { colour: 'red' })).toBeNull();
    expect(refusal(loose, { box: { b: 1 } })).toContain('[b] within [box]');
  });

  it('refuses more than 10,000 objects in nested fields, counted at every depth (index.mapping.nested_objects.limit)', () => {
    const nested = mapping({ properties: { parts: { type: 'nested', properties: { screws: { type: 'nested' } } }, box: { properties: { items: { type: 'nested' } } } } });
    const parts = (n: number, screws = 0) => Array.from({ length: n }, () => ({ screws: Array.from({ length: screws }, () => ({})) }));
    expect(refusal(nested, { parts: parts(10_000) })).toBeNull();
    expect(refusal(nested, { parts: parts(10_001) })).toBe('The number of nested documents has exceeded the allowed limit of [10000]. This limit can be set by changing the [index.mapping.nested_objects.limit] index level setting.');
    expect(refusal(nested, { parts: parts(100, 99) })).toBeNull();
    expect(refusal(nested, { parts: parts(100, 100) })).not.toBeNull();
    expect(refusal(nested, { box: [{ items: parts(5_000) }, { items: parts(5_001) }] })).not.toBeNull();
  });

  it('a type with nothing declared refuses nothing', () => {
    expect(checkDocument(EMPTY_MAPPING, 'x', { anything: { at: 'all' } })).toBeNull();
  });
});
