import { parseTypeMapping, mergeTypeMapping, EMPTY_MAPPING } from '../../mapping/typeMapping';
import { applyDeclaredMapping, engineType } from './declaredMapping';
import { IndexMapping } from './mapping';
import { SearchIndex } from './searchIndex';

const declared = (body: unknown) => mergeTypeMapping(EMPTY_MAPPING, parseTypeMapping(body));
const count = (index: SearchIndex, query: Record<string, unknown>) => (index.searchSliced({ query, from: 0, size: 0 }, null) as { total: number }).total;

describe('declared mappings in the engine', () => {
  it('a declared keyword overrides dynamic detection: the prefix query of the issue counts codes starting with F', () => {
    const index = new SearchIndex();
    index.declareMapping(declared({ properties: { code: { type: 'keyword' } } }));
    for (const [id, code] of [['fr', 'FR'], ['fi', 'FI'], ['de', 'DE'], ['fj', 'fj']]) index.put(id, { code });
    expect(count(index, { prefix: { code: 'F' } })).toBe(2);
    expect(index.mappedType('code')).toBe('keyword');
    expect(index.mappedType('code.keyword')).toBeUndefined();
  });

  it('maps each Elasticsearch type to the engine type that indexes it', () => {
    const types = ['text', 'keyword', 'long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'boolean', 'date', 'object', 'nested', 'geo_point'];
    expect(types.map((type) => engineType({ type }))).toEqual(['text', 'keyword', 'long', 'long', 'long', 'long', 'float', 'float', 'float', 'float', 'boolean', 'date', 'object', 'object', null]);
    expect(engineType({ type: 'long', index: false })).toBeNull();
  });

  it('multi-fields, ignore_above, fields kept in _source only, dynamic false', () => {
    const index = new SearchIndex();
    index.declareMapping(
      declared({
        dynamic: false,
        properties: {
          name: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 6 } } },
          tag: { type: 'keyword', ignore_above: 3 },
          where: { type: 'geo_point' },
          rank: { type: 'integer', index: false },
        },
      }),
    );
    index.put('a', { name: 'Paris', tag: 'abc', where: { lat: 1, lon: 2 }, rank: 1, other: 'x' });
    index.put('b', { name: 'Paris Nord', tag: 'abcd', rank: 2 });
    expect(count(index, { term: { 'name.raw': 'Paris' } })).toBe(1);
    expect(count(index, { match: { name: 'paris' } })).toBe(2);
    expect(count(index, { exists: { field: 'name.raw' } })).toBe(1); // "Paris Nord" is above 6
    expect(count(index, { exists: { field: 'tag' } })).toBe(1);
    expect(count(index, { exists: { field: 'where.lat' } })).toBe(0);
    expect(count(index, { term: { rank: 1 } })).toBe(0);
    expect(count(index, { match: { other: 'x' } })).toBe(0);
    expect(index.get('a')).toEqual({ name: 'Paris', tag: 'abc', where: { lat: 1, lon: 2 }, rank: 1, other: 'x' });
  });

  it('documents indexed before a field is declared keep their indexing (as in Elasticsearch); later ones use it', () => {
    const index = new SearchIndex(undefined);
    index.declareMapping(declared({ dynamic: false, properties: {} }));
    index.put('a', { code: 'FR' });
    index.declareMapping(declared({ dynamic: false, properties: { code: { type: 'keyword' } } }));
    index.put('b', { code: 'FI' });
    expect(count(index, { prefix: { code: 'F' } })).toBe(1);
  });

  it('a copy of the mapping (subscriptions) carries the declared fields', () => {
    const mapping = new IndexMapping();
    applyDeclaredMapping(mapping, declared({ properties: { tag: { type: 'keyword', ignore_above: 2, fields: { n: { type: 'long' } } } } }));
    const values: unknown[] = [];
    mapping.copy().walk({ tag: '12' }, (field, type, value) => values.push([field, type, value]));
    mapping.copy().walk({ tag: '123' }, (field, type, value) => values.push([field, type, value]));
    expect(values).toEqual([['tag', 'keyword', '12'], ['tag.n', 'long', 12], ['tag.n', 'long', 123]]);
  });
});

describe('analyzer names a mapping accepts', () => {
  it('each resolves to an engine analyzer (engine/analysis)', () => {
    const { ANALYZERS } = jest.requireActual('../../mapping/typeMapping') as typeof import('../../mapping/typeMapping');
    const { analyzerByName } = jest.requireActual('./analysis') as typeof import('./analysis');
    expect(ANALYZERS).toEqual(expect.arrayContaining(['standard', 'simple', 'whitespace', 'keyword', 'english', 'cjk']));
    for (const name of ANALYZERS) expect([name, analyzerByName(name) !== undefined]).toEqual([name, true]);
  });
});

describe('declared value rules: date format, null_value', () => {
  it('a date written dd/MM/yyyy is indexed as that date; null_value indexes nulls', () => {
    const index = new SearchIndex();
    index.declareMapping(declared({ properties: { publishedAt: { type: 'date', format: 'dd/MM/yyyy||epoch_millis' }, status: { type: 'keyword', null_value: 'NONE' } } }));
    index.put('a', { publishedAt: '25/11/2026', status: null });
    index.put('b', { publishedAt: '01/01/2020', status: 'live' });
    index.put('c', { publishedAt: 1767225600000 });
    expect(count(index, { range: { publishedAt: { gte: '2026-11-25', lt: '2026-11-26' } } })).toBe(1);
    expect(count(index, { range: { publishedAt: { gte: '2026-01-01' } } })).toBe(2);
    expect(count(index, { term: { status: 'NONE' } })).toBe(1);
    expect(count(index, { exists: { field: 'status' } })).toBe(2);
  });
});

describe('declared copy_to', () => {
  it("indexes a field's values in the target fields too (not in _source), as their type takes them", () => {
    const index = new SearchIndex();
    index.declareMapping(declared({ properties: { first: { type: 'text', copy_to: 'full' }, last: { type: 'text', copy_to: ['full'] }, full: { type: 'text' } } }));
    index.put('a', { first: 'Ada', last: 'Lovelace' });
    index.put('b', { first: 'Alan', last: 'Turing' });
    expect(count(index, { match: { full: { query: 'ada lovelace', operator: 'and' } } })).toBe(1);
    expect(count(index, { match: { full: 'turing' } })).toBe(1);
    expect(index.get('a')).toEqual({ first: 'Ada', last: 'Lovelace' });
  });
});
