import { InvalidQueryError } from '../../../port';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, expectedScore, indexAll } from '../testing';

const f = Math.fround;
const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const search = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 });
const scores = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, f(h._score as number)]);

// name: lengths 1, 2, 2 (N = 3, avgdl 5/3); code.keyword and eu: one term per document (N = 3, avgdl 1, dl 1)
const name = (n: number, dl: number, boost = 1) => expectedScore({ N: 3, avgdl: 5 / 3, n, freq: 1, dl, boost });
const keyword = (n: number, boost = 1) => expectedScore({ N: 3, avgdl: 1, n, freq: 1, dl: 1, boost });

describe('bool', () => {
  it('adds must and should scores (float sum of required and optional)', () => {
    expect(scores({ bool: { must: { match: { name: 'france' } }, should: [{ term: { 'code.keyword': 'FR' } }] } })).toEqual([['1', f(name(1, 1) + keyword(1))]]);
  });

  it('makes should optional next to must, and adds it where it matches', () => {
    expect(scores({ bool: { must: [{ term: { eu: true } }], should: [{ match: { name: 'guiana' } }] } })).toEqual([
      ['2', f(keyword(2) + name(1, 2))],
      ['1', keyword(2)],
    ]);
  });

  it('requires one should clause without must or filter', () => {
    expect(scores({ bool: { should: [{ match: { name: 'france' } }, { match: { name: 'africa' } }] } })).toEqual([
      ['1', name(1, 1)],
      ['3', name(1, 2)],
    ]);
  });

  it('does not score filter and must_not clauses', () => {
    expect(scores({ bool: { must: { match: { name: 'france' } }, filter: { term: { eu: true } } } })).toEqual([['1', name(1, 1)]]);
    expect(scores({ bool: { filter: { term: { eu: true } } } })).toEqual([
      ['1', 0],
      ['2', 0],
    ]);
    expect(scores({ bool: { must_not: { term: { 'code.keyword': 'FR' } } } })).toEqual([
      ['2', 0],
      ['3', 0],
    ]);
    expect(scores({ bool: { filter: { term: { eu: true } }, must_not: [{ match: { name: 'guiana' } }] } })).toEqual([['1', 0]]);
  });

  it('applies minimum_should_match to should clauses', () => {
    const q = (msm: unknown) => ({ bool: { should: [{ term: { name: 'france' } }, { term: { name: 'south' } }, { term: { name: 'africa' } }], minimum_should_match: msm } });
    expect(scores(q(2))).toEqual([['3', f(name(1, 2) + name(1, 2))]]);
    expect(search(q('-2')).total).toBe(2);
    expect(search(q('66%')).total).toBe(2); // 3 * 66% = 1.98 -> 1
    expect(search(q('67%')).total).toBe(1); // 2.01 -> 2
    expect(search(q(4)).total).toBe(0);
    // with must present, minimum_should_match makes should required
    expect(search({ bool: { must: { term: { eu: true } }, should: { term: { name: 'france' } }, minimum_should_match: 1 } }).total).toBe(1);
  });

  it('is match_all without clauses', () => {
    expect(scores({ bool: {} }).map((h) => h[1])).toEqual([1, 1, 1]);
    expect(scores({ bool: { boost: 2 } }).map((h) => h[1])).toEqual([2, 2, 2]);
  });

  it('passes its boost down to the term scorers (not a multiplication of the final score)', () => {
    expect(scores({ bool: { must: { term: { name: 'france' } }, boost: 2 } })).toEqual([['1', name(1, 1, 2)]]);
    expect(scores({ bool: { should: [{ term: { name: 'south' } }, { term: { name: 'africa' } }], boost: 0.5 } })).toEqual([['3', f(name(1, 2, 0.5) + name(1, 2, 0.5))]]);
  });

  it('sums a nested disjunction with its parent once (flattened)', () => {
    const inner = { bool: { should: [{ term: { name: 'south' } }, { term: { name: 'africa' } }] } };
    expect(scores({ bool: { should: [inner, { term: { 'code.keyword': 'ZA' } }] } })).toEqual([['3', f(name(1, 2) + name(1, 2) + keyword(1))]]);
  });

  it('rejects malformed clauses with their path', () => {
    expect(() => search({ bool: { must: [{ match_all: {} }, { more_like_this: { like: 'x' } }] } })).toThrow('unsupported query clause "more_like_this" at query.bool.must[1]');
    expect(() => search({ bool: { must: 'x' } })).toThrow('[bool] "must" at query.bool.must must be a query object or an array of them');
    expect(() => search({ bool: { musts: [] } })).toThrow('unsupported parameter "musts" for [bool] at query.bool');
    expect(() => search({ bool: { should: [{ term: { a: 1 } }], minimum_should_match: 'x%' } })).toThrow(InvalidQueryError);
  });
});
