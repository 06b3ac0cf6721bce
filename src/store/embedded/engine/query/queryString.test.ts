/**
 * `query_string` on the three reference countries, with hand-worked scores, and what Elasticsearch
 * adds to Lucene's classic parser (the differential test against Lucene is in
 * queryString/testing/lucene.test.ts): `*` fields and leniency, dis_max over fields, `>`/`<`
 * ranges, `_exists_`, negative queries matching the rest, regular expressions left as written,
 * time_zone, quote_field_suffix; and its errors and limits.
 */
import { InvalidQueryError, QueryLimitError } from '../../../port';
import { DEFAULT_LIMITS } from '../limits';
import { SearchIndex } from '../searchIndex';
import { COUNTRIES, expectedScore, indexAll } from '../testing';
import { escapeQueryString } from './queryString';

const f = Math.fround;
const index = indexAll(new SearchIndex({ keyword: ['id'] }), COUNTRIES);
const search = (qs: Record<string, unknown>) => index.search({ query: { query_string: qs }, from: 0, size: 10 });
const scores = (qs: Record<string, unknown>) => search(qs).hits.map((h) => [h._id, f(h._score as number)]);
const ids = (qs: Record<string, unknown>) => search(qs).hits.map((h) => h._id);

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (err) {
    return err as Error;
  }
  throw new Error('did not throw');
}

// name: lengths 1, 2, 2 (N = 3, avgdl 5/3); tags: "wine cheese", "space" (N = 2, avgdl 3/2)
const nameFrance = expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 1 });
const nameGuiana = expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 2 });
const nameFrench = nameGuiana;
const tagsWine = expectedScore({ N: 2, avgdl: 3 / 2, n: 1, freq: 1, dl: 2 });

