/**
 * `simple_query_string` on the three reference countries, with hand-worked scores, and what
 * Elasticsearch adds to Lucene's SimpleQueryParser (the differential test against Lucene is in
 * queryString/testing/lucene.test.ts): every field by default and leniency, the best field of a
 * phrase, quote_field_suffix, flags read from names; and its errors and limits.
 */
import { InvalidQueryError } from '../../../port';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, expectedScore, indexAll } from '../testing';
import { readSimpleFlags } from './simpleQueryString';
import { SimpleFlag } from '../queryString/simpleParser';

const f = Math.fround;
const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const search = (sqs: Record<string, unknown>) => index.search({ query: { simple_query_string: sqs }, from: 0, size: 10 });
const scores = (sqs: Record<string, unknown>) => search(sqs).hits.map((h) => [h._id, f(h._score as number)]);
const ids = (sqs: Record<string, unknown>) => search(sqs).hits.map((h) => h._id);

// name: lengths 1, 2, 2 (N = 3, avgdl 5/3); tags: "wine cheese", "space" (N = 2, avgdl 3/2)
const nameFrance = expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 1 });
const nameFrench = expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 2 });
const tagsWine = expectedScore({ N: 2, avgdl: 3 / 2, n: 1, freq: 1, dl: 2 });

