import { InvalidQueryError, QueryLimitError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { IndexMapping } from '../mapping';
import { CONSTANT_SCORE } from '../query/leaves';
import { ParseError } from './classicParser';
import { ClauseCounter, FieldEnv, normalizeWildcardPattern, prefixField, rangeField, regexpField, textQuery, wildcardField } from './perField';
import { printQuery } from './testing/printQuery';

const mapping = new IndexMapping({ keyword: ['code'], text: ['name', 'desc'], long: ['population'], date: ['at'] });
const env = (over: Partial<FieldEnv> = {}): FieldEnv => ({
  build: { mapping, now: 0, limits: DEFAULT_LIMITS },
  counter: new ClauseCounter(DEFAULT_LIMITS.maxClauseCount),
  lenient: false,
  operator: 'or',
  rewrite: CONSTANT_SCORE,
  timeZone: null,
  maxDeterminizedStates: null,
  where: 'query.query_string',
  ...over,
});
const print = (q: ReturnType<typeof textQuery>) => (q === null ? null : printQuery(q));

describe('query string pieces on their fields', () => {
  it('builds a text as each field\'s match query, boosted, in a dis_max', () => {
    const fields = new Map([['name', 2], ['desc', 1], ['code', 1]]);
    expect(print(textQuery(env(), fields, 'New York', 'best_fields', 0, 0))).toBe('((name:new name:york)^2 | desc:new desc:york | code:New York)~0');
    expect(print(textQuery(env({ operator: 'and' }), new Map([['name', 1]]), 'new york', 'best_fields', 0, 0))).toBe('+name:new +name:york');
    expect(print(textQuery(env(), new Map([['name', 1]]), 'new york', 'phrase', 2, 0))).toBe('name:"new york"~2');
    // no token: no query; no mapped field: nothing matches
    expect(textQuery(env(), new Map([['name', 1]]), '-- !', 'best_fields', 0, 0)).toBeNull();
    expect(print(textQuery(env(), new Map([['nope', 1]]), 'a', 'best_fields', 0, 0))).toBe('MatchNoDocsQuery');
  });

  it('refuses a value of the wrong type, unless lenient', () => {
    expect(() => textQuery(env(), new Map([['population', 1]]), 'many', 'best_fields', 0, 0)).toThrow(InvalidQueryError);
    expect(print(textQuery(env({ lenient: true }), new Map([['population', 1], ['name', 1]]), 'many', 'best_fields', 0, 0))).toBe('(MatchNoDocsQuery | name:many)~0');
  });

  it('lowercases prefixes on text fields, or analyzes them with analyze_wildcard', () => {
    expect(print(prefixField(env(), 'name', 'New', false))).toMatch(/^prefix:\["new",false\]/);
    expect(print(prefixField(env(), 'code', 'Fr', false))).toMatch(/^prefix:\["Fr",false\]/);
    expect(print(prefixField(env(), 'name', 'New Yo', true))).toMatch(/^name:new prefix:\["yo",false\]/);
    expect(prefixField(env(), 'name', '--', true)).toBeNull();
    expect(() => prefixField(env(), 'population', '1', false)).toThrow(InvalidQueryError);
    expect(print(prefixField(env({ lenient: true }), 'population', '1', false))).toBe('MatchNoDocsQuery');
  });

  it('normalizes wildcard patterns but their wildcards and escapes', () => {
    expect(normalizeWildcardPattern('F?O\\Ba*R**')).toBe('f?o\\Ba*r**');
    expect(print(wildcardField(env(), 'name', 'Fr*Ce', true))).toMatch(/^wildcard:\["fr\*ce",false\]/);
    expect(print(wildcardField(env(), 'code', 'F*', true))).toMatch(/^wildcard:\["F\*",false\]/);
    expect(print(wildcardField(env(), 'name', '*', true))).toBe('exists:"name"');
    expect(() => wildcardField(env(), 'name', '*x', false)).toThrow(ParseError);
  });

  it('keeps regular expressions as written, their syntax refused unless lenient', () => {
    expect(print(regexpField(env(), 'name', 'Fr.*'))).toMatch(/^regexp:\["Fr\.\*"/);
    expect(() => regexpField(env(), 'name', '[a')).toThrow(InvalidQueryError);
    expect(print(regexpField(env({ lenient: true }), 'name', '[a'))).toBe('MatchNoDocsQuery');
  });

  it('lowercases the bounds of ranges on text fields only', () => {
    expect(print(rangeField(env(), 'name', 'A', 'C', true, false))).toBe('termRange:["a",true,"c",false]:"name"');
    expect(print(rangeField(env(), 'code', 'A', null, true, true))).toBe('termRange:["A",true,null,true]:"code"');
    expect(print(rangeField(env(), 'population', '10', null, false, true))).toBe('range:["population",10,false,null,true]');
    expect(print(rangeField(env(), 'nope', 'a', 'b', true, true))).toBe('MatchNoDocsQuery');
  });

  it('counts what it builds against the clause limit', () => {
    const counter = new ClauseCounter(3);
    expect(() => textQuery(env({ counter }), new Map([['name', 1], ['desc', 1]]), 'a b', 'best_fields', 0, 0)).toThrow(QueryLimitError);
  });
});
