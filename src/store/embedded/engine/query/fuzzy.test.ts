import { InvalidQueryError, QueryLimitError, SearchResult } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { SearchIndex } from '../searchIndex';
import { expectedScore } from '../testing';

const f = Math.fround;
// name (text): 5 documents, lengths 1, 1, 1, 2, 2 (sum 7); "france" in 2 of them (df 2)
const DOCS: [string, Record<string, unknown>][] = [
  ['1', { name: 'France', code: 'FR', population: 68, tags: ['x'] }],
  ['2', { name: 'Frances', code: 'FS' }],
  ['3', { name: 'Finance', code: 'FI' }],
  ['4', { name: 'French Guiana', code: 'GF' }],
  ['5', { name: 'France France', code: 'FF' }],
];
const index = new SearchIndex({ keyword: ['id'] });
for (const [id, doc] of DOCS) index.put(id, doc);
const search = (query: Record<string, unknown>, size = 10) => index.search({ query, from: 0, size });
const scores = (query: Record<string, unknown>) => search(query).hits.map((h) => [h._id, f(h._score as number)]);
const ids = (query: Record<string, unknown>) => search(query).hits.map((h) => h._id);
const NAME = { N: 5, avgdl: 7 / 5 };
const refused = (query: Record<string, unknown>): string => {
  try {
    search(query);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidQueryError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('fuzzy', () => {
  it('scores as FuzzyQuery with its default rewrite: edit-distance boosts, blended document frequencies', () => {
    // "frnace" has 6 code points: AUTO allows 2 edits. france: 1 edit (a swap), boost 1 - 1/6 = 0.8333333;
    // frances, finance: 2 edits, boost 1 - 2/min(7, 6) = 0.6666666; french: 3 edits, out.
    const boost1 = f(1 - f(1 / 6));
    const boost2 = f(1 - f(2 / 6));
    expect([boost1, boost2]).toEqual([f(0.8333333), f(0.6666666)]);
    // blended: every term scored with df = max(2, 1, 1) = 2: idf = ln(1 + 3.5 / 2.5) = 0.8754687
    const france1 = expectedScore({ ...NAME, n: 2, freq: 1, dl: 1, boost: boost1 });
    const france2 = expectedScore({ ...NAME, n: 2, freq: 2, dl: 2, boost: boost1 });
    const other = expectedScore({ ...NAME, n: 2, freq: 1, dl: 1, boost: boost2 });
    expect([france2, france1, other]).toEqual([f(0.89523363), f(0.8261163), f(0.660893)]);
    expect(scores({ fuzzy: { name: 'frnace' } })).toEqual([
      ['5', france2],
      ['1', france1],
      ['2', other],
      ['3', other],
    ]);
    // the same with the parameters spelled out
    expect(scores({ fuzzy: { name: { value: 'frnace', fuzziness: 'AUTO', prefix_length: 0, max_expansions: 50, transpositions: true, rewrite: 'top_terms_blended_freqs_50', boost: 1, _name: 'typo' } } })).toEqual(scores({ fuzzy: { name: 'frnace' } }));
  });

  it('is not analyzed: the value is compared with the terms as they are', () => {
    expect(ids({ fuzzy: { name: { value: 'France', fuzziness: 0 } } })).toEqual([]);
    expect(ids({ fuzzy: { name: { value: 'France', fuzziness: 1 } } })).toEqual(['5', '1']); // F -> f is one edit
    expect(ids({ fuzzy: { 'name.keyword': { value: 'Frnace', fuzziness: 1 } } })).toEqual(['1']);
    expect(ids({ fuzzy: { 'code.keyword': { term: 'GG', fuzziness: 1 } } })).toEqual(['4']);
  });

  it('takes fuzziness, transpositions and prefix_length', () => {
    expect(ids({ fuzzy: { name: { value: 'frnace', fuzziness: 1 } } })).toEqual(['5', '1']);
    expect(ids({ fuzzy: { name: { value: 'frnace', fuzziness: 1, transpositions: false } } })).toEqual([]); // a swap is 2 edits then
    expect(ids({ fuzzy: { name: { value: 'fanance', fuzziness: 'AUTO', prefix_length: 2 } } })).toEqual([]);
    expect(ids({ fuzzy: { name: { value: 'fanance', fuzziness: 'AUTO', prefix_length: 1 } } })).toEqual(['3', '5', '1']); // finance 1 edit, france 2
    expect(ids({ fuzzy: { name: { value: 'grance', fuzziness: 1 } } })).toEqual(['5', '1']);
    expect(ids({ fuzzy: { name: { value: 'grance', fuzziness: 1, prefix_length: 1 } } })).toEqual([]);
    expect(ids({ fuzzy: { name: { value: 'frnace', fuzziness: 'AUTO:7,8' } } })).toEqual([]); // 6 < 7: exact
    expect(ids({ fuzzy: { name: { value: 'fr', fuzziness: 'AUTO' } } })).toEqual([]); // 2 code points: exact
  });

  it('keeps the max_expansions best terms: the nearest first, then the smallest', () => {
    expect(ids({ fuzzy: { name: { value: 'frnace', max_expansions: 1 } } })).toEqual(['5', '1']);
    // frances and finance tie at 0.6666666: finance sorts first
    expect(ids({ fuzzy: { name: { value: 'frnace', max_expansions: 2 } } })).toEqual(['5', '1', '3']);
  });

  it('takes any rewrite: constant_score matches every term within the distance, whatever max_expansions', () => {
    expect(scores({ fuzzy: { name: { value: 'frnace', rewrite: 'constant_score', max_expansions: 1, boost: 2 } } })).toEqual([
      ['1', 2],
      ['2', 2],
      ['3', 2],
      ['5', 2],
    ]);
    // scoring_boolean: every term on its own statistics, boosted by its edit distance
    const frances = expectedScore({ ...NAME, n: 1, freq: 1, dl: 1, boost: f(1 - f(2 / 6)) });
    expect(scores({ fuzzy: { name: { value: 'frnace', rewrite: 'scoring_boolean' } } }).slice(0, 2)).toEqual([
      ['2', frances],
      ['3', frances],
    ]);
    expect(scores({ fuzzy: { name: { value: 'frnace', rewrite: 'top_terms_boost_2' } } })).toEqual([
      ['1', f(1 - f(1 / 6))],
      ['5', f(1 - f(1 / 6))],
      ['3', f(1 - f(2 / 6))],
    ]);
    expect(refused({ fuzzy: { name: { value: 'x', rewrite: 'sometimes' } } })).toContain('unknown rewrite');
  });

  it('boosts, and matches nothing on an unmapped field', () => {
    const [[, plain]] = scores({ fuzzy: { name: 'frnace' } });
    expect(scores({ fuzzy: { name: { value: 'frnace', boost: 2 } } })[0]).toEqual(['5', f(expectedScore({ ...NAME, n: 2, freq: 2, dl: 2, boost: f(f(1 - f(1 / 6)) * 2) }))]);
    expect(plain).toBeLessThan(1);
    expect(search({ fuzzy: { nothing: 'frnace' } }).total).toBe(0);
  });

  it("refuses fields that are neither text nor keyword, as Elasticsearch does", () => {
    expect(refused({ fuzzy: { population: { value: 68, fuzziness: 1 } } })).toContain('Can only use fuzzy queries on keyword and text fields - not on [population] which is of type [long]');
    expect(refused({ fuzzy: { _id: 'x' } })).toContain('which is of type [_id]');
  });

  it('refuses bad parameters with a 400 naming them', () => {
    expect(refused({ fuzzy: { name: { value: 'x', fuzziness: 3 } } })).toContain('Valid edit distances are [0, 1, 2] but was [3]');
    expect(refused({ fuzzy: { name: { value: 'x', fuzziness: 'far' } } })).toContain('fuzziness cannot be [far].');
    expect(refused({ fuzzy: { name: { value: 'x', prefix_length: -1 } } })).toContain('"prefix_length"');
    expect(refused({ fuzzy: { name: { value: 'x', max_expansions: 0 } } })).toContain('"max_expansions"');
    expect(refused({ fuzzy: { name: { value: 'x', transpositions: 'maybe' } } })).toContain('"transpositions"');
    expect(refused({ fuzzy: { name: { value: 'x', case_insensitive: true } } })).toContain('unsupported parameter "case_insensitive" for [fuzzy]');
    expect(refused({ fuzzy: { name: { fuzziness: 1 } } })).toContain('needs a "value"');
    expect(refused({ fuzzy: { name: { value: { a: 1 } } } })).toContain('must be a string, a number or a boolean');
    expect(refused({ fuzzy: { name: 'x', code: 'y' } })).toContain("doesn't support multiple fields");
  });

  it('refuses a value whose automaton would pass MAX_DETERMINIZED_STATES', () => {
    const small = new SearchIndex({ keyword: ['id'] }, { limits: { ...DEFAULT_LIMITS, maxDeterminizedStates: 100 } });
    small.put('1', { name: 'abcdefghijklmnop' });
    expect(small.search({ query: { fuzzy: { name: { value: 'abcdefgh', fuzziness: 1 } } }, from: 0, size: 10 }).total).toBe(0);
    try {
      small.search({ query: { fuzzy: { name: 'abcdefghijklmnopq' } }, from: 0, size: 10 });
      throw new Error('not refused');
    } catch (err) {
      expect(err).toBeInstanceOf(QueryLimitError);
      expect((err as QueryLimitError).limit).toBe('too_complex_to_determinize');
    }
  });

  it('walks the dictionary within the search budget: a sliced search pauses and answers the same', async () => {
    const sliced = new SearchIndex({ keyword: ['id'] }, { sliceMs: 0 });
    const reference = new SearchIndex({ keyword: ['id'] });
    for (let i = 0; i < 3000; i++) {
      const doc = { name: `word${i} frances${i % 7}` };
      sliced.put(`d${i}`, doc);
      reference.put(`d${i}`, doc);
    }
    const request = { query: { fuzzy: { name: { value: 'word123', fuzziness: 2 } } }, from: 0, size: 20 };
    const answer = sliced.searchSliced(request);
    expect(answer).toBeInstanceOf(Promise);
    const result = (await answer) as SearchResult;
    expect(result).toEqual(reference.search(request));
    expect(result.total).toBeGreaterThan(10);
  });
});

describe('fuzziness on match and multi_match (MatchQueryParser.newTermQuery)', () => {
  it('makes each analyzed token a fuzzy query, its distance from its own length', () => {
    // "FRNACE guiana": frnace (6 code points, 2 edits) and guiana (exact, 0 edits away)
    const france = f(1 - f(1 / 6));
    const both = scores({ match: { name: { query: 'FRNACE guiana', fuzziness: 'AUTO' } } });
    expect(both.map((s) => s[0])).toEqual(['4', '5', '1', '2', '3']);
    // the tokens' terms are one flat disjunction, as Lucene rewrites the fuzzy queries inside the boolean query
    const flat = scores({
      bool: {
        should: [
          { term: { name: 'guiana' } },
          { fuzzy: { name: { value: 'frnace', fuzziness: 2 } } },
        ],
      },
    });
    expect(both).toEqual(flat);
    expect(scores({ match: { name: { query: 'frnace', fuzziness: 1 } } })).toEqual([
      ['5', expectedScore({ ...NAME, n: 2, freq: 2, dl: 2, boost: france })],
      ['1', expectedScore({ ...NAME, n: 2, freq: 1, dl: 1, boost: france })],
    ]);
  });

  it('takes prefix_length, max_expansions, fuzzy_transpositions and fuzzy_rewrite', () => {
    const match = (params: Record<string, unknown>) => ids({ match: { name: { query: 'frnace', fuzziness: 'AUTO', ...params } } });
    expect(match({ max_expansions: 1 })).toEqual(['5', '1']);
    expect(match({ fuzzy_transpositions: false, fuzziness: 1 })).toEqual([]);
    expect(match({ prefix_length: 3 })).toEqual([]);
    expect(scores({ match: { name: { query: 'frnace', fuzziness: 'AUTO', fuzzy_rewrite: 'constant_score' } } }).map((s) => s[1])).toEqual([1, 1, 1, 1]);
    expect(search({ match: { name: { query: 'frnace guiana', fuzziness: 'AUTO', operator: 'and' } } }).total).toBe(0);
    expect(search({ match: { name: { query: 'frnace guiana', fuzziness: 'AUTO', minimum_should_match: 1 } } }).total).toBe(5);
  });

  it('on keyword fields fuzzes the whole value; other types are refused unless lenient', () => {
    expect(ids({ match: { 'name.keyword': { query: 'Frence', fuzziness: 1 } } })).toEqual(['1']);
    expect(() => search({ match: { population: { query: 68, fuzziness: 1 } } })).toThrow('Can only use fuzzy queries on keyword and text fields - not on [population] which is of type [long]');
    expect(search({ match: { population: { query: 68, fuzziness: 1, lenient: true } } }).total).toBe(0);
    expect(() => search({ match: { name: { query: 'x', fuzziness: 5 } } })).toThrow('Valid edit distances are [0, 1, 2] but was [5]');
  });

  it('counts the terms the tokens expand to against MAX_CLAUSE_COUNT, all together', () => {
    const small = new SearchIndex({ keyword: ['id'] }, { limits: { ...DEFAULT_LIMITS, maxClauseCount: 3 } });
    small.put('1', { name: 'cat cot cut' });
    small.put('2', { name: 'dog dig dug' });
    // each token expands to its 3 terms (capped at 3), 6 leaf clauses in all
    expect(() => small.search({ query: { match: { name: { query: 'cat dog', fuzziness: 1 } } }, from: 0, size: 10 })).toThrow(QueryLimitError);
    expect(small.search({ query: { match: { name: { query: 'cat', fuzziness: 1 } } }, from: 0, size: 10 }).total).toBe(1);
  });


  it('multi_match: per field, lenient on *, refused for phrase types', () => {
    expect(ids({ multi_match: { query: 'frnace', fields: ['name', 'code'], fuzziness: 'AUTO' } })).toEqual(['5', '1', '2', '3']);
    expect(ids({ multi_match: { query: 'FX', fields: ['code.keyword'], fuzziness: 1 } })).toEqual(['1', '2', '3', '5']); // FR FS FI FF: one edit each, equal scores
    expect(search({ multi_match: { query: 'frnace', fuzziness: 1 } }).total).toBe(2); // "*" is lenient: population is skipped
    expect(() => search({ multi_match: { query: 'frnace', fields: ['name', 'population'], fuzziness: 1 } })).toThrow('Can only use fuzzy queries');
    for (const type of ['phrase', 'phrase_prefix', 'cross_fields']) {
      expect(() => search({ multi_match: { query: 'x', fields: ['name'], type, fuzziness: 1 } })).toThrow(`Fuzziness not allowed for type [${type}]`);
    }
  });
});
