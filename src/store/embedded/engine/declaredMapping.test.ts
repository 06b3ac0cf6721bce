import { parseTypeMapping, mergeTypeMapping, EMPTY_MAPPING } from '../../mapping/typeMapping';
import { applyDeclaredMapping, engineType } from './declaredMapping';
import { IndexMapping } from './mapping';
import { SearchIndex } from './searchIndex';
import { compileMatcher } from './matcher';
import { toHalfFloat } from './fieldValues';
import { StateReader, StateWriter, sectionBytes } from './persist/state';

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
    expect(types.map((type) => engineType({ type }))).toEqual(['text', 'keyword', 'long', 'long', 'long', 'long', 'double', 'float', 'float', 'double', 'boolean', 'date', 'object', 'object', null]);
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

describe('declared analyzers and normalizers', () => {
    const ids = (index: SearchIndex, query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => h._id);
    const english = () => {
      const index = new SearchIndex();
      index.declareMapping(
        declared({
          properties: {
            body: { type: 'text', analyzer: 'english' },
            exact: { type: 'text', analyzer: 'english', search_analyzer: 'whitespace' },
            jp: { type: 'text', analyzer: 'cjk' },
            code: { type: 'keyword', normalizer: 'lowercase' },
            name: { type: 'text', fields: { lower: { type: 'keyword', normalizer: 'lowercase' } } },
          },
        }),
      );
      index.put('a', { body: 'The dogs are running the races', exact: 'Running dogs', jp: '東京都の天気', code: 'FR-75', name: 'Île-de-France' });
      index.put('b', { body: 'A runner ran one race', exact: 'runner', jp: '京都', code: 'fr-13', name: 'Provence' });
      return index;
    };

    it('a text field is indexed and searched with its analyzer: stems, stop words out, their positions kept', () => {
      const index = english();
      expect(ids(index, { match: { body: 'race' } })).toEqual(['a', 'b']); // a is shorter: 3 terms (dog run race), b 4
      expect(ids(index, { match: { body: 'running dog' } })).toEqual(['a']);
      expect(ids(index, { term: { body: 'race' } }).sort()).toEqual(['a', 'b']); // the stem is the term
      expect(ids(index, { term: { body: 'races' } })).toEqual([]);
      // "running the races" is run _ race: the phrase spans the removed stop word
      expect(ids(index, { match_phrase: { body: 'running the races' } })).toEqual(['a']);
      expect(ids(index, { match_phrase: { body: 'running races' } })).toEqual([]);
      expect(ids(index, { match_phrase: { body: { query: 'running races', slop: 1 } } })).toEqual(['a']);
      expect(ids(index, { match: { jp: '東京' } })).toEqual(['a']);
      expect(ids(index, { match: { jp: '京都' } }).sort()).toEqual(['a', 'b']);
      expect(ids(index, { match_phrase_prefix: { body: 'the dogs are ru' } })).toEqual(['a']);
      expect(ids(index, { match_bool_prefix: { body: 'dogs ru' } })).toEqual(['a', 'b']);
      expect(ids(index, { multi_match: { query: 'races', fields: ['body', 'jp'] } }).sort()).toEqual(['a', 'b']);
      expect(ids(index, { query_string: { query: 'body:"running the races" AND body:dog*' } })).toEqual(['a']);
      expect(ids(index, { simple_query_string: { query: 'races + runner', fields: ['body'] } })).toEqual(['b']);
    });

    it('search_analyzer and a query analyzer replace the index analyzer at search time', () => {
      const index = english();
      // whitespace keeps "Running": no such term (the index holds "run")
      expect(ids(index, { match: { exact: 'Running' } })).toEqual([]);
      expect(ids(index, { match: { exact: 'run' } })).toEqual(['a']);
      expect(ids(index, { match: { exact: { query: 'Running', analyzer: 'english' } } })).toEqual(['a']);
      expect(ids(index, { match: { body: { query: 'races', analyzer: 'keyword' } } })).toEqual([]);
      expect(ids(index, { query_string: { query: 'Running', default_field: 'exact', analyzer: 'english' } })).toEqual(['a']);
      expect(ids(index, { multi_match: { query: 'Running', fields: ['exact'], analyzer: 'simple' } })).toEqual([]);
    });

    it('cross_fields groups the fields by search analyzer', () => {
      const index = english();
      const query = { multi_match: { query: 'running dogs', type: 'cross_fields', fields: ['body', 'name', 'exact'] } };
      expect(ids(index, query)).toEqual(['a']);
      const explained = index.search({ query, from: 0, size: 1, explain: true }).hits[0] as { _explanation?: { description: string } };
      expect(explained._explanation?.description).toContain('max of');
    });

    it('the highlighter re-analyzes with the index analyzer', () => {
      const index = english();
      const result = index.search({ query: { match: { body: 'race' } }, from: 0, size: 10, highlight: { fields: { body: {} } } });
      expect(Object.fromEntries(result.hits.map((h) => [h._id, h.highlight]))).toEqual({
        a: { body: ['The dogs are running the <em>races</em>'] },
        b: { body: ['A runner ran one <em>race</em>'] },
      });
    });

    it('normalizer lowercase: values and term-level query terms lower-cased, _source kept, aggregations and sort on the normalized terms', () => {
      const index = english();
      for (const query of [
        { term: { code: 'fr-75' } },
        { term: { code: 'FR-75' } },
        { terms: { code: ['Fr-75', 'x'] } },
        { prefix: { code: 'FR-7' } },
        { wildcard: { code: 'F?-7*' } },
        { regexp: { code: 'FR-7.' } },
        { fuzzy: { code: 'FR-76' } },
        { range: { code: { gte: 'FR-70', lte: 'FR-80' } } },
        { match: { code: 'FR-75' } },
        { query_string: { query: 'code:FR-7*' } },
        { term: { 'name.lower': 'ÎLE-DE-FRANCE' } },
      ]) {
        expect({ query, ids: ids(index, query) }).toEqual({ query, ids: ['a'] });
      }
      expect(index.get('a')).toMatchObject({ code: 'FR-75' });
      const result = index.search({ query: { match_all: {} }, from: 0, size: 10, sort: [{ code: 'desc' }], aggs: { codes: { terms: { field: 'code' } } } });
      expect(result.hits.map((h) => h.sort)).toEqual([['fr-75'], ['fr-13']]);
      expect((result.aggregations as { codes: { buckets: { key: string }[] } }).codes.buckets.map((b) => b.key)).toEqual(['fr-13', 'fr-75']);
    });

    it('a live-subscription matcher analyzes as the index does', () => {
      const index = english();
      const matcher = compileMatcher({ match_phrase: { body: 'running the races' } }, () => index.mappingCopy());
      expect(matcher({ body: 'Cats were running these races' }, 'c')).toBe(true);
      expect(matcher({ body: 'Cats were running fast races' }, 'd')).toBe(true); // any word in the stop word's place
      expect(matcher({ body: 'Cats were running races' }, 'e')).toBe(false);
      expect(compileMatcher({ term: { code: 'FR-1' } }, () => index.mappingCopy())({ code: 'fr-1' })).toBe(true);
    });
});

