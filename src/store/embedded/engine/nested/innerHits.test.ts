import { SearchIndex } from '../searchIndex';

function index(): SearchIndex {
  const i = new SearchIndex();
  i.declareMapping({ dynamic: 'true', properties: { owner: { type: 'keyword' }, parts: { type: 'nested', properties: { name: { type: 'text' }, n: { type: 'integer' } } } } });
  i.put('a', { owner: 't1', parts: [{ name: 'bolt', n: 3 }, { name: 'nut', n: 7 }, { name: 'bolt bolt', n: 5 }] });
  i.put('b', { owner: 't2', parts: [{ name: 'bolt', n: 9 }] });
  i.put('c', { owner: 't1', parts: [{ name: 'screw', n: 1 }] });
  return i;
}

const nested = (innerHits: unknown, query: unknown = { match: { 'parts.name': 'bolt' } }) => ({ nested: { path: 'parts', query, inner_hits: innerHits } });

describe('inner_hits of nested queries', () => {
  it('gives each hit its matching objects, best first, with _nested and the object as _source', () => {
    const result = index().search({ query: nested({}) as never, from: 0, size: 10 });
    const a = result.hits.find((h) => h._id === 'a')!;
    const inner = a.inner_hits!.parts.hits;
    expect(inner.total).toBe(2);
    expect(inner.hits.map((h) => [h._id, h._nested, h._source])).toEqual([
      ['a', { field: 'parts', offset: 2 }, { name: 'bolt bolt', n: 5 }],
      ['a', { field: 'parts', offset: 0 }, { name: 'bolt', n: 3 }],
    ]);
    expect(inner.max_score).toBe(inner.hits[0]._score);
    // an object's score is its score in the join: score_mode max gives the parent the best one
    const max = index().search({ query: { nested: { ...nested({}).nested, score_mode: 'max' } } as never, from: 0, size: 10 });
    expect(max.hits.find((h) => h._id === 'a')!._score).toBe(inner.max_score);
  });

  it('takes name, from, size, sort and _source (full paths)', () => {
    const result = index().search({ query: nested({ name: 'mine', from: 1, size: 1, sort: [{ 'parts.n': 'asc' }], _source: ['parts.n'] }, { match_all: {} }) as never, from: 0, size: 10 });
    const a = result.hits.find((h) => h._id === 'a')!.inner_hits!.mine.hits;
    expect(a.total).toBe(3);
    expect(a.max_score).toBeNull();
    expect(a.hits).toEqual([{ _id: 'a', _nested: { field: 'parts', offset: 2 }, _score: null, _source: { n: 5 }, sort: [5] }]);
    const none = index().search({ query: nested({ _source: false }) as never, from: 0, size: 1 });
    expect(none.hits[0].inner_hits!.parts.hits.hits[0]._source).toBeUndefined();
  });

  it('answers an empty inner hit for a hit matched by another clause', () => {
    const query = { bool: { should: [nested({}), { term: { owner: 't1' } }] } };
    const c = index().search({ query: query as never, from: 0, size: 10 }).hits.find((h) => h._id === 'c')!;
    expect(c.inner_hits).toEqual({ parts: { hits: { total: 0, max_score: null, hits: [] } } });
  });

  it('never shows an object of a document the caller\'s filter hides', () => {
    const result = index().search({ query: nested({ size: 10 }) as never, from: 0, size: 10 }, { term: { owner: 't1' } });
    expect(result.hits.map((h) => h._id)).toEqual(['a']);
    const shown = result.hits.flatMap((h) => h.inner_hits!.parts.hits.hits.map((x) => x._id));
    expect(new Set(shown)).toEqual(new Set(['a']));
  });

  it('refuses two definitions of one name, and a window past 100', () => {
    const query = { bool: { must: [nested({ name: 'x' }), nested({ name: 'x' }, { match: { 'parts.name': 'nut' } })] } };
    expect(() => index().search({ query: query as never, from: 0, size: 10 })).toThrow('[inner_hits] already contains an entry for key [x]');
    expect(() => index().search({ query: nested({ size: 101 }) as never, from: 0, size: 10 })).toThrow(/Inner result window is too large/);
  });

  it('answers a nested field inside another: the identity from the root, and inner hits inside inner hits', () => {
    const i = new SearchIndex();
    i.declareMapping({ dynamic: 'true', properties: { driver: { type: 'nested', properties: { name: { type: 'text' }, vehicle: { type: 'nested', properties: { make: { type: 'text' } } } } } } });
    i.put('d', { driver: [{ name: 'ann', vehicle: [{ make: 'ford' }] }, { name: 'bob', vehicle: [{ make: 'audi' }, { make: 'powell motors' }] }] });
    const deep = i.search({ query: { nested: { path: 'driver.vehicle', query: { match: { 'driver.vehicle.make': 'powell' } }, inner_hits: {} } } as never, from: 0, size: 10 });
    expect(deep.hits[0].inner_hits!['driver.vehicle'].hits.hits.map((h) => [h._nested, h._source])).toEqual([[{ field: 'driver', offset: 1, _nested: { field: 'vehicle', offset: 1 } }, { make: 'powell motors' }]]);
    const query = { nested: { path: 'driver', inner_hits: { name: 'drivers' }, query: { nested: { path: 'driver.vehicle', query: { match: { 'driver.vehicle.make': 'powell audi' } }, inner_hits: { name: 'vehicles' } } } } };
    const hierarchy = i.search({ query: query as never, from: 0, size: 10 });
    const drivers = hierarchy.hits[0].inner_hits!.drivers.hits;
    expect(drivers.hits.map((h) => [h._nested, h._source])).toEqual([[{ field: 'driver', offset: 1 }, { name: 'bob', vehicle: [{ make: 'audi' }, { make: 'powell motors' }] }]]);
    const vehicles = drivers.hits[0].inner_hits!.vehicles.hits;
    expect(vehicles.total).toBe(2);
    expect(vehicles.hits.map((h) => [h._id, h._nested, h._source])).toEqual([
      // (audi first: both terms are as rare, and "powell motors" is the longer field)
      ['d', { field: 'driver', offset: 1, _nested: { field: 'vehicle', offset: 0 } }, { make: 'audi' }],
      ['d', { field: 'driver', offset: 1, _nested: { field: 'vehicle', offset: 1 } }, { make: 'powell motors' }],
    ]);
    // as Elasticsearch: an inner nested query's inner_hits are answered within the outer one's only
    const without = i.search({ query: { nested: { path: 'driver', query: query.nested.query } } as never, from: 0, size: 10 });
    expect(without.hits[0].inner_hits).toBeUndefined();
  });

  it('highlights the objects\' fields (full paths), as a search\'s highlight does', () => {
    const query = nested({ highlight: { fields: { 'parts.name': {} } }, size: 5 }, { match: { 'parts.name': 'bolt' } });
    const a = index().search({ query: query as never, from: 0, size: 10 }).hits.find((h) => h._id === 'a')!;
    expect(a.inner_hits!.parts.hits.hits.map((h) => h.highlight)).toEqual([{ 'parts.name': ['<em>bolt</em> <em>bolt</em>'] }, { 'parts.name': ['<em>bolt</em>'] }]);
    expect(a.highlight).toBeUndefined();
    expect(() => index().search({ query: nested({ highlight: { fields: 3 } }) as never, from: 0, size: 10 })).toThrow(/highlight/);
  });
});
