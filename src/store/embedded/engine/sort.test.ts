import { InvalidQueryError, SearchRequest } from '../../port';
import { IndexMapping } from './mapping';
import { parseSort, resolveSort } from './sort';
import { SearchIndex } from './searchIndex';
import { indexAll } from './testing';

const index = indexAll(new SearchIndex({ keyword: ['k'], date: ['d'] }), [
  ['a', { k: ['m', 'b'], n: 5, fl: 1.5, d: '2024-01-02', b: true, t: 'x' }],
  ['b', { k: 'c', n: [1, 9], fl: 0.1, d: '2024-01-01', b: false }],
  ['c', { n: 5 }],
  ['d', { k: 'a😀', fl: 2 }],
  ['e', { k: 'a\uFF21' }],
]);
const search = (request: Partial<SearchRequest>) => index.search({ from: 0, size: 10, ...request });
const sorted = (sort: unknown) => search({ sort }).hits.map((h) => [h._id, h.sort]);

describe('sort', () => {
  it('sorts keywords in UTF-8 order, multi-valued by min ascending and max descending, missing last', () => {
    expect(sorted('k')).toEqual([
      ['e', ['a\uFF21']],
      ['d', ['a😀']], // U+1F600 sorts after U+FF21 in UTF-8 (not in UTF-16)
      ['a', ['b']],
      ['b', ['c']],
      ['c', [null]],
    ]);
    expect(sorted({ k: 'desc' })).toEqual([
      ['a', ['m']],
      ['b', ['c']],
      ['d', ['a😀']],
      ['e', ['a\uFF21']],
      ['c', [null]],
    ]);
    // mode min: a sorts by "b"; descending: c (missing, first), b ("c"), a ("b"), d, e
    expect(sorted({ k: { order: 'desc', missing: '_first', mode: 'min' } }).map((h) => h[0])).toEqual(['c', 'b', 'a', 'd', 'e']);
    expect(sorted({ k: { missing: 'zz' } })).toContainEqual(['c', ['zz']]);
  });

  it('sorts numbers with Elasticsearch sort values for missing ones', () => {
    expect(sorted([{ n: 'asc' }, 'k'])).toEqual([
      ['b', [1, 'c']],
      ['a', [5, 'b']],
      ['c', [5, null]],
      ['e', [9223372036854775807, 'a\uFF21']],
      ['d', [9223372036854775807, 'a😀']],
    ]);
    expect(sorted({ n: 'desc' }).map((h) => h[1])).toEqual([[9], [5], [5], [-9223372036854775808], [-9223372036854775808]]);
    expect(sorted({ n: { order: 'asc', mode: 'sum' } }).map((h) => h[0])).toEqual(['a', 'c', 'b', 'd', 'e']);
    expect(sorted({ n: { missing: 0 } }).map((h) => h[1])).toEqual([[0], [0], [1], [5], [5]]);
  });

  it('prints float, date and boolean sort values as Elasticsearch does', () => {
    expect(sorted('fl').map((h) => h[1])).toEqual([[0.1], [1.5], [2], ['Infinity'], ['Infinity']]);
    expect(sorted({ fl: { order: 'desc', missing: '_first' } }).map((h) => h[1])).toEqual([['Infinity'], ['Infinity'], [2], [1.5], [0.1]]);
    expect(sorted('d').slice(0, 2)).toEqual([
      ['b', [Date.parse('2024-01-01')]],
      ['a', [Date.parse('2024-01-02')]],
    ]);
    expect(sorted({ b: 'desc' }).slice(0, 2)).toEqual([
      ['a', [1]],
      ['b', [0]],
    ]);
  });

  it('breaks ties by index order, in both directions', () => {
    expect(sorted({ n: { order: 'desc', missing: '_last' } }).map((h) => h[0])).toEqual(['b', 'a', 'c', 'd', 'e']);
    expect(sorted({ nope: { unmapped_type: 'long' } }).map((h) => h[0])).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('sorts by _score and _doc', () => {
    const r = search({ query: { match: { t: 'x' } }, sort: ['_score', '_doc'] });
    expect(r.hits[0]._score).toBe(r.hits[0].sort?.[0]);
    expect(search({ sort: [{ _doc: 'desc' }] }).hits.map((h) => h._id)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(search({ sort: { _score: 'asc' } }).hits[0].sort).toEqual([1]);
  });

  it('is no sort for _score descending alone', () => {
    expect(parseSort(['_score'])).toBeNull();
    expect(parseSort([{ _score: { order: 'desc' } }])).toBeNull();
    expect(parseSort([])).toBeNull();
    const r = search({ sort: '_score' });
    expect(r.hits[0].sort).toBeUndefined();
    expect(r.hits[0]._score).toBe(1);
  });

  it('gives _score null when the sort has no _score', () => {
    expect(search({ sort: 'k' }).hits[0]._score).toBeNull();
  });

  it('refuses what Elasticsearch refuses', () => {
    const mapping = new IndexMapping();
    mapping.parse({ t: 'x' });
    const resolve = (sort: unknown) => resolveSort(parseSort(sort) ?? [], mapping, () => undefined);
    expect(() => resolve('t')).toThrow('text field "t" cannot be sorted on');
    expect(() => resolve('nope')).toThrow('no mapping found for "nope"');
    expect(() => resolve('_id')).toThrow(InvalidQueryError);
    expect(() => resolve({ 't.keyword': { mode: 'avg' } })).toThrow('sort mode [avg] is not allowed');
    expect(() => parseSort({ k: 'up' })).toThrow('sort order at sort.k must be "asc" or "desc"');
    expect(() => parseSort({ k: { nested: {} } })).toThrow('unsupported sort parameter "nested"');
    expect(() => parseSort([1])).toThrow('sort at sort[0] must be a field name or an object');
    expect(() => parseSort({ _geo_distance: {} })).toThrow(InvalidQueryError);
    expect(() => parseSort({ _score: { missing: '_last' } })).toThrow(InvalidQueryError);
    expect(() => resolve({ 't.keyword': { missing: {} } })).toThrow(InvalidQueryError);
  });
});

describe('search_after', () => {
  it('continues after the given sort values, excluding ties with them', () => {
    const first = search({ sort: [{ n: 'asc' }, 'k'], size: 2 });
    expect(first.hits.map((h) => h._id)).toEqual(['b', 'a']);
    const next = search({ sort: [{ n: 'asc' }, 'k'], size: 2, search_after: first.hits[1].sort });
    expect(next.hits.map((h) => h._id)).toEqual(['c', 'e']);
    expect(next.total).toBe(5); // total counts every match
    expect(search({ sort: [{ n: 'asc' }], search_after: [5] }).hits.map((h) => h._id)).toEqual(['d', 'e']);
    expect(search({ sort: ['k'], search_after: ['b'] }).hits.map((h) => h._id)).toEqual(['b', 'c']);
    expect(search({ sort: ['k'], search_after: [null] }).hits).toEqual([]);
    // descending, missing last: d 2, a 1.5, b 0.1, then c and e with "-Infinity"
    expect(search({ sort: [{ fl: 'desc' }], search_after: [1.5] }).hits.map((h) => [h._id, h.sort])).toEqual([
      ['b', [0.1]],
      ['c', ['-Infinity']],
      ['e', ['-Infinity']],
    ]);
    expect(search({ sort: [{ fl: 'desc' }], search_after: ['-Infinity'] }).hits).toEqual([]);
  });

  it('validates the values against the sort', () => {
    expect(() => search({ search_after: [1] })).toThrow('search_after requires a sort');
    expect(() => search({ sort: ['k'], search_after: [1, 2] })).toThrow('search_after has 2 value(s) but sort has 1');
    expect(() => search({ sort: ['n'], search_after: ['x'] })).toThrow('search_after value the string "x" at search_after[0]');
    expect(() => search({ sort: ['k'], search_after: ['a'], from: 1 })).toThrow('from must be 0 when search_after is used');
    expect(() => search({ sort: ['k'], search_after: 'a' as unknown as unknown[] })).toThrow('search_after must be an array');
  });
});