describe('declared floating-point types', () => {
  const index = () => {
    const index = new SearchIndex();
    index.declareMapping(declared({ properties: { d: { type: 'double' }, f: { type: 'float' }, h: { type: 'half_float' }, s: { type: 'scaled_float', scaling_factor: 100 } } }));
    index.put('a', { d: 0.1, f: 0.1, h: 0.1, s: 1.234 });
    index.put('b', { d: 0.30000000000000004, f: 0.3, h: 1000.2, s: 1.235 });
    index.put('c', { d: 9007199254740993.5, f: 16777217, h: 70000, s: -0.005 });
    return index;
  };
  const ids = (i: SearchIndex, query: Record<string, unknown>) => i.search({ query, from: 0, size: 10, sort: [{ d: 'asc' }] }).hits.map((h) => h._id);

  it('double keeps 64 bits: exact terms, ranges, sorts and sums', () => {
    const i = index();
    expect(ids(i, { term: { d: 0.1 } })).toEqual(['a']);
    expect(ids(i, { range: { d: { gt: 0.3 } } })).toEqual(['b', 'c']); // 0.30000000000000004 > 0.3, as a double
    expect(ids(i, { range: { f: { gt: 0.3 } } })).toEqual(['c']); // a float: 0.3f is not above 0.3f
    const result = i.search({ query: { match_all: {} }, from: 0, size: 3, sort: [{ d: 'asc' }], aggs: { sum: { sum: { field: 'd' } }, max: { max: { field: 'f' } } } });
    expect(result.hits.map((h) => h.sort)).toEqual([[0.1], [0.30000000000000004], [9007199254740994]]);
    expect((result.aggregations as { sum: { value: number } }).sum.value).toBe(0.1 + 0.30000000000000004 + 9007199254740994);
    expect((result.aggregations as { max: { value: number } }).max.value).toBe(16777216); // a float: 16777217 is not one
    expect(i.search({ query: { match_all: {} }, from: 0, size: 1, sort: [{ d: 'asc' }], docvalue_fields: ['d', 'f'] }).hits[0].fields).toEqual({ d: [0.1], f: [Math.fround(0.1)] });
  });

  it('half_float keeps 16 bits: values, terms and ranges rounded as HalfFloatPoint rounds them', () => {
    const i = index();
    expect(toHalfFloat(0.1)).toBe(0.0999755859375);
    expect(toHalfFloat(1000.2)).toBe(1000);
    expect(toHalfFloat(1000.3)).toBe(1000.5); // steps of 0.5 there
    expect(toHalfFloat(70000)).toBe(Infinity);
    expect(toHalfFloat(2049)).toBe(2048); // a tie: to even
    expect(toHalfFloat(2051)).toBe(2052);
    expect(toHalfFloat(-1e-8)).toBe(-0);
    expect(ids(i, { term: { h: 0.1 } })).toEqual(['a']); // the term is rounded too
    expect(ids(i, { term: { h: 1000 } })).toEqual(['b']);
    expect(ids(i, { range: { h: { gte: 1000.2 } } })).toEqual(['c']); // b holds 1000
    expect(ids(i, { range: { h: { gt: 65504 } } })).toEqual(['c']);
    expect(i.search({ query: { ids: { values: ['a'] } }, from: 0, size: 1, docvalue_fields: ['h'] }).hits[0].fields).toEqual({ h: [0.0999755859375] });
  });

  it('scaled_float keeps a long of value * scaling_factor: terms and ranges on it (ScaledFloatFieldMapper)', () => {
    const i = index();
    expect(ids(i, { term: { s: 1.23 } })).toEqual(['a']); // 1.234 is kept as 123
    expect(ids(i, { term: { s: 1.2349 } })).toEqual(['a']);
    expect(ids(i, { term: { s: 1.24 } })).toEqual(['b']); // 1.235 * 100 is 123.50000000000001: 124
    expect(ids(i, { range: { s: { gt: 1.23 } } })).toEqual(['b']);
    expect(ids(i, { range: { s: { gte: 1.225, lt: 1.24 } } })).toEqual(['a']);
    expect(ids(i, { range: { s: { lte: 0 } } })).toEqual(['c']); // -0.005 * 100 = -0.5 rounds to -0: 0
    expect(i.search({ query: { ids: { values: ['a'] } }, from: 0, size: 1, docvalue_fields: ['s'] }).hits[0].fields).toEqual({ s: [123 * (1 / 100)] });
  });
});


