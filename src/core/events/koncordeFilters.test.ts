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

  it('a geo centre beyond the pole is refused, never handed to the native index (which would abort the process)', () => {
    const error = refusal({ or: [{ equals: { a: 1 } }, { geoDistance: { location: { lat: 100, lon: 0 }, distance: '1km' } }] });
    expect(error).toMatchObject({ id: 'api.assert.koncorde_dsl_error', props: { keyword: 'geoDistance', path: 'geoDistance.location' } });
    expect(error.message).toContain('latitude 100 is not within [-90, 90]');
  });

  it('a filter naming __proto__ or constructor pollutes nothing', () => {
    for (const filter of [{ equals: { __proto__: 'x' } }, JSON.parse('{"equals": {"__proto__": "x"}}'), { exists: 'constructor' }, { range: { 'constructor.prototype': { gt: 1 } } }]) {
      new KoncordeFilters().compile('c', filter);
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});

describe('KoncordeFilters: any JSON', () => {
  // (fast-check: filters built from Koncorde's keywords and random values, documents of random fields)
  const fc = require('fast-check') as typeof import('fast-check');
  const value = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }));
  const field = fc.constantFrom('a', 'b', 'a.b', '__proto__', 'constructor', '_id', 'tags["x"]', '');
  const { filter } = fc.letrec<{ filter: unknown; leaf: unknown }>((tie) => ({
    leaf: fc.oneof(
      fc.record({ equals: fc.dictionary(field, value, { maxKeys: 2 }) }),
      fc.record({ in: fc.dictionary(field, fc.oneof(fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }), value), { maxKeys: 2 }) }),
      fc.record({ exists: fc.oneof(field, value) }),
      fc.record({ range: fc.dictionary(field, fc.dictionary(fc.constantFrom('gt', 'gte', 'lt', 'lte', 'x'), value, { maxKeys: 3 }), { maxKeys: 1 }) }),
      fc.record({ ids: fc.record({ values: fc.oneof(fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }), value) }) }),
      fc.record({ regexp: fc.dictionary(field, fc.oneof(fc.constantFrom('^a', '(a+)+$', '[', 'a{2,}', '(?<=a)b'), value), { maxKeys: 1 }) }),
      fc.record({ geoDistance: fc.record({ a: fc.record({ lat: fc.integer({ min: -100, max: 100 }), lon: fc.integer({ min: -200, max: 200 }) }), distance: fc.constantFrom('1km', 'x', '-1m') }) }),
      fc.record({ unknownKeyword: value }),
      fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 2 }),
    ),
    filter: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('leaf'),
      fc.record({ and: fc.array(tie('filter'), { maxLength: 3 }) }),
      fc.record({ or: fc.array(tie('filter'), { maxLength: 3 }) }),
      fc.record({ not: tie('filter') }),
      fc.record({ bool: fc.record({ must: fc.array(tie('filter'), { maxLength: 2 }), should_not: fc.array(tie('filter'), { maxLength: 2 }) }, { requiredKeys: [] }) }),
    ),
  }));
  const doc = fc.dictionary(fc.constantFrom('a', 'b', 'tags', '__proto__', 'constructor'), fc.oneof(value, fc.record({ b: value }), fc.record({ lat: fc.integer({ min: -90, max: 90 }), lon: fc.integer({ min: -180, max: 180 }) })), { maxKeys: 4 });

  it('compiles or refuses with a 400, never throws; a compiled filter tests any document without throwing', () => {
    const filters = new KoncordeFilters();
    fc.assert(
      fc.property(filter, fc.array(doc, { maxLength: 3 }), (f, docs) => {
        const compiled = filters.compile('c', f as Record<string, unknown>);
        if (!compiled.ok) {
          expect(compiled.error.id).toBe('api.assert.koncorde_dsl_error');
          return;
        }
        for (const d of docs) expect(typeof compiled.value.matches('x', d as Doc)).toBe('boolean');
        compiled.value.release();
      }),
      { numRuns: 300, seed: 16 },
    );
    expect(filters.size).toBe(0);
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
