import { DEFAULT_LIMITS } from '../limits';
import { IndexMapping } from '../mapping';
import { CONSTANT_SCORE } from '../query/leaves';
import { parseTimeZone } from '../dates';
import { parseClassic } from './classicParser';
import { ClassicSettings, classicQuery, fixNegativeQuery } from './classicQuery';
import { printQuery } from './testing/printQuery';
import { booleanQuery, termQuery } from '../lucene/query';

const mapping = new IndexMapping({ text: ['name', 'desc'], keyword: ['code'], long: ['population'], date: ['at'] });
const build = { mapping, now: 0, limits: DEFAULT_LIMITS };
const SETTINGS: ClassicSettings = {
  defaultField: 'name',
  fields: null,
  operator: 'or',
  type: 'best_fields',
  tieBreaker: null,
  phraseSlop: 0,
  quoteFieldSuffix: null,
  allowLeadingWildcard: true,
  analyzeWildcard: false,
  lenient: null,
  minimumShouldMatch: null,
  env: { rewrite: CONSTANT_SCORE, timeZone: null, maxDeterminizedStates: null, where: 'query' },
  fuzzy: { prefixLength: 0, maxExpansions: 50, transpositions: true },
};
const query = (text: string, settings: Partial<ClassicSettings> = {}) =>
  printQuery(classicQuery(build, parseClassic(text, { fuzzyDistance: (image) => (image === '~' ? 2 : Number(image.slice(1))), limits: DEFAULT_LIMITS }), { ...SETTINGS, ...settings }));

describe('query_string: the query of the parsed syntax', () => {
  it('combines clauses as QueryParserBase.addClause does, for both default operators', () => {
    expect(query('a b')).toBe('name:a name:b');
    expect(query('a AND b OR c')).toBe('+name:a +name:b name:c');
    expect(query('a b', { operator: 'and' })).toBe('+name:a +name:b');
    expect(query('a OR b c', { operator: 'and' })).toBe('name:a name:b +name:c');
    expect(query('-a OR b', { operator: 'and' })).toBe('-name:a name:b');
    expect(query('+a b -c')).toBe('+name:a name:b -name:c');
  });

  it('keeps a single clause as it is, and flattens a multi-term text into the clauses', () => {
    expect(query('a')).toBe('name:a');
    expect(query('new york OR c')).toBe('name:new name:york name:c');
    expect(query('code:(FR DE)')).toBe('code:FR DE');
    expect(query('(a)^2')).toBe('(name:a)^2');
  });

  it('lets a purely negative query match everything else, at every level', () => {
    expect(query('-a')).toBe('-name:a #*:*');
    expect(query('b (-a -c)')).toBe('name:b (-name:a -name:c #*:*)');
    expect(printQuery(fixNegativeQuery(booleanQuery([{ occur: 'should', query: termQuery('f', 'x') }])))).toBe('f:x');
  });

  it('applies minimum_should_match to the top boolean query, under its boosts', () => {
    expect(query('a b c', { minimumShouldMatch: '2' })).toBe('name:a name:b name:c~2');
    expect(query('(a b c)^3', { minimumShouldMatch: '-1' })).toBe('(name:a name:b name:c~2)^3');
    expect(query('a', { minimumShouldMatch: '2' })).toBe('name:a');
  });

  it('runs on fields: a dis_max of each, with the type\'s tie breaker', () => {
    const fields = new Map([['name', 2], ['desc', 1]]);
    expect(query('a', { defaultField: null, fields })).toBe('((name:a)^2 | desc:a)~0');
    expect(query('a', { defaultField: null, fields, type: 'most_fields' })).toBe('((name:a)^2 | desc:a)~1');
    expect(query('a', { defaultField: null, fields, tieBreaker: 0.3 })).toBe(`((name:a)^2 | desc:a)~${Math.fround(0.3)}`);
    expect(query('new york', { defaultField: null, fields, type: 'phrase' })).toBe('((name:"new york")^2 | desc:"new york")~0');
    expect(query('desc:a', { defaultField: null, fields })).toBe('desc:a');
    expect(query('d\\*:a', { defaultField: null, fields })).toBe('desc:a');
    expect(query('nope:a')).toBe('MatchNoDocsQuery');
  });

  it('runs on every field for `*` (the default), leniently', () => {
    expect(query('a', { defaultField: '*' })).toBe('(code:a | MatchNoDocsQuery | name:a | desc:a | MatchNoDocsQuery)~0');
    expect(query('*')).toBe('exists:"name"');
    expect(query('*', { defaultField: '*' })).toBe('*:*');
    expect(() => query('population:many')).toThrow('not a valid long');
    expect(query('population:many', { lenient: true })).toBe('MatchNoDocsQuery');
  });

  it('reads field:>x, >=, <, <= as ranges, `_exists_:` as exists, dates with a time zone as their range', () => {
    expect(query('population:>10')).toBe('range:["population",10,false,null,true]');
    expect(query('population:<=10')).toBe('range:["population",null,true,10,true]');
    expect(query('name:>=b')).toBe('termRange:["b",true,null,true]:"name"');
    expect(query('_exists_:code')).toBe('exists:"code"');
    const day = Date.UTC(2024, 0, 5) - 3600_000;
    expect(query('at:2024-01-05', { env: { ...SETTINGS.env, timeZone: parseTimeZone('+01:00', 'tz') } })).toBe(`range:["at",${day},true,${day + 86_400_000 - 1},true]`);
  });

  it('uses the phrase slop by default and quote_field_suffix for quoted text', () => {
    expect(query('"new york"', { phraseSlop: 2 })).toBe('name:"new york"~2');
    expect(query('"new york"~1', { phraseSlop: 2 })).toBe('name:"new york"~1');
    expect(query('"New York" new', { defaultField: null, fields: new Map([['name', 1]]), quoteFieldSuffix: '.raw' })).toBe('name:"new york" name:new');
  });

  it('hands fuzzy terms to the fuzzy query of each field, with their edit distance', () => {
    expect(query('Abc~1')).toBe('fuzzy:["abc",1,0,true]:top_terms_blended_freqs_50:"name"');
    expect(query('code:Abc~2', { fuzzy: { prefixLength: 1, maxExpansions: 5, transpositions: false } })).toBe('fuzzy:["Abc",2,1,false]:top_terms_blended_freqs_5:"code"');
    expect(() => query('population:1~1')).toThrow('Can only use fuzzy queries on keyword and text fields');
    expect(query('population:1~1', { lenient: true })).toBe('MatchNoDocsQuery');
  });
});