describe('a declared mapping copied, and read back from the index file', () => {
  it('keeps every rule: multi-fields, ignore_above, _source-only fields, date formats, null_value, copy_to, analyzers, normalizers, number kinds, nested', () => {
    const build = () => {
      const built = new IndexMapping();
      const body = {
        properties: {
          name: { type: 'text', analyzer: 'english', fields: { raw: { type: 'keyword', ignore_above: 6 } }, copy_to: 'all' },
          all: { type: 'text', analyzer: 'whitespace' },
          tag: { type: 'keyword', normalizer: 'lowercase', null_value: 'NONE' },
          day: { type: 'date', format: 'dd/MM/yyyy' },
          price: { type: 'scaled_float', scaling_factor: 100 },
          weight: { type: 'half_float' },
          secret: { type: 'long', index: false },
          parts: { type: 'nested', include_in_parent: true, properties: { sku: { type: 'keyword' } } },
        },
      };
      applyDeclaredMapping(built, declared(body));
      return built;
    };
    const mapping = build();
    const doc = { name: 'Running shoes', tag: null, day: '03/02/2024', price: 12.345, weight: 1.1, secret: 7, parts: [{ sku: 'A1' }], other: 'x' };
    const walked = (m: IndexMapping) => {
      const values: unknown[] = [];
      m.walk(doc, (field, type, value) => values.push([field, type, value]));
      return values;
    };
    const stateOf = (m: IndexMapping) => {
      const w = new StateWriter();
      m.writeState(w);
      return { w, json: JSON.stringify(new StateReader(w.meta, w.sections.map(sectionBytes)).json()) };
    };
    const { w, json } = stateOf(mapping);
    const read = IndexMapping.readState(new StateReader(w.meta, w.sections.map(sectionBytes)));
    const copy = build().copy();
    const reference = build();
    const expected = walked(reference);
    expect(expected).toContainEqual(['all', 'text', 'Running shoes']); // copy_to
    for (const other of [copy, read]) {
      expect(stateOf(other).json).toBe(json);
      expect(walked(other)).toEqual(expected);
      for (const field of ['name', 'name.raw', 'all', 'tag', 'day', 'price', 'weight', 'secret', 'parts', 'parts.sku', 'other']) expect(other.type(field)).toBe(reference.type(field));
      expect(other.normalizeKeyword('tag', 'ABC')).toBe('abc');
      expect(other.analyzersOf('name').index.name).toBe('english');
    }
  });
});
