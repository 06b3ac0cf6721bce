import { QueryLimitError } from '../../../port';
import { floatToJson } from '../fieldValues';
import { DEFAULT_LIMITS } from '../limits';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, indexAll } from '../testing';

const f = Math.fround;
/** A float score as a hit shows it (the shortest decimal of the float). */
const j = (x: number) => floatToJson(f(x));
const index = indexAll(new SearchIndex(), COUNTRIES);
const hits = (query: Record<string, unknown>, filter?: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }, filter).hits.map((h) => [h._id, h._score]);
const scoreOf = (query: Record<string, unknown>, id: string) => index.search({ query, from: 0, size: 10 }).hits.find((h) => h._id === id)?._score;

// the match the functions wrap: France 1.1727304, French Guiana 0.9066489 (BM25, pinned in match.test.ts)
const MATCH = { match: { name: 'france french' } };
const FRANCE = 1.1727304;
const GUIANA = 0.9066489;

describe('function_score', () => {
  it('without functions scores as its query (match_all by default)', () => {
    expect(hits({ function_score: { query: MATCH } })).toEqual([
      ['1', FRANCE],
      ['2', GUIANA],
    ]);
    expect(hits({ function_score: {} })).toEqual([
      ['1', 1],
      ['2', 1],
      ['3', 1],
    ]);
  });

  it('field_value_factor: modifier(value * factor) times the query score (boost_mode multiply)', () => {
    // France: population 68, log10(68 * 1 + 2) = 1.845098040014257; 1.1727304 * that, rounded to float
    expect(scoreOf({ function_score: { query: MATCH, field_value_factor: { field: 'population', modifier: 'log2p' } } }, '1')).toBe(j(f(FRANCE) * Math.log10(70)));
    expect(scoreOf({ function_score: { query: MATCH, field_value_factor: { field: 'population', modifier: 'log2p' } } }, '1')).toBe(2.1638026);
    // Guiana: population 0, ln(0 + 2) (ln2p)
    expect(scoreOf({ function_score: { query: MATCH, field_value_factor: { field: 'population', modifier: 'ln2p' } } }, '2')).toBe(j(f(GUIANA) * Math.log1p(1)));
    // factor is a float: area 551.5 * 0.1f, square
    expect(scoreOf({ function_score: { field_value_factor: { field: 'area', factor: 0.1, modifier: 'square' }, boost_mode: 'replace' } }, '1')).toBe(j(Math.pow(551.5 * f(0.1), 2)));
    expect(scoreOf({ function_score: { field_value_factor: { field: 'area', modifier: 'sqrt' }, boost_mode: 'replace' } }, '3')).toBe(j(Math.sqrt(1221)));
    expect(scoreOf({ function_score: { field_value_factor: { field: 'area', modifier: 'reciprocal' }, boost_mode: 'replace' } }, '2')).toBe(j(1 / 83.5));
  });

  it('field_value_factor: missing values, unmapped fields and negative results', () => {
    // South Africa has no tags; "missing" stands in for the value; an unmapped field with "missing" scores it everywhere
    expect(hits({ function_score: { field_value_factor: { field: 'nope', missing: 4 }, boost_mode: 'replace' } })).toEqual([
      ['1', 4],
      ['2', 4],
      ['3', 4],
    ]);
    expect(() => hits({ function_score: { field_value_factor: { field: 'nope' } } })).toThrow('unable to find a field mapper for field [nope]');
    expect(() => hits({ function_score: { field_value_factor: { field: 'name' } } })).toThrow('field [name] of type [text] is not numeric');
    expect(() => hits({ function_score: { field_value_factor: { field: 'population', modifier: 'ln' } } })).toThrow('consider using ln1p or ln2p');
    expect(() => hits({ function_score: { field_value_factor: { field: 'population', modifier: 'cube' } } })).toThrow('must be one of none, log, log1p');
  });

  it('gauss, exp and linear decays on numbers, with offset and decay', () => {
    // area 551.5, origin 500, offset 20: distance 31.5; gauss scale 100 decay 0.5: exp(0.5 * 31.5^2 / (0.5 * 100^2 / ln 0.5))
    const gaussScale = (0.5 * 100 * 100) / Math.log(0.5);
    expect(scoreOf({ function_score: { gauss: { area: { origin: 500, scale: 100, offset: 20 } }, boost_mode: 'replace' } }, '1')).toBe(j(Math.exp((0.5 * 31.5 * 31.5) / gaussScale)));
    expect(scoreOf({ function_score: { gauss: { area: { origin: 500, scale: 100, offset: 20 } }, boost_mode: 'replace' } }, '1')).toBe(0.9335343);
    // exp, decay 0.25: exp(ln(0.25) / 100 * 31.5)
    expect(scoreOf({ function_score: { exp: { area: { origin: 500, scale: 100, offset: 20, decay: 0.25 } }, boost_mode: 'replace' } }, '1')).toBe(j(Math.exp((Math.log(0.25) / 100) * 31.5)));
    // linear: (200 - 31.5) / 200 = 0.8425; beyond 2 * scale: 0
    expect(hits({ function_score: { linear: { area: { origin: 500, scale: 100, offset: 20 } }, boost_mode: 'replace' } })).toEqual([
      ['1', 0.8425],
      ['2', 0],
      ['3', 0],
    ]);
  });

  it('decays on dates: origin date math, scale and offset as time values; multi_value_mode', () => {
    // created 1958-10-04, origin 1958-10-14: 10 days; gauss scale 10d: 0.5 exactly at the scale
    expect(scoreOf({ function_score: { gauss: { created: { origin: '1958-10-14', scale: '10d' } }, boost_mode: 'replace' } }, '1')).toBe(0.5);
    expect(scoreOf({ function_score: { exp: { created: { origin: '1958-10-04||+20d', scale: '10d', offset: '240h' } }, boost_mode: 'replace' } }, '1')).toBe(0.5);
    expect(scoreOf({ function_score: { linear: { created: { origin: '1958-10-04', scale: '1d' } }, boost_mode: 'replace' } }, '1')).toBe(1);
    expect(() => hits({ function_score: { gauss: { created: { origin: 'now', scale: '1.5d' } } } })).toThrow('fractional time values are not supported');
    expect(() => hits({ function_score: { gauss: { created: { origin: 'now', scale: '10' } } } })).toThrow('unit is missing or unrecognized');
    expect(() => hits({ function_score: { gauss: { created: { origin: 'now' } } } })).toThrow('[scale] must be set for date fields');
    const multi = indexAll(new SearchIndex(), [
      ['a', { n: [10, 30] }],
      ['b', { x: 1 }],
    ]);
    const score = (mode: string, id: string) =>
      multi.search({ query: { function_score: { linear: { n: { origin: 0, scale: 20 }, multi_value_mode: mode }, boost_mode: 'replace' } }, from: 0, size: 10 }).hits.find((h) => h._id === id)?._score;
    // scale 20 decay 0.5: processed 40; min 10 -> 0.75, max 30 -> 0.25, avg 20 -> 0.5, sum 40 -> 0; no value: distance 0 -> 1
    expect([score('min', 'a'), score('max', 'a'), score('avg', 'a'), score('sum', 'a'), score('median', 'a'), score('min', 'b')]).toEqual([0.75, 0.25, 0.5, 0, 0.5, 1]);
  });

  it('decay refusals', () => {
    expect(() => hits({ function_score: { gauss: { area: { origin: 1 } } } })).toThrow('both [scale] and [origin] must be set');
    expect(() => hits({ function_score: { gauss: { area: { origin: 1, scale: 0 } } } })).toThrow('scale must be > 0.0');
    expect(() => hits({ function_score: { gauss: { area: { origin: 1, scale: 1, decay: 1 } } } })).toThrow('decay must be in the range');
    expect(() => hits({ function_score: { gauss: { area: { origin: 1, scale: 1, pivot: 1 } } } })).toThrow('parameter "pivot" not supported');
    expect(() => hits({ function_score: { gauss: { name: { origin: 1, scale: 1 } } } })).toThrow('only numeric types are supported');
    expect(() => hits({ function_score: { gauss: { nope: { origin: 1, scale: 1 } } } })).toThrow('unknown field [nope]');
    expect(() => hits({ function_score: { gauss: { area: { origin: 1, scale: 1 }, population: {} } } })).toThrow('takes one field');
  });

  it('weight, filtered functions, score_mode and boost_mode', () => {
    const functions = [
      { filter: { term: { eu: true } }, weight: 3 },
      { filter: { range: { population: { gte: 60 } } }, weight: 2 },
    ];
    const factor = (mode: string) => hits({ function_score: { functions, score_mode: mode, boost_mode: 'replace' } });
    // France matches both (3, 2), Guiana the first (3), South Africa the second (2)
    expect(factor('multiply')).toEqual([['1', 6], ['2', 3], ['3', 2]]);
    expect(factor('sum')).toEqual([['1', 5], ['2', 3], ['3', 2]]);
    // avg divides by the weights of the functions that matched: (3 + 2) / (3 + 2) = 1, 3 / 3, 2 / 2
    expect(factor('avg')).toEqual([['1', 1], ['2', 1], ['3', 1]]);
    expect(factor('first')).toEqual([['1', 3], ['2', 3], ['3', 2]]);
    expect(factor('max')).toEqual([['1', 3], ['2', 3], ['3', 2]]);
    expect(factor('min')).toEqual([['2', 3], ['1', 2], ['3', 2]]);
    // no function matches: factor 1
    expect(hits({ function_score: { query: MATCH, functions: [{ filter: { term: { eu: false } }, weight: 5 }, { filter: { ids: { values: ['3'] } }, weight: 7 }] } })).toEqual([['1', FRANCE], ['2', GUIANA]]);
    const combined = (mode: string) => hits({ function_score: { query: MATCH, weight: 2, boost_mode: mode } });
    expect(combined('multiply')).toEqual([['1', j(FRANCE * 2)], ['2', j(GUIANA * 2)]]);
    expect(combined('sum')).toEqual([['1', j(FRANCE + 2)], ['2', j(GUIANA + 2)]]);
    expect(combined('avg')).toEqual([['1', j((2 + FRANCE) / 2)], ['2', j((2 + GUIANA) / 2)]]);
    expect(combined('max')).toEqual([['1', 2], ['2', 2]]);
    expect(combined('min')).toEqual([['1', FRANCE], ['2', GUIANA]]);
    // a single function without filter is scored "first" whatever score_mode says (weight 2, avg: 2, not 1)
    expect(hits({ function_score: { query: MATCH, functions: [{ weight: 2 }], score_mode: 'avg', boost_mode: 'replace' } })).toEqual([['1', 2], ['2', 2]]);
  });

  it('max_boost caps the factor, min_score drops documents, boost multiplies the query score', () => {
    expect(hits({ function_score: { query: MATCH, weight: 10, max_boost: 1.5, boost_mode: 'replace' } })).toEqual([['1', 1.5], ['2', 1.5]]);
    expect(hits({ function_score: { query: MATCH, min_score: 1 } })).toEqual([['1', FRANCE]]);
    expect(index.search({ query: { function_score: { query: MATCH, min_score: 1 } }, from: 0, size: 10 }).total).toBe(1);
    expect(index.count({ function_score: { query: MATCH, min_score: 1 } })).toBe(1);
    // the boost goes to the sub-query (FunctionScoreQuery.createWeight): replace ignores it
    expect(hits({ function_score: { query: MATCH, weight: 3, boost_mode: 'replace', boost: 2 } })).toEqual([['1', 3], ['2', 3]]);
    expect(scoreOf({ function_score: { query: MATCH, weight: 3, boost: 2 } }, '1')).toBe(scoreOf({ function_score: { query: { match: { name: { query: 'france french', boost: 2 } } }, weight: 3 } }, '1'));
  });

  it('random_score: deterministic per seed, in [0, 1)', () => {
    const run = (seed: unknown, field?: string) => hits({ function_score: { random_score: field === undefined ? { seed } : { seed, field }, boost_mode: 'replace' } });
    const a = run(42);
    expect(run(42)).toEqual(a);
    expect(run(43)).not.toEqual(a);
    for (const [, score] of a) expect(score).toBeGreaterThanOrEqual(0), expect(score).toBeLessThan(1);
    expect(run('42')).toEqual(run('42'));
    expect(run(7, 'code.keyword')).toEqual(run(7, 'code.keyword'));
    expect(() => run(1.5)).toThrow('"seed"');
    expect(() => run(1, 'area')).toThrow('cannot seed random scores');
    expect(() => hits({ function_score: { random_score: { field: '_id' } } })).toThrow('"field" needs a "seed"');
    expect(hits({ function_score: { random_score: {} } })).toHaveLength(3);
  });

  it('refuses scripts, unknown parameters and malformed function lists', () => {
    expect(() => hits({ function_score: { script_score: { script: { source: '1' } } } })).toThrow('scripts are not allowed');
    expect(() => hits({ function_score: { functions: [{ script_score: { script: 'x' } }] } })).toThrow('scripts are not allowed');
    expect(() => hits({ function_score: { filter: { match_all: {} } } })).toThrow('unsupported parameter "filter" for [function_score]');
    expect(() => hits({ function_score: { functions: [{ filter: { match_all: {} } }] } })).toThrow('missing a function');
    expect(() => hits({ function_score: { functions: [{ weight: 1, random_score: {}, field_value_factor: { field: 'area' } }] } })).toThrow('already found function [random_score]');
    expect(() => hits({ function_score: { functions: [], weight: 1, random_score: {} } })).toThrow('already found [functions] array');
    expect(() => hits({ function_score: { functions: {} } })).toThrow('must be an array');
    expect(() => hits({ function_score: { score_mode: 'median' } })).toThrow('score_mode');
    expect(() => hits({ function_score: { boost_mode: 'first' } })).toThrow('boost_mode');
    expect(() => hits({ function_score: { weight: -1, boost_mode: 'replace' } })).toThrow('invalid score');
  });

  it('never shows or counts what the caller filter excludes (filtered functions included)', () => {
    const tenant = { terms: { 'code.keyword': ['FR', 'GF'] } };
    const query = { function_score: { functions: [{ filter: { term: { eu: false } }, weight: 100 }, { filter: { match_all: {} }, weight: 1 }], score_mode: 'sum' } };
    expect(hits(query, tenant)).toEqual([
      ['1', 1],
      ['2', 1],
    ]);
    expect(index.search({ query, from: 0, size: 10 }, tenant).total).toBe(2);
    expect(index.search({ query: { function_score: { query: { ids: { values: ['3'] } }, weight: 5 } }, from: 0, size: 10 }, tenant).total).toBe(0);
  });

  it('nested queries count against the limits', () => {
    const limited = indexAll(new SearchIndex(undefined, { limits: { ...DEFAULT_LIMITS, maxClauseCount: 3, maxQueryDepth: 3 } }), COUNTRIES);
    const many = { bool: { should: [{ term: { code: 'a' } }, { term: { code: 'b' } }, { term: { code: 'c' } }] } };
    expect(() => limited.search({ query: { function_score: { query: { match_all: {} }, functions: [{ filter: many, weight: 2 }] } }, from: 0, size: 1 })).toThrow(QueryLimitError);
    const deep = { function_score: { query: { function_score: { query: { function_score: { query: { match_all: {} } } } } } } };
    expect(() => limited.search({ query: deep, from: 0, size: 1 })).toThrow(QueryLimitError);
  });
});
