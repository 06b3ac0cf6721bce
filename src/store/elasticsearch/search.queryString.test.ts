/**
 * Request shapes of the search-box syntaxes: the Elasticsearch store checks `query_string` and
 * `simple_query_string` with the embedded store's parsers (same parameters accepted, same 400 for a
 * syntax error, naming its column, before anything is sent), then sends them to the cluster exactly
 * as the client wrote them, inside the tenant filter: the cluster parses and runs them itself.
 */
import { runSearch } from './search';
import { TENANT_FILTER, expectRefusedBeforeSending, expectSentUnchanged, fakeBackend } from './testing/requestShapes';

const QUERIES: Record<string, unknown>[] = [
  { query_string: { query: 'name:(fran* OR "south africa"~1) AND -code:ZA' } },
  {
    query_string: {
      query: 'population:>=60 _exists_:tags fr?nce~1 /fra.*/ [a TO m}',
      fields: ['name^2', 'code*'],
      default_operator: 'and',
      type: 'most_fields',
      tie_breaker: 0.3,
      phrase_slop: 1,
      quote_field_suffix: '.keyword',
      allow_leading_wildcard: false,
      analyze_wildcard: true,
      lenient: true,
      minimum_should_match: '2<75%',
      fuzziness: 'AUTO:2,5',
      fuzzy_prefix_length: 1,
      fuzzy_max_expansions: 10,
      time_zone: '+01:00',
      boost: 2,
      _name: 'search box',
    },
  },
  { query_string: { query: 'new york', default_field: 'name', escape: true, rewrite: 'constant_score', max_determinized_states: 500 } },
  { simple_query_string: { query: 'fran* + -guiana | "south africa"~1 frnace~1' } },
  {
    simple_query_string: {
      query: 'united kingdom',
      fields: ['name^2', 'code'],
      default_operator: 'AND',
      flags: 'AND|OR|PREFIX|PHRASE|FUZZY',
      analyze_wildcard: true,
      lenient: false,
      minimum_should_match: 1,
      quote_field_suffix: '.keyword',
      auto_generate_synonyms_phrase_query: false,
      fuzzy_prefix_length: 1,
      fuzzy_max_expansions: 5,
      fuzzy_transpositions: false,
      boost: 0.5,
    },
  },
  { simple_query_string: { query: 'a b', flags: 0 } },
];

describe('Elasticsearch store: query_string and simple_query_string', () => {
  it.each(QUERIES)('sends %j unchanged inside the tenant filter', expectSentUnchanged);

  it('sends nothing for what the embedded store refuses (same 400, a syntax error naming its column)', async () => {
    const { fake, backend } = fakeBackend();
    await expect(runSearch(backend, 'gw-countries', { from: 0, size: 10, query: { query_string: { query: 'name:(france' } } }, TENANT_FILTER)).rejects.toThrow(
      /Cannot parse 'name:\(france': Encountered "<EOF>" at line 1, column 12\./,
    );
    expect(fake.requests).toEqual([]);
    await expectRefusedBeforeSending([
      { query_string: { query: 'a', default_field: 'name', fields: ['code'] } },
      { query_string: { query: 'a', analyzer: 'french' } },
      { query_string: { query: `${'('.repeat(40)}a${')'.repeat(40)}` } },
      { simple_query_string: { query: 'a', flags: 'SOMETIMES' } },
      { simple_query_string: { fields: ['name'] } },
    ]);
  });
});