describe('simple_query_string', () => {
  it('reads + | - "..." ( ) * and scores as Elasticsearch does', () => {
    expect(scores({ query: 'france', fields: ['name'] })).toEqual([['1', nameFrance]]);
    expect(ids({ query: 'french + -guiana', fields: ['name'] })).toEqual([]);
    expect(ids({ query: 'france | africa', fields: ['name'] })).toEqual(['1', '3']);
    expect(ids({ query: '"french guiana"', fields: ['name'] })).toEqual(['2']);
    expect(ids({ query: '"guiana french"~2', fields: ['name'] })).toEqual(['2']);
    expect(ids({ query: '(south | french) + (africa | guiana)', fields: ['name'] })).toEqual(['2', '3']);
    expect(scores({ query: 'fr*', fields: ['name^2'] })).toEqual([['1', 2], ['2', 2]]);
  });

  it('negates with a match_all beside: every other document scores 1', () => {
    expect(scores({ query: '-france', fields: ['name'] })).toEqual([['2', 1], ['3', 1]]);
    // French Guiana only gets its "french" (the NOT clause does not match it)
    expect(scores({ query: 'french -guiana', fields: ['name'] })).toEqual([['1', 1], ['3', 1], ['2', nameFrench]]);
  });

  it('sums the fields of a word, takes the best field of a phrase', () => {
    expect(scores({ query: 'france wine', fields: ['name', 'tags'] })).toEqual([['1', f(nameFrance + tagsWine)]]);
    const phrase = expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 1, boost: 3 });
    expect(scores({ query: '"france"', fields: ['name^3', 'tags'] })).toEqual([['1', phrase]]);
    expect(ids({ query: '"French Guiana"', fields: ['name'], quote_field_suffix: '.keyword' })).toEqual(['2']);
  });

  it('runs on every field by default, leniently', () => {
    expect(scores({ query: 'france' })).toEqual([['1', nameFrance]]);
    expect(ids({ query: '68 | space' }).sort()).toEqual(['1', '2']);
    expect(() => search({ query: 'lots', fields: ['population'] })).toThrow(InvalidQueryError);
    expect(ids({ query: 'lots', fields: ['population'], lenient: true })).toEqual([]);
  });

  it('reads fuzzy words: word~N (at most 2), word~ 2 edits, with the fuzzy_ parameters', () => {
    expect(ids({ query: 'frnace~1', fields: ['name'] })).toEqual(['1']);
    expect(ids({ query: 'frnace~1', fields: ['name'], fuzzy_transpositions: false })).toEqual([]);
    expect(ids({ query: 'frnac~', fields: ['name'] })).toEqual(['1']);
    expect(ids({ query: 'frnac~9', fields: ['name'] })).toEqual(['1']);
    expect(ids({ query: 'frnac~', fields: ['name'], fuzzy_prefix_length: 3 })).toEqual([]);
    expect(ids({ query: 'frnace~0', fields: ['name'] })).toEqual([]);
  });

  it('applies default_operator, minimum_should_match, analyze_wildcard and boost', () => {
    expect(ids({ query: 'french guiana', fields: ['name'], default_operator: 'AND' })).toEqual(['2']);
    expect(ids({ query: 'south french africa', fields: ['name'], minimum_should_match: 2 })).toEqual(['3']);
    expect(ids({ query: 'south-af*', fields: ['name'], analyze_wildcard: true })).toEqual(['3']);
    expect(ids({ query: 'south-af*', fields: ['name'] })).toEqual([]);
    expect(scores({ query: 'france', fields: ['name'], boost: 2 })).toEqual([['1', expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 1, boost: 2 })]]);
  });

  it('reads flags by name or as bits, turning operators into text', () => {
    expect(readSimpleFlags('AND|or|Prefix', 'flags')).toBe(SimpleFlag.AND | SimpleFlag.OR | SimpleFlag.PREFIX);
    expect(readSimpleFlags('SLOP|', 'flags')).toBe(SimpleFlag.NEAR);
    expect(readSimpleFlags('AND|NONE', 'flags')).toBe(0);
    expect(readSimpleFlags('', 'flags')).toBe(-1);
    expect(readSimpleFlags(-5, 'flags')).toBe(-1);
    expect(() => readSimpleFlags('SOMETIMES', 'flags')).toThrow('Unknown simple_query_string flag [SOMETIMES]');
    expect(ids({ query: 'south+africa', fields: ['name'], flags: 'NONE' })).toEqual(['3']);
    expect(ids({ query: 'fr*', fields: ['name'], flags: 'WHITESPACE' })).toEqual([]);
  });

  it('never fails on its syntax, and refuses bad parameters with a 400 naming them', () => {
    for (const query of ['"', '(((', ')', '\\', '~', '+-|', '"a" b"', '(a | "b']) expect(() => search({ query })).not.toThrow();
    expect(ids({ query: '' })).toEqual([]);
    expect(ids({ query: '*' })).toEqual(['1', '2', '3']);
    expect(() => search({})).toThrow('query text missing');
    expect(() => search({ query: 'a', analyzer: 'french' })).toThrow('[simple_query_string] analyzer [french] not found at query.simple_query_string.analyzer');
    expect(() => search({ query: 'a', fields: 'name' })).toThrow('must be an array');
    expect(() => search({ query: 'a', sometimes: 1 })).toThrow('unsupported field [sometimes]');
    expect(() => search({ query: 'a', flags: 1.5 })).toThrow(InvalidQueryError);
    expect(() => search({ query: 'a', default_operator: 'xor' })).toThrow(InvalidQueryError);
  });

  it('keeps within the limits: nesting and clauses', () => {
    expect(() => search({ query: `${'('.repeat(31)}a${')'.repeat(31)}` })).toThrow(expect.objectContaining({ limit: 'query_too_deep' }));
    expect(() => search({ query: Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' '), fields: ['name'] })).toThrow(expect.objectContaining({ limit: 'too_many_clauses' }));
  });

  it("never reaches past the caller's filter", () => {
    const tenants = new SearchIndex();
    tenants.put('a1', { name: 'alpha', allowTenantIds: ['acme'] });
    tenants.put('b1', { name: 'alpha beta', allowTenantIds: ['other'] });
    const filter = { terms: { 'allowTenantIds.keyword': ['acme', '*'] } };
    for (const query of ['alpha | beta', '-alpha', '*', 'other', 'b1']) {
      const result = tenants.search({ query: { simple_query_string: { query } }, from: 0, size: 10 }, filter);
      expect(result.hits.every((h) => h._id === 'a1')).toBe(true);
      expect(result.total).toBe(result.hits.length);
    }
  });
});
