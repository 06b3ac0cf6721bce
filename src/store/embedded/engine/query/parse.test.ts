import fc from 'fast-check';
import { InvalidQueryError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { SUPPORTED_CLAUSES, assertNoScript, parseQuery } from './parse';

describe('parseQuery', () => {
  it('names unknown clauses and where they are', () => {
    expect(() => parseQuery({ more_like_this: { like: 'x' } })).toThrow('unsupported query clause "more_like_this" at query');
    expect(() => parseQuery({ bool: { filter: [{ term: { a: 1 } }, { geo_shape: { a: 'x' } }] } })).toThrow('unsupported query clause "geo_shape" at query.bool.filter[1]');
    expect(() => parseQuery({ constant_score: { filter: { nested: {} } } }, 'filter')).toThrow('at filter.constant_score.filter');
  });

  it('requires exactly one clause per query object', () => {
    expect(() => parseQuery({})).toThrow('query malformed, empty clause found at query');
    expect(() => parseQuery({ match_all: {}, match_none: {} })).toThrow('one clause expected, found "match_all" and "match_none"');
    expect(() => parseQuery([])).toThrow('query clause at query must be an object, got an array');
    expect(() => parseQuery('match_all')).toThrow(InvalidQueryError);
  });

  it('refuses scripts anywhere', () => {
    expect(() => parseQuery({ script: { script: 'doc.x' } })).toThrow('scripts are not allowed: "script" at query.script');
    expect(() => parseQuery({ bool: { filter: [{ script_score: {} }] } })).toThrow('scripts are not allowed');
    expect(() => parseQuery({ bool: { must: { match_all: {} }, should: [{ term: { x: { value: 1, script: 'x' } } }] } })).toThrow('query.bool.should[0].term.x.script');
    expect(() => assertNoScript([{ _script: 1 }], 'sort')).toThrow('sort[0]._script');
  });

  it('limits nesting', () => {
    let q: Record<string, unknown> = { match_all: {} };
    for (let i = 0; i < DEFAULT_LIMITS.maxQueryDepth; i++) q = { bool: { must: q } };
    expect(() => parseQuery(q)).toThrow('nested deeper than');
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() => parseQuery({ terms: { a: deep } })).toThrow(InvalidQueryError);
  });

  it('ignores inherited property names', () => {
    expect(() => parseQuery({ toString: {} })).toThrow('unsupported query clause "toString"');
    expect(() => parseQuery(JSON.parse('{"__proto__": {}}'))).toThrow('unsupported query clause "__proto__"');
    expect(() => parseQuery({ hasOwnProperty: {} })).toThrow(InvalidQueryError);
  });

  it('knows the supported clauses', () => {
    expect([...SUPPORTED_CLAUSES].sort()).toEqual(
      ['bool', 'boosting', 'combined_fields', 'constant_score', 'dis_max', 'exists', 'function_score', 'fuzzy', 'geo_bounding_box', 'geo_distance', 'ids', 'intervals', 'match', 'match_all', 'match_bool_prefix', 'match_none', 'match_phrase', 'match_phrase_prefix', 'multi_match', 'nested', 'prefix', 'query_string', 'range', 'regexp', 'simple_query_string', 'term', 'terms', 'wildcard'].sort(),
    );
  });

  it('throws only InvalidQueryError for any JSON', () => {
    const clause = fc.constantFrom(...SUPPORTED_CLAUSES, 'more_like_this', 'script');
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), tie('query'), fc.array(tie('query'), { maxLength: 3 })),
      query: fc.dictionary(clause, tie('body'), { minKeys: 0, maxKeys: 2 }),
      body: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.dictionary(fc.constantFrom('must', 'should', 'filter', 'query', 'queries', 'field', 'name', 'value', 'boost', 'gte', 'lt', 'values', 'fields', 'minimum_should_match'), tie('value'), { maxKeys: 3 })),
    }));
    fc.assert(
      fc.property(json.query, (q) => {
        try {
          parseQuery(q);
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidQueryError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
