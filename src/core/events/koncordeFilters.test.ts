/** KoncordeFilters: Kuzzle's filter language, compiled and tested by the koncorde package, shared by the subscriptions of one feed. */
import type { Doc } from '../../store/port';
import { KoncordeFilters, koncordeFiltersOf, type CompiledFilter } from './koncordeFilters';

const compile = (filters: KoncordeFilters, filter: Record<string, unknown>, collection = 'countries'): CompiledFilter => {
  const compiled = filters.compile(collection, filter);
  if (!compiled.ok) throw new Error(`refused: ${compiled.error.message}`);
  return compiled.value;
};

const refusal = (filter: unknown) => {
  const compiled = new KoncordeFilters().compile('countries', filter as Record<string, unknown>);
  if (compiled.ok) throw new Error(`accepted ${JSON.stringify(filter)}`);
  return compiled.error;
};

const france: Doc = { name: 'France', code: 'FR', population: 68, tags: ['eu', 'g7'], capital: { name: 'Paris', at: { lat: 48.8566, lon: 2.3522 } }, motto: 'Liberté' };
const germany: Doc = { name: 'Germany', code: 'DE', population: 84, tags: ['eu'], capital: { name: 'Berlin', at: { lat: 52.52, lon: 13.405 } } };
const nowhere: Doc = { name: 'Nowhere' };

/** Which of the three documents (ids fr, de, xx) the filter matches. */
function matching(filter: Record<string, unknown>): string[] {
  const compiled = compile(new KoncordeFilters(), filter);
  return (
    [
      ['fr', france],
      ['de', germany],
      ['xx', nowhere],
    ] as const
  )
    .filter(([id, doc]) => compiled.matches(id, doc))
    .map(([id]) => id);
}

describe('KoncordeFilters: each keyword, with Koncorde semantics', () => {
  it.each([
    ['equals', { equals: { code: 'FR' } }, ['fr']],
    ['equals on a nested field', { equals: { 'capital.name': 'Berlin' } }, ['de']],
    ['equals on a number', { equals: { population: 84 } }, ['de']],
    ['in (strings)', { in: { code: ['FR', 'IT'] } }, ['fr']],
    ['exists', { exists: 'motto' }, ['fr']],
    ['exists on an array value', { exists: 'tags["g7"]' }, ['fr']],
    ['range', { range: { population: { gte: 70, lt: 100 } } }, ['de']],
    ['ids (the _id, not a field)', { ids: { values: ['de', 'xx'] } }, ['de', 'xx']],
    ['regexp', { regexp: { name: { value: '^f.*e$', flags: 'i' } } }, ['fr']],
    ['geoBoundingBox', { geoBoundingBox: { 'capital.at': { top: 50, left: 0, bottom: 45, right: 5 } } }, ['fr']],
    ['geoDistance', { geoDistance: { 'capital.at': { lat: 48.85, lon: 2.35 }, distance: '10km' } }, ['fr']],
    ['geoDistanceRange', { geoDistanceRange: { 'capital.at': { lat: 48.85, lon: 2.35 }, from: '500km', to: '1000km' } }, ['de']],
    ['geoPolygon', { geoPolygon: { 'capital.at': { points: [[55, 10], [55, 20], [50, 20], [50, 10]] } } }, ['de']],
    ['and', { and: [{ equals: { code: 'FR' } }, { range: { population: { lt: 70 } } }] }, ['fr']],
    ['or', { or: [{ equals: { code: 'FR' } }, { equals: { code: 'DE' } }] }, ['fr', 'de']],
    ['not', { not: { exists: 'code' } }, ['xx']],
    ['bool', { bool: { must: [{ exists: 'code' }], must_not: [{ equals: { code: 'DE' } }], should: [{ in: { name: ['France', 'Italy'] } }, { equals: { name: 'x' } }] } }, ['fr']],
    ['an empty filter matches everything', {}, ['fr', 'de', 'xx']],
  ])('%s', (_label, filter, expected) => {
    expect(matching(filter)).toEqual(expected);
  });

  it('tests the entity fields and _id as Kuzzle does, not a field named _id', () => {
    const compiled = compile(new KoncordeFilters(), { ids: { values: ['real'] } });
    expect(compiled.matches('real', { _id: 'other' })).toBe(true);
    expect(compiled.matches('other', { _id: 'real' })).toBe(false);
  });

  it('regular expressions run on RE2: a pattern that backtracks catastrophically in JavaScript is linear', () => {
    const compiled = compile(new KoncordeFilters(), { regexp: { name: '(a+)+$' } });
    expect(compiled.matches('x', { name: `${'a'.repeat(50_000)}!` })).toBe(false);
    expect(compiled.matches('x', { name: 'aaa' })).toBe(true);
  });
});

