import { luceneString } from '../explain/luceneString';
import { DEFAULT_LIMITS } from '../limits';
import { compileMatcher } from '../matcher';
import { SearchIndex } from '../searchIndex';
import { parseQuery } from './parse';

const DOCS: Record<string, string> = {
  a: 'the quick brown fox jumps over the lazy dog',
  b: 'quick fox',
  c: 'fox quick brown',
  d: 'a quick little brown fox',
};
const index = new SearchIndex();
for (const [id, body] of Object.entries(DOCS)) index.put(id, { body, code: id.toUpperCase() });
const search = (query: Record<string, unknown>, filter?: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }, filter);
const hits = (rule: Record<string, unknown>) => search({ intervals: { body: rule } }).hits.map((h) => [h._id, h._score]);
const ids = (rule: Record<string, unknown>) => hits(rule).map(([id]) => id);
const built = (rule: Record<string, unknown>) => luceneString(parseQuery({ intervals: { body: rule } }).toLucene({ mapping: index.mappingCopy(), now: 0, limits: DEFAULT_LIMITS }));

describe('intervals', () => {
  it('match: unordered by default, ordered, a phrase with ordered and max_gaps 0; scored boost * S / (S + 1)', () => {
    // b: "quick fox" (width 2, minExtent 2: S = 1, score 1/2); c: "fox quick" (S = 1); a: quick brown fox (S = 1/2, 1/3); d: 1/3 -> 1/4
    expect(hits({ match: { query: 'quick fox' } })).toEqual([
      ['b', 0.5],
      ['c', 0.5],
      ['a', 0.3333333],
      ['d', 0.25],
    ]);
    expect(ids({ match: { query: 'quick fox', ordered: true } })).toEqual(['b', 'a', 'd']);
    expect(ids({ match: { query: 'quick fox', ordered: true, max_gaps: 1 } })).toEqual(['b', 'a']);
    expect(ids({ match: { query: 'quick brown', ordered: true, max_gaps: 0 } })).toEqual(['a', 'c']);
    expect(built({ match: { query: 'quick brown', ordered: true, max_gaps: 0 } })).toBe('body:BLOCK(quick,brown)');
    expect(built({ match: { query: 'quick fox quick', max_gaps: 2 } })).toBe('body:MAXGAPS/2(UNORDERED(quick,quick,fox))');
    expect(search({ intervals: { body: { match: { query: 'quick fox' }, boost: 2 } } }).hits[0]._score).toBe(1);
  });

  it('prefix, wildcard and fuzzy expand to the terms of the field (normalized by the analyzer)', () => {
    expect(ids({ prefix: { prefix: 'JUM' } })).toEqual(['a']);
    expect(ids({ wildcard: { pattern: 'f?x' } }).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(ids({ fuzzy: { term: 'quikc' } }).sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(ids({ fuzzy: { term: 'quikc', transpositions: false } })).toEqual([]);
    expect(ids({ fuzzy: { term: 'lazzy', fuzziness: 1, prefix_length: 2 } })).toEqual(['a']);
    expect(ids({ all_of: { ordered: true, intervals: [{ prefix: { prefix: 'qu' } }, { wildcard: { pattern: 'b*n' } }], max_gaps: 0 } }).sort()).toEqual(['a', 'c']);
  });

  it('all_of, any_of and the filters', () => {
    const quickFox = { all_of: { ordered: true, intervals: [{ match: { query: 'quick' } }, { match: { query: 'fox' } }] } };
    expect(ids(quickFox)).toEqual(['b', 'a', 'd']);
    expect(ids({ any_of: { intervals: [{ match: { query: 'lazy dog' } }, { match: { query: 'little' } }] } }).sort()).toEqual(['a', 'd']);
    const filtered = (type: string, query: string) => ids({ all_of: { ...quickFox.all_of, filter: { [type]: { match: { query } } } } }).sort();
    expect(filtered('not_containing', 'brown')).toEqual(['b']);
    expect(filtered('containing', 'little')).toEqual(['d']);
    expect(filtered('before', 'lazy')).toEqual(['a']);
    expect(filtered('after', 'the')).toEqual(['a']);
    expect(filtered('overlapping', 'brown')).toEqual(['a', 'd']);
    expect(filtered('not_overlapping', 'brown')).toEqual(['b']);
    expect(ids({ match: { query: 'brown', filter: { contained_by: quickFox } } }).sort()).toEqual(['a', 'd']);
    expect(ids({ match: { query: 'brown', filter: { not_contained_by: quickFox } } })).toEqual(['c']);
  });

  it('use_field reads another field, analyzer analyzes the text', () => {
    const other = new SearchIndex();
    other.put('x', { title: 'Quick Fox', body: 'slow turtle' });
    expect(other.search({ query: { intervals: { body: { match: { query: 'quick fox', use_field: 'title', ordered: true } } } }, from: 0, size: 10 }).total).toBe(1);
    expect(other.search({ query: { intervals: { body: { match: { query: 'Quick Fox', analyzer: 'whitespace' } } } }, from: 0, size: 10 }).total).toBe(0);
    expect(other.search({ query: { intervals: { body: { match: { query: 'quick', use_field: 'nothing' } } } }, from: 0, size: 10 }).total).toBe(0);
  });

  it("analyzes with the field's search analyzer (the use_field's for a rule reading another field)", () => {
    const english = new SearchIndex();
    english.declareMapping({ dynamic: 'true', properties: { body: { type: 'text', analyzer: 'english' }, raw: { type: 'text', analyzer: 'whitespace' } } });
    english.put('x', { body: 'the runner was running races', raw: 'Running Races' });
    const total = (rule: Record<string, unknown>, field = 'body') => english.search({ query: { intervals: { [field]: rule } }, from: 0, size: 10 }).total;
    // english: "runs" and "running" are "run", "race" and "races" "race"; the stop word "the" leaves a gap
    expect(total({ match: { query: 'runs race', ordered: true, max_gaps: 0 } })).toBe(1);
    expect(total({ prefix: { prefix: 'RUN' } })).toBe(1); // normalized (lower-cased) by the english analyzer
    // whitespace keeps case: "Running" is a term of raw, "running" is not
    expect(total({ match: { query: 'Running Races', ordered: true } }, 'raw')).toBe(1);
    expect(total({ match: { query: 'running' } }, 'raw')).toBe(0);
    expect(total({ match: { query: 'running races', use_field: 'body', ordered: true } }, 'raw')).toBe(1);
  });

  it('an unmapped field matches nothing; a field that is not text, or a bad rule, is a 400', () => {
    expect(search({ intervals: { nothing: { match: { query: 'fox' } } } }).total).toBe(0);
    expect(() => search({ intervals: { 'code.keyword': { match: { query: 'fox' } } } })).toThrow('Can only use interval queries on text fields - not on [code.keyword] which is of type [keyword]');
    expect(() => search({ intervals: { body: { regexp: { pattern: 'f.x' } } } })).toThrow('Unknown interval type [regexp]');
    expect(() => search({ intervals: { body: { match: { query: 'a' }, prefix: { prefix: 'b' } } } })).toThrow('Only one interval rule can be specified, found [match] and [prefix]');
    expect(() => search({ intervals: { body: { boost: 2 } } })).toThrow('Missing intervals from interval query definition');
    expect(() => search({ intervals: { body: { match: { query: 'a', filter: { near: { match: { query: 'b' } } } } } } })).toThrow('Unknown filter type [near]');
    expect(() => search({ intervals: { body: { match: { query: 'a', filter: { script: { source: 'true' } } } } } })).toThrow('scripts are not allowed');
    expect(() => search({ intervals: { body: { all_of: { intervals: [] } } } })).toThrow('must be a non-empty array');
    expect(() => search({ intervals: { body: { match: { query: 'a', slop: 2 } } } })).toThrow('unsupported parameter "slop"');
    expect(() => search({ intervals: { body: { match: { query: 'a', analyzer: 'french' } } } })).toThrow('analyzer [french] not found');
    expect(() => search({ intervals: { body: {}, title: {} } })).toThrow('exactly one field');
    expect(() => search({ intervals: { body: { match: { query: 'fox', filter: { containing: { match: { query: 'a', use_field: 'nothing' } } } } } } })).toThrow('no mapping for field [nothing]');
  });

  it('a pattern expanding to more terms than MAX_CLAUSE_COUNT is a 400', () => {
    const many = new SearchIndex({}, { limits: { ...DEFAULT_LIMITS, maxClauseCount: 3 } });
    many.put('x', { body: 'fa fb fc fd' });
    expect(() => many.search({ query: { intervals: { body: { prefix: { prefix: 'f' } } } }, from: 0, size: 10 })).toThrow('Automaton [f*] expanded to too many terms (limit 3)');
  });

  it('explains with the saturation function, its value the score', () => {
    const result = index.search({ query: { intervals: { body: { match: { query: 'quick fox' } } } }, from: 0, size: 10, explain: true });
    for (const hit of result.hits) expect(hit._explanation?.value).toBe(hit._score);
    const a = result.hits.find((h) => h._id === 'a')?._explanation;
    expect(a?.description).toBe('Saturation function on interval frequency, computed as w * S / (S + k) from:');
    expect(a?.details.map((d) => [d.description, d.value])).toEqual([
      ['w, weight of this function', 1],
      ['k, pivot feature value that would give a score contribution equal to w/2', 1],
      ['S, the sloppy frequency of the interval query body:UNORDERED(quick,fox)', 0.5],
    ]);
  });

  it('never shows or counts what the caller filter excludes; live subscriptions match as searches', () => {
    const result = search({ intervals: { body: { match: { query: 'quick fox' } } } }, { ids: { values: ['c', 'd'] } });
    expect(result.hits.map((h) => h._id)).toEqual(['c', 'd']);
    expect(result.total).toBe(2);
    const matches = compileMatcher({ intervals: { body: { match: { query: 'quick fox', ordered: true, max_gaps: 1 } } } }, () => index.mappingCopy());
    expect(matches({ body: 'a quick red fox' })).toBe(true);
    expect(matches({ body: 'a quick red old fox' })).toBe(false);
  });
});