describe('query_string', () => {
  it('searches the default field with Lucene syntax: words, AND, OR, NOT, +, -, groups, boosts', () => {
    expect(scores({ query: 'france', default_field: 'name' })).toEqual([['1', nameFrance]]);
    expect(ids({ query: 'france OR africa', default_field: 'name' })).toEqual(['1', '3']);
    expect(ids({ query: 'french AND guiana', default_field: 'name' })).toEqual(['2']);
    expect(ids({ query: 'french && !guiana', default_field: 'name' })).toEqual([]);
    expect(scores({ query: 'french^2 guiana', default_field: 'name' })).toEqual([['2', f(f(2 * nameFrench) + nameGuiana)]]);
    expect(scores({ query: '(french guiana)^0.5 -africa', default_field: 'name' })).toEqual([['2', f(f(nameFrench + nameGuiana) * f(0.5))]]);
  });

  it('runs on every field by default (`*`), leniently: a word is no number', () => {
    // the best field wins: name (text) over name.keyword ("France" is not "france")
    expect(scores({ query: 'france' })).toEqual([['1', nameFrance]]);
    expect(ids({ query: 'FR' })).toEqual(['1']);
    expect(ids({ query: '68' })).toEqual(['1']);
    expect(() => search({ query: 'many', fields: ['population'] })).toThrow(InvalidQueryError);
    expect(ids({ query: 'many', fields: ['population'], lenient: true })).toEqual([]);
    expect(ids({ query: '*' })).toEqual(['1', '2', '3']);
  });

  it('takes fields with boosts and patterns: the best field (dis_max), tie_breaker, most_fields', () => {
    expect(scores({ query: 'france wine', fields: ['name', 'tags'] })).toEqual([['1', Math.max(nameFrance, tagsWine)]]);
    expect(scores({ query: 'france wine', fields: ['name', 'tags'], type: 'most_fields' })).toEqual([['1', f(nameFrance + tagsWine)]]);
    const best = Math.max(nameFrance, tagsWine);
    expect(scores({ query: 'france wine', fields: ['name', 'tags'], tie_breaker: 0.3 })).toEqual([['1', f(best + f(Math.min(nameFrance, tagsWine) * f(0.3)))]]);
    const boosted = expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 1, boost: 3 });
    expect(scores({ query: 'france', fields: ['na*^3'] })).toEqual([['1', boosted]]);
    expect(ids({ query: 'tags:space' })).toEqual(['2']);
    expect(ids({ query: 'nope:france' })).toEqual([]);
  });

  it('takes the other multi_match types: phrase_prefix, bool_prefix, cross_fields', () => {
    expect(ids({ query: 'french gu', default_field: 'name', type: 'phrase_prefix' })).toEqual(['2']);
    expect(ids({ query: 'gu french', default_field: 'name', type: 'phrase_prefix' })).toEqual([]);
    expect(ids({ query: 'south af', default_field: 'name', type: 'bool_prefix', default_operator: 'and' })).toEqual(['3']);
    // the words spread over two fields: only cross_fields finds them all with and
    expect(ids({ query: 'france wine', fields: ['name', 'tags'], type: 'cross_fields', default_operator: 'and' })).toEqual(['1']);
    expect(ids({ query: 'france wine', fields: ['name', 'tags'], type: 'best_fields', default_operator: 'and' })).toEqual([]);
  });

  it('matches the words of one field with default_operator and and several fields (dis_max of each field)', () => {
    expect(ids({ query: 'france wine', fields: ['name', 'tags'], default_operator: 'and' })).toEqual([]);
    expect(ids({ query: 'france AND wine', fields: ['name', 'tags'] })).toEqual(['1']);
  });

  it('runs phrases with slop, phrase_slop and quote_field_suffix', () => {
    expect(ids({ query: '"guiana french"', default_field: 'name' })).toEqual([]);
    expect(ids({ query: '"guiana french"~2', default_field: 'name' })).toEqual(['2']);
    expect(ids({ query: '"guiana french"', default_field: 'name', phrase_slop: 2 })).toEqual(['2']);
    expect(ids({ query: '"French Guiana"', default_field: 'name', quote_field_suffix: '.keyword' })).toEqual(['2']);
    expect(ids({ query: '"french guiana"', default_field: 'name', quote_field_suffix: '.keyword' })).toEqual([]);
    expect(ids({ query: 'french guiana', default_field: 'name', type: 'phrase' })).toEqual(['2']);
  });

  it('reads prefixes, wildcards (lowercased on text fields) and regular expressions (not lowercased)', () => {
    expect(scores({ query: 'Fr*', default_field: 'name' })).toEqual([['1', 1], ['2', 1]]);
    expect(ids({ query: 'fr?nce', default_field: 'name' })).toEqual(['1']);
    expect(ids({ query: 'code.keyword:f*' })).toEqual([]);
    expect(ids({ query: 'code.keyword:F*' })).toEqual(['1']);
    expect(ids({ query: 'name:/fra.*/' })).toEqual(['1']);
    expect(ids({ query: 'name:/Fra.*/' })).toEqual([]);
    expect(ids({ query: 'fr* guiana', default_field: 'name', analyze_wildcard: true })).toEqual(['2', '1']);
    expect(ids({ query: 'name:*' })).toEqual(['1', '2', '3']);
    expect(ids({ query: 'tags:*' })).toEqual(['1', '2']);
  });

  it('reads fuzzy terms: term~N edits, term~ the `fuzziness` parameter (AUTO by default, where plain Lucene means 2)', () => {
    expect(ids({ query: 'frnace~1', default_field: 'name' })).toEqual(['1']);
    expect(ids({ query: 'frence~', default_field: 'name' }).sort()).toEqual(['1', '2']);
    expect(ids({ query: 'frnace~', default_field: 'name', fuzziness: 0 })).toEqual([]);
    expect(ids({ query: 'frnace~', default_field: 'name', fuzziness: 1, fuzzy_transpositions: false })).toEqual([]);
    expect(ids({ query: 'frnace~', default_field: 'name', fuzzy_prefix_length: 3 })).toEqual([]);
    expect(ids({ query: 'FRANCE~2', fields: ['name', 'code'] })).toEqual(['1', '2']);
    expect(() => search({ query: 'population:68~1' })).not.toThrow();
    expect(() => search({ query: 'population:68~1', lenient: false })).toThrow('Can only use fuzzy queries on keyword and text fields');
  });

  it('reads ranges: [a TO b], {a TO b}, open ends, and Elasticsearch\'s field:>x, >=, <, <=', () => {
    expect(ids({ query: 'population:[60 TO 68}' })).toEqual(['3']);
    expect(ids({ query: 'population:{0 TO *]' })).toEqual(['1', '3']);
    expect(ids({ query: 'population:>60' })).toEqual(['1']);
    expect(ids({ query: 'population:>=60' })).toEqual(['1', '3']);
    expect(ids({ query: 'area:<100' })).toEqual(['2']);
    expect(ids({ query: 'created:<=1950' })).toEqual(['2']);
    expect(ids({ query: 'name:[A TO G]' })).toEqual(['1', '2', '3']);
    expect(ids({ query: 'name:[S TO *]' })).toEqual(['3']);
    expect(scores({ query: 'population:[* TO 10]^2' })).toEqual([['2', 2]]);
  });

  it('reads _exists_:field, and lets a purely negative query match the rest (scoring 0)', () => {
    expect(ids({ query: '_exists_:tags' })).toEqual(['1', '2']);
    expect(scores({ query: '-code:FR' })).toEqual([['2', 0], ['3', 0]]);
    expect(ids({ query: 'NOT _exists_:tags' })).toEqual(['3']);
    expect(ids({ query: 'africa (-guiana)', default_field: 'name' })).toEqual(['3', '1']);
  });

  it('reads dates in time_zone, a bare date meaning its whole day there', () => {
    // France: created 1958-10-04T00:00Z, inside the 4th of October at +14:00, not at -12:00
    expect(ids({ query: 'created:1958-10-04', time_zone: '+14:00' })).toEqual(['1']);
    expect(ids({ query: 'created:1958-10-04', time_zone: '-12:00' })).toEqual([]);
    expect(ids({ query: 'created:1958-10-04' })).toEqual(['1']);
    expect(ids({ query: 'created:[1958-10-03 TO 1958-10-03]', time_zone: '-12:00' })).toEqual(['1']);
  });

  it('applies minimum_should_match to the top boolean query, and its boost to the whole', () => {
    expect(ids({ query: 'french guiana africa', default_field: 'name', minimum_should_match: 2 })).toEqual(['2']);
    expect(ids({ query: 'french guiana africa', default_field: 'name', minimum_should_match: '100%' })).toEqual([]);
    expect(scores({ query: 'france', default_field: 'name', boost: 2 })).toEqual([['1', expectedScore({ N: 3, avgdl: 5 / 3, n: 1, freq: 1, dl: 1, boost: 2 })]]);
  });

  it('escapes the whole query with escape: true', () => {
    expect(escapeQueryString('a+b (c) "d" \\ /e/')).toBe('a\\+b \\(c\\) \\"d\\" \\\\ \\/e\\/');
    expect(ids({ query: 'south (africa', default_field: 'name', escape: true })).toEqual(['3']);
  });

  it('answers a syntax error with a 400 naming its column, as Elasticsearch does', () => {
    const err = thrown(() => search({ query: 'name:(france', default_field: 'name' }));
    expect(err).toBeInstanceOf(InvalidQueryError);
    expect(err.message).toMatch(/^\[query_string\] Failed to parse query \[name:\(france\]: Cannot parse 'name:\(france': Encountered "<EOF>" at line 1, column 12\. Was expecting one of: /);
    expect(thrown(() => search({ query: 'a ] b' })).message).toContain('Lexical error at line 1, column 3.  Encountered: "]" (93)');
    // Elasticsearch reads the distance as a fuzziness: no fraction, 0 to 2 (plain Lucene: "Fractional edit distances are not allowed!")
    expect(thrown(() => search({ query: 'fr~1.5' })).message).toContain('fuzziness needs to be one of 0.0, 1.0 or 2.0 but was 1.5');
    expect(thrown(() => search({ query: 'fr~3' })).message).toContain('Valid edit distances are [0, 1, 2] but was [3]');
    expect(thrown(() => search({ query: '*ance', default_field: 'name', allow_leading_wildcard: false })).message).toContain(
      "Cannot parse '*ance': '*' or '?' not allowed as first character in WildcardQuery",
    );
    // a blank query matches nothing
    expect(ids({ query: '  ' })).toEqual([]);
  });

  it('refuses bad parameters with a 400 naming them', () => {
    expect(() => search({})).toThrow('must be provided with a [query]');
    expect(() => search({ query: 'a', default_field: 'name', fields: ['code'] })).toThrow('cannot use [fields] parameter in conjunction with [default_field]');
    expect(() => search({ query: 'a', analyzer: 'french' })).toThrow('[query_string] analyzer [french] not found');
    expect(() => search({ query: 'a', quote_analyzer: 'french' })).toThrow('[query_string] analyzer [french] not found at query.query_string.quote_analyzer');
    expect(() => search({ query: 'a', type: 'sometimes' })).toThrow('must be one of');
    expect(() => search({ query: 'a', default_operator: 'xor' })).toThrow('must be one of or, and');
    expect(() => search({ query: 'a', fields: 'name' })).toThrow('must be an array');
    expect(() => search({ query: 'a', fields: ['name^-1'] })).toThrow('negative [boost]');
    expect(() => search({ query: 'a', minimum_should_match: 'x' })).toThrow('invalid minimum_should_match');
    expect(() => search({ query: 'a', time_zone: 'Mars/Olympus' })).toThrow(InvalidQueryError);
    expect(() => search({ query: 'a', rewrite: 'sometimes' })).toThrow('unknown rewrite');
    expect(() => search({ query: 'a', phrase_slop: -1 })).toThrow(InvalidQueryError);
    expect(() => search({ query: 'a', sometimes: true })).toThrow('unsupported parameter "sometimes" for [query_string]');
    expect(() => search({ query: 'a', max_determinized_states: DEFAULT_LIMITS.maxDeterminizedStates + 1 })).toThrow('may not exceed');
  });

  it('keeps what a query string expands to within the limits: depth, clauses, regular expressions', () => {
    expect(thrown(() => search({ query: `${'('.repeat(31)}a${')'.repeat(31)}` }))).toMatchObject({ limit: 'query_too_deep' });
    expect(thrown(() => search({ query: Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' '), default_field: 'name' }))).toMatchObject({ limit: 'too_many_clauses' });
    // each word on every field: 1,500 words times 4 string fields is past 4,096
    expect(thrown(() => search({ query: Array.from({ length: 1500 }, (_, i) => `w${i}`).join(' OR ') }))).toMatchObject({ limit: 'too_many_clauses' });
    expect(thrown(() => search({ query: `name:/${'a'.repeat(1001)}/` }))).toMatchObject({ limit: 'regex_too_long' });
    expect(thrown(() => search({ query: 'name:/(a|b)*c{1,100}(a|b){1,200}/', max_determinized_states: 100 }))).toBeInstanceOf(QueryLimitError);
  });

  it('never reaches past the caller\'s filter: _id, allowTenantIds and `*` stay inside it', () => {
    const tenants = new SearchIndex();
    tenants.put('a1', { name: 'alpha', allowTenantIds: ['acme'] });
    tenants.put('b1', { name: 'alpha beta', allowTenantIds: ['other'] });
    tenants.put('s1', { name: 'shared', allowTenantIds: ['*'] });
    const filter = { terms: { 'allowTenantIds.keyword': ['acme', '*'] } };
    const seen = (query: string) => {
      const result = tenants.search({ query: { query_string: { query } }, from: 0, size: 10 }, filter);
      return [result.total, result.hits.map((h) => h._id)];
    };
    expect(seen('*')).toEqual([2, ['a1', 's1']]);
    expect(seen('*:*')).toEqual([2, ['a1', 's1']]);
    expect(seen('_id:b1')).toEqual([0, []]);
    expect(seen('allowTenantIds:other')).toEqual([0, []]);
    expect(seen('NOT allowTenantIds:acme')).toEqual([1, ['s1']]);
    expect(seen('beta OR _exists_:allowTenantIds')).toEqual([2, ['a1', 's1']]);
    expect(seen('-alpha')).toEqual([1, ['s1']]);
  });
});
