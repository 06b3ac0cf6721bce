import { InvalidQueryError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { SearchIndex } from '../searchIndex';

const f = Math.fround;

function index(): SearchIndex {
  const i = new SearchIndex();
  i.declareMapping({
    dynamic: 'true',
    properties: { title: { type: 'text' }, meta: { properties: { tag: { type: 'keyword' } } }, parts: { type: 'nested', properties: { name: { type: 'text' }, n: { type: 'integer' } } } },
  });
  i.put('a', { title: 'one', meta: { tag: 'x' }, parts: [{ name: 'bolt', n: 3 }, { name: 'nut', n: 7 }] });
  i.put('b', { title: 'two', parts: [{ name: 'bolt', n: 9 }, { name: 'bolt nut', n: 1 }] });
  i.put('c', { title: 'three', parts: { name: 'screw', n: 9 }, loose: { name: 'bolt', n: 9 } });
  return i;
}

const search = (i: SearchIndex, query: unknown) => i.search({ query: query as never, from: 0, size: 10 });
const scores = (i: SearchIndex, query: unknown) => Object.fromEntries(search(i, query).hits.map((h) => [h._id, h._score]));

describe('nested', () => {
  it('matches within one object: both conditions on the same part', () => {
    const i = index();
    const both = { nested: { path: 'parts', query: { bool: { must: [{ match: { 'parts.name': 'bolt' } }, { range: { 'parts.n': { gte: 5 } } }] } } } };
    // a has a bolt (n 3) and a part with n 7, but no single part with both
    expect(search(i, both).hits.map((h) => h._id)).toEqual(['b']);
  });

  it('leaves the nested fields out of the parent document', () => {
    const i = index();
    expect(search(i, { match: { 'parts.name': 'bolt' } }).total).toBe(0);
    expect(search(i, { match: { title: 'one' } }).total).toBe(1);
  });

  it('scores parents from their matching children per score_mode (hand-worked BM25 over the children alone)', () => {
    const i = index();
    // the children's statistics: 5 objects have parts.name, of lengths 1, 1, 1, 2, 1 (average 6/5);
    // "bolt" is in 3 of them, "nut" in 2 (LegacyBM25: idf * (k1 + 1) * tf / (tf + k1 * (1 - b + b * dl / avgdl)))
    const idf = (n: number) => Math.log(1 + (5 - n + 0.5) / (n + 0.5));
    const tf = (dl: number) => 2.2 / (1 + 1.2 * (0.25 + (0.75 * dl) / f(6 / 5)));
    const bolt1 = f(f(idf(3)) * f(tf(1)));
    const nut1 = f(f(idf(2)) * f(tf(1)));
    const bolt2 = f(f(idf(3)) * f(tf(2)));
    const nut2 = f(f(idf(2)) * f(tf(2)));
    const boltNut = f(bolt2 + nut2);
    const query = (mode?: string) => ({ nested: { path: 'parts', query: { match: { 'parts.name': 'bolt nut' } }, ...(mode === undefined ? {} : { score_mode: mode }) } });
    const close = (actual: Record<string, unknown>, expected: Record<string, number>) => {
      for (const [id, score] of Object.entries(expected)) expect(actual[id]).toBeCloseTo(score, 6);
    };
    close(scores(i, query()), { a: f((bolt1 + nut1) / 2), b: f((bolt1 + boltNut) / 2) });
    close(scores(i, query('avg')), { a: f((bolt1 + nut1) / 2), b: f((bolt1 + boltNut) / 2) });
    close(scores(i, query('max')), { a: Math.max(bolt1, nut1), b: boltNut });
    close(scores(i, query('min')), { a: Math.min(bolt1, nut1), b: bolt1 });
    close(scores(i, query('sum')), { a: f(bolt1 + nut1), b: f(bolt1 + boltNut) });
    expect(scores(i, query('none'))).toEqual({ a: 0, b: 0 });
    // the boost reaches the children (BlockJoinWeight gives it to the child weight)
    close(scores(i, { nested: { ...query('max').nested, boost: 2 } }), { a: f(Math.max(bolt1, nut1) * 2), b: f(boltNut * 2) });
  });

  it('answers an unmapped path with a 400, or no match with ignore_unmapped', () => {
    const i = index();
    expect(() => search(i, { nested: { path: 'nothing', query: { match_all: {} } } })).toThrow(new InvalidQueryError('[nested] failed to find nested object under path [nothing]'));
    expect(search(i, { nested: { path: 'nothing', query: { match_all: {} }, ignore_unmapped: true } }).total).toBe(0);
  });

  it('refuses a path that is not nested: declared objects and dynamic objects stay objects', () => {
    const i = index();
    expect(() => search(i, { nested: { path: 'meta', query: { match_all: {} } } })).toThrow('[nested] nested object under path [meta] is not of nested type');
    expect(() => search(i, { nested: { path: 'loose', query: { match_all: {} }, ignore_unmapped: true } })).toThrow('[nested] nested object under path [loose] is not of nested type');
    expect(search(i, { match: { 'loose.name': 'bolt' } }).total).toBe(1);
  });

  it('matches a nested field inside another, at the root and inside a nested query on the outer one', () => {
    const i = new SearchIndex();
    i.declareMapping({ dynamic: 'true', properties: { parts: { type: 'nested', properties: { name: { type: 'text' }, screws: { type: 'nested', properties: { size: { type: 'long' }, kind: { type: 'keyword' } } } } } } });
    i.put('a', { parts: [{ name: 'bolt', screws: [{ size: 3, kind: 'hex' }] }, { name: 'nut', screws: [{ size: 5, kind: 'flat' }] }] });
    i.put('b', { parts: [{ name: 'nut', screws: [{ size: 3, kind: 'flat' }, { size: 5, kind: 'hex' }] }] });
    const ids = (query: unknown) => search(i, query).hits.map((h) => h._id).sort();
    // one screw with both: a's are (3 hex) and (5 flat), b's (3 flat) and (5 hex)
    expect(ids({ nested: { path: 'parts.screws', query: { bool: { must: [{ term: { 'parts.screws.size': 3 } }, { term: { 'parts.screws.kind': 'hex' } }] } } } })).toEqual(['a']);
    // a part named nut with a screw of size 3: only b's
    const nutWith3 = { nested: { path: 'parts', query: { bool: { must: [{ match: { 'parts.name': 'nut' } }, { nested: { path: 'parts.screws', query: { term: { 'parts.screws.size': 3 } } } }] } } } };
    expect(ids(nutWith3)).toEqual(['b']);
    // the screws' fields are not the parts' (nor the root's)
    expect(ids({ nested: { path: 'parts', query: { term: { 'parts.screws.size': 3 } } } })).toEqual([]);
    // every screw of a root document counts as its child (sum: two matching screws score twice one)
    const sum = scores(i, { nested: { path: 'parts.screws', score_mode: 'sum', query: { constant_score: { filter: { term: { 'parts.screws.size': 3 } } } } } });
    expect(sum).toEqual({ a: 1, b: 1 });
    expect(scores(i, { nested: { path: 'parts.screws', score_mode: 'sum', query: { constant_score: { filter: { range: { 'parts.screws.size': { gte: 3 } } } } } } })).toEqual({ a: 2, b: 2 });
  });

  it('refuses a nested query whose path is not under the enclosing one', () => {
    const i = new SearchIndex();
    i.declareMapping({ dynamic: 'true', properties: { parts: { type: 'nested', properties: { screws: { type: 'nested' } } }, tags: { type: 'nested' } } });
    i.put('a', { parts: [{ screws: [{ size: 3 }] }], tags: [{ t: 1 }] });
    expect(() => search(i, { nested: { path: 'parts', query: { nested: { path: 'parts', query: { match_all: {} } } } } })).toThrow('[nested] nested path [parts] is not a child of the enclosing nested path [parts]');
    expect(() => search(i, { nested: { path: 'parts', query: { nested: { path: 'tags', query: { match_all: {} } } } } })).toThrow('[nested] nested path [tags] is not a child of the enclosing nested path [parts]');
    expect(() => search(i, { nested: { path: 'parts.screws', query: { nested: { path: 'parts', query: { match_all: {} } } } } })).toThrow('is not a child of the enclosing nested path [parts.screws]');
  });

  it('indexes an inner nested field in its outer objects too with include_in_parent', () => {
    const i = new SearchIndex();
    i.declareMapping({ dynamic: 'true', properties: { parts: { type: 'nested', properties: { screws: { type: 'nested', include_in_parent: true } } } } });
    i.put('a', { parts: [{ screws: [{ size: 3 }] }] });
    expect(search(i, { nested: { path: 'parts', query: { term: { 'parts.screws.size': 3 } } } }).total).toBe(1);
    expect(search(i, { nested: { path: 'parts.screws', query: { term: { 'parts.screws.size': 3 } } } }).total).toBe(1);
  });

  it('refuses bad shapes, naming the parameter', () => {
    const i = index();
    expect(() => search(i, { nested: { query: { match_all: {} } } })).toThrow("[nested] at query.nested requires 'path' field");
    expect(() => search(i, { nested: { path: 'parts' } })).toThrow("[nested] at query.nested requires 'query' field");
    expect(() => search(i, { nested: { path: 'parts', query: { match_all: {} }, score_mode: 'total' } })).toThrow('illegal score_mode for nested query [total]');
    expect(() => search(i, { nested: { path: 'parts', query: { match_all: {} }, filter: {} } })).toThrow('unsupported parameter "filter" for [nested]');
    expect(() => search(i, { nested: { path: 'parts', query: { match_all: {} }, inner_hits: { explain: true } } })).toThrow(/unsupported inner_hits parameter "explain"/);
  });

  it('refuses a sort on a nested object\'s field, as Elasticsearch does without the nested option (not supported)', () => {
    const i = index();
    expect(() => i.search({ query: { match_all: {} }, sort: [{ 'parts.n': 'asc' }], from: 0, size: 10 })).toThrow('it is mandatory to set the [nested] context on the nested sort field: [parts.n].');
    expect(() => i.search({ query: { match_all: {} }, sort: [{ 'parts.n': { order: 'asc', nested: { path: 'parts' } } }], from: 0, size: 10 })).toThrow('unsupported sort parameter "nested"');
    // inside inner_hits, the objects' fields sort
    expect(i.search({ query: { nested: { path: 'parts', query: { match_all: {} }, inner_hits: { sort: [{ 'parts.n': 'desc' }] } } } as never, from: 0, size: 10 }).total).toBe(3);
  });

  it('counts the inner query against the clause and depth limits', () => {
    const i = new SearchIndex(undefined, { limits: { ...DEFAULT_LIMITS, maxClauseCount: 2 } });
    i.declareMapping({ dynamic: 'true', properties: { parts: { type: 'nested', properties: { name: { type: 'text' } } } } });
    expect(() => search(i, { nested: { path: 'parts', query: { match: { 'parts.name': 'a b c' } } } })).toThrow(/too many|maxClauseCount/i);
    const deep = new SearchIndex(undefined, { limits: { ...DEFAULT_LIMITS, maxQueryDepth: 2 } });
    expect(() => search(deep, { nested: { path: 'parts', query: { bool: { must: [{ match_all: {} }] } } } })).toThrow(/nested deeper than 2 levels/);
  });
});