describe('KoncordeFilters: refusals (400 api.assert.koncorde_dsl_error naming the keyword)', () => {
  it('an unknown keyword, at the top or nested, with its path', () => {
    const top = refusal({ term: { code: 'FR' } });
    expect(top.id).toBe('api.assert.koncorde_dsl_error');
    expect(top.status).toBe(400);
    expect(top.props).toMatchObject({ keyword: 'term', path: 'term' });
    expect(top.message).toContain('"term": unknown keyword');
    expect(refusal({ and: [{ equals: { a: 1 } }, { match_all: {} }] }).props).toMatchObject({ keyword: 'match_all', path: 'and.match_all' });
  });

  it.each([
    ['two keywords in one object', { equals: { a: 1 }, exists: 'b' }, 'one keyword only'],
    ['an empty equals', { equals: {} }, 'exactly 1 property'],
    ['an object as an equals value', { equals: { a: { b: 1 } } }, 'must either be a string, a number, a boolean, or null'],
    ['a range bound that is not a number', { range: { a: { gte: 'x' } } }, 'must be a number'],
    ['a regexp RE2 cannot parse', { regexp: { a: '[' } }, 'cannot parse regexp'],
    ['an empty or', { or: [] }, 'cannot be empty'],
    ['a geoDistance without a distance', { geoDistance: { p: { lat: 1, lon: 2 } } }, ''],
    ['more conditions than Koncorde allows', { in: { a: Array.from({ length: 101 }, (_, i) => `v${i}`) } }, 'Filter too complex'],
  ])('%s', (_label, filter, reason) => {
    const error = refusal(filter);
    expect(error.id).toBe('api.assert.koncorde_dsl_error');
    expect(error.message).toContain(reason);
  });

  it('filters Koncorde would take minutes (or unbounded memory) to compile are refused before it reads them', () => {
    let nested: Record<string, unknown> = { equals: { a: 0 } };
    for (let i = 0; i < 20; i++) nested = { not: { and: [nested, { equals: { [`x${i}`]: i } }] } };
    expect(refusal(nested).message).toContain('Filter too complex');
    const ors = (n: number, width: number) => ({ and: Array.from({ length: n }, (_, i) => ({ or: Array.from({ length: width }, (_, j) => ({ equals: { [`f${i}`]: j } })) })) });
    expect(refusal(ors(9, 2)).message).toContain('2^9 rows');
    expect(refusal(ors(4, 25)).message).toContain('more than 256 conjunctions');
    expect(new KoncordeFilters().compile('c', ors(2, 10)).ok).toBe(true);
  });
});

describe('KoncordeFilters: one engine for many subscriptions', () => {
  it('stores a filter once per collection, keeps it while a subscription uses it, removes it after the last', () => {
    const filters = new KoncordeFilters();
    const one = compile(filters, { equals: { code: 'FR' } });
    const two = compile(filters, { equals: { code: 'FR' } });
    const elsewhere = compile(filters, { equals: { code: 'FR' } }, 'regions');
    expect(filters.size).toBe(2);
    one.release();
    one.release(); // (twice is once)
    expect(two.matches('fr', { ...france })).toBe(true);
    two.release();
    expect(filters.size).toBe(1);
    expect(elsewhere.matches('fr', { ...france })).toBe(true);
  });

  it('a filter only sees its own collection', () => {
    const filters = new KoncordeFilters();
    const countries = compile(filters, {}, 'countries');
    const regions = compile(filters, { equals: { code: 'FR' } }, 'regions');
    const doc = { ...france };
    expect(countries.matches('fr', doc)).toBe(true);
    expect(regions.matches('fr', doc)).toBe(true);
    expect(compile(filters, { equals: { code: 'DE' } }, 'regions').matches('fr', doc)).toBe(false);
  });

  it('a document tested before a filter was added is tested again for it', () => {
    const filters = new KoncordeFilters();
    const doc = { ...france };
    expect(compile(filters, { equals: { code: 'DE' } }).matches('fr', doc)).toBe(false);
    expect(compile(filters, { equals: { code: 'FR' } }).matches('fr', doc)).toBe(true);
  });

  it('one engine per feed', () => {
    const [a, b] = [{}, {}];
    expect(koncordeFiltersOf(a)).toBe(koncordeFiltersOf(a));
    expect(koncordeFiltersOf(a)).not.toBe(koncordeFiltersOf(b));
  });
});

describe('KoncordeFilters: security', () => {
  it('a top-level field named __proto__ is not seen (it would become the prototype of what Koncorde tests)', () => {
    const doc = JSON.parse('{"__proto__": {"code": "FR"}, "name": "x"}') as Doc;
    const compiled = compile(new KoncordeFilters(), { equals: { code: 'FR' } });
    expect(compiled.matches('x', doc)).toBe(false);
    expect(compile(new KoncordeFilters(), { exists: 'name' }).matches('x', doc)).toBe(true);
    expect(({} as Record<string, unknown>).code).toBeUndefined();
  });

  it('a filter naming __proto__ or constructor pollutes nothing', () => {
    for (const filter of [{ equals: { __proto__: 'x' } }, JSON.parse('{"equals": {"__proto__": "x"}}'), { exists: 'constructor' }, { range: { 'constructor.prototype': { gt: 1 } } }]) {
      new KoncordeFilters().compile('c', filter);
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
