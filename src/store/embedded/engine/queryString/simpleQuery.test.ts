import { DEFAULT_LIMITS } from '../limits';
import { IndexMapping } from '../mapping';
import { CONSTANT_SCORE } from '../query/leaves';
import { SimpleFlag, parseSimple } from './simpleParser';
import { SimpleSettings, simpleQuery } from './simpleQuery';
import { printQuery } from './testing/printQuery';

const mapping = new IndexMapping({ text: ['name', 'desc'], keyword: ['code'], long: ['population'] });
const build = { mapping, now: 0, limits: DEFAULT_LIMITS };
const SETTINGS: SimpleSettings = {
  fields: new Map([['name', 1]]),
  operator: 'or',
  lenient: null,
  analyzeWildcard: false,
  quoteFieldSuffix: null,
  minimumShouldMatch: null,
  env: { rewrite: CONSTANT_SCORE, timeZone: null, maxDeterminizedStates: null, where: 'query' },
  fuzzy: { prefixLength: 0, maxExpansions: 50, transpositions: true },
};
const query = (text: string, settings: Partial<SimpleSettings> = {}, flags: number = SimpleFlag.ALL) => printQuery(simpleQuery(build, parseSimple(text, flags, DEFAULT_LIMITS), { ...SETTINGS, ...settings }));

describe('simple_query_string: the query of the scanned steps', () => {
  it('applies operators left to right, each change of operation wrapping what came before', () => {
    expect(query('a b')).toBe('name:a name:b');
    expect(query('a | b + c')).toBe('+(name:a name:b) +name:c');
    expect(query('a b', { operator: 'and' })).toBe('+name:a +name:b');
    expect(query('a +b c')).toBe('(+name:a +name:b) name:c');
  });

  it('negates with a match_all beside: `-a` is -a *:*', () => {
    expect(query('-a')).toBe('-name:a *:*');
    expect(query('b -a')).toBe('name:b (-name:a *:*)');
  });

  it('skips pieces that give no query, and keeps the operation for the next one', () => {
    expect(query('a + -- b')).toBe('+name:a +name:b');
    expect(query('---')).toBe('MatchNoDocsQuery');
    expect(query('')).toBe('MatchNoDocsQuery');
    expect(query('*')).toBe('*:*');
  });

  it('sums the fields of terms, prefixes and fuzzy terms, and takes the best field of phrases', () => {
    const fields = new Map([['name', 2], ['code', 1]]);
    expect(query('Fr', { fields })).toBe('((name:fr)^2 | code:Fr)~1');
    expect(query('Fr*', { fields })).toMatch(/^\(\(prefix:\["fr",false\].*\)\^2 \| prefix:\["Fr",false\].*\)~1$/);
    expect(query('Fr~1', { fields })).toBe('((fuzzy:["fr",1,0,true]:top_terms_blended_freqs_50:"name")^2 | fuzzy:["Fr",1,0,true]:top_terms_blended_freqs_50:"code")~1');
    expect(query('"new york"', { fields })).toBe('((name:"new york")^2 | code:new york)~0');
    expect(query('"new york"', { fields: new Map([['name', 1]]), quoteFieldSuffix: '.keyword' })).toBe('name:"new york"');
  });

  it('runs on every field when none is given, leniently', () => {
    expect(query('x', { fields: null })).toBe('(code:x | name:x | desc:x | MatchNoDocsQuery)~1');
    expect(() => query('x', { fields: new Map([['population', 1]]) })).toThrow('not a valid long');
  });

  it('applies minimum_should_match to the top boolean query', () => {
    expect(query('a b c', { minimumShouldMatch: '2' })).toBe('name:a name:b name:c~2');
    expect(query('a', { minimumShouldMatch: '2' })).toBe('name:a');
  });

  it('reads operators as text when their flags are off', () => {
    expect(query('new york', {}, SimpleFlag.NONE)).toBe('name:new name:york');
    expect(query('a+b', {}, SimpleFlag.WHITESPACE)).toBe('name:a name:b');
  });
});
