import { InvalidQueryError } from '../../../port';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, expectedScore, indexAll } from '../testing';

const f = Math.fround;
const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const search = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 });
const scores = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, Math.fround(h._score as number)]);

// name: "France" (1 token), "French Guiana" (2), "South Africa" (2): N = 3, sum of lengths 5
const NAME = { N: 3, avgdl: 5 / 3 };

describe('match', () => {
  it('scores the reference example: "france" in "France"', () => {
    // idf = ln(1 + (3 - 1 + 0.5) / (1 + 0.5)) = 0.98082924; weight = 2.2f * idf = 2.1578243;
    // normInverse = 1 / (1.2 * (0.25 + 0.75 * 1 / 1.6666666)) = 1.1904761; score = w - w / (1 + 1.1904761)
    const expected = expectedScore({ ...NAME, n: 1, freq: 1, dl: 1 });
    expect(expected).toBe(f(1.1727304458618164));
    expect(scores({ match: { name: 'france' } })).toEqual([['1', expected]]);
    expect(search({ match: { name: 'FRANCE' } }).hits[0]._score).toBe(1.1727304); // printed as Elasticsearch prints it
  });

  it('sums the term scores of several tokens (a BooleanQuery of SHOULD term queries)', () => {
    const south = expectedScore({ ...NAME, n: 1, freq: 1, dl: 2 });
    const africa = expectedScore({ ...NAME, n: 1, freq: 1, dl: 2 });
    const french = expectedScore({ ...NAME, n: 1, freq: 1, dl: 2 });
    expect(scores({ match: { name: 'South Africa' } })).toEqual([['3', f(south + africa)]]);
    expect(scores({ match: { name: 'french africa' } })).toEqual([
      ['2', french],
      ['3', africa],
    ]);
  });

  it('merges repeated tokens into one boosted term (Lucene dedups SHOULD clauses)', () => {
    expect(scores({ match: { name: 'france france' } })).toEqual([['1', expectedScore({ ...NAME, n: 1, freq: 1, dl: 1, boost: 2 })]]);
  });

  it('supports operator and minimum_should_match', () => {
    expect(scores({ match: { name: { query: 'south africa', operator: 'and' } } }).map((h) => h[0])).toEqual(['3']);
    expect(search({ match: { name: { query: 'south france', operator: 'AND' } } }).total).toBe(0);
    expect(search({ match: { name: { query: 'south africa france', minimum_should_match: 2 } } }).total).toBe(1);
    expect(search({ match: { name: { query: 'south africa france', minimum_should_match: '-1' } } }).total).toBe(1);
    expect(search({ match: { name: { query: 'south africa france', minimum_should_match: '67%' } } }).total).toBe(1); // 3 * 67% = 2.01 -> 2
    expect(search({ match: { name: { query: 'south africa france', minimum_should_match: '-67%' } } }).total).toBe(2); // 3 - 2 = 1: France and South Africa
    expect(search({ match: { name: { query: 'france', minimum_should_match: 5 } } }).total).toBe(1); // one term: no BooleanQuery, ignored
  });

  it('applies zero_terms_query when the text has no token', () => {
    expect(search({ match: { name: '!!!' } }).total).toBe(0);
    expect(scores({ match: { name: { query: '...', zero_terms_query: 'all' } } }).map((h) => h[1])).toEqual([1, 1, 1]);
  });

  it('acts as a term query on keyword, numeric, date and boolean fields', () => {
    expect(search({ match: { 'code.keyword': 'FR' } }).hits.map((h) => h._id)).toEqual(['1']);
    expect(search({ match: { 'code.keyword': 'fr' } }).total).toBe(0); // the keyword analyzer keeps case
    expect(scores({ match: { population: '68' } })).toEqual([['1', 1]]);
    expect(search({ match: { eu: 'true' } }).total).toBe(2);
    expect(search({ match: { created: '1961-05-31' } }).hits.map((h) => h._id)).toEqual(['3']);
    expect(() => search({ match: { population: 'lots' } })).toThrow(InvalidQueryError);
    expect(search({ match: { population: { query: 'lots', lenient: true } } }).total).toBe(0);
  });

  it('takes fuzziness: each token a fuzzy query (fuzzy.test.ts)', () => {
    expect(search({ match: { name: { query: 'frnace', fuzziness: 'AUTO' } } }).hits.map((h) => h._id)).toEqual(['1']); // france (french is 3 edits away)
  });

  it('applies the boost to the whole query', () => {
    const south = expectedScore({ ...NAME, n: 1, freq: 1, dl: 2, boost: 3 });
    expect(scores({ match: { name: { query: 'south africa', boost: 3 } } })).toEqual([['3', f(south + south)]]);
  });

  it('rejects unsupported parameters and shapes', () => {
    expect(() => search({ match: { name: { query: 'x', fuzzy: 'AUTO' } } })).toThrow('unsupported parameter "fuzzy" for [match] at query.match.name');
    expect(() => search({ match: { name: { query: 'x', fuzziness: 'lots' } } })).toThrow('fuzziness cannot be [lots].');
    expect(() => search({ match: { name: { operator: 'or' } } })).toThrow('needs a "query"');
    expect(() => search({ match: { name: { query: 'x', operator: 'xor' } } })).toThrow('operator');
    expect(() => search({ match: { name: ['x'] } })).toThrow(InvalidQueryError);
    expect(() => search({ match: { name: { query: 'x', analyzer: 'french' } } })).toThrow('[match] analyzer [french] not found at query.match.name.analyzer');
    expect(() => search({ match: { name: { query: 'x', minimum_should_match: '2x' } } })).toThrow('minimum_should_match');
  });
});
