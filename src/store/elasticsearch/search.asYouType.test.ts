/**
 * Request shapes of the as-you-type queries: the Elasticsearch store checks them with the embedded
 * store's parsers (same clauses and parameters accepted, same 400s), then sends them to the cluster
 * exactly as the client wrote them, inside the tenant filter.
 */
import { expectRefusedBeforeSending, expectSentUnchanged } from './testing/requestShapes';

const QUERIES: Record<string, unknown>[] = [
  { match_phrase_prefix: { name: 'fran' } },
  { match_phrase_prefix: { name: { query: 'united k', slop: 1, max_expansions: 10, zero_terms_query: 'all', analyzer: 'standard', boost: 2, _name: 'typed' } } },
  { match_bool_prefix: { name: 'united k' } },
  { match_bool_prefix: { name: { query: 'united k', operator: 'and', minimum_should_match: '50%', analyzer: 'standard', boost: 1.5 } } },
  { multi_match: { query: 'united k', type: 'phrase_prefix', fields: ['name^2', 'code'], slop: 1, max_expansions: 20, tie_breaker: 0.2 } },
  { multi_match: { query: 'united k', type: 'bool_prefix', fields: ['name', 'code'], operator: 'or', minimum_should_match: 1 } },
  { multi_match: { query: 'united kingdom', type: 'cross_fields', fields: ['name', 'code^3'], operator: 'and', tie_breaker: 0.3, analyzer: 'standard' } },
];

describe('Elasticsearch store: as-you-type queries', () => {
  it.each(QUERIES)('sends %j unchanged inside the tenant filter', expectSentUnchanged);

  it('sends nothing for what the embedded store refuses (same 400)', async () => {
    await expectRefusedBeforeSending([
      { match_phrase_prefix: { name: { query: 'x', max_expansions: -1 } } },
      { match_phrase_prefix: { name: { query: 'x', operator: 'and' } } },
      { match_bool_prefix: { name: { query: 'x', slop: 2 } } },
      { multi_match: { query: 'x', type: 'bool_prefix', slop: 2 } },
      { multi_match: { query: 'x', type: 'phrase_prefix', max_expansions: 0 } },
    ]);
  });
});
