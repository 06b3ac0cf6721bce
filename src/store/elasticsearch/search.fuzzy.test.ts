/**
 * Request shapes of typo-tolerant queries: the Elasticsearch store checks them with the embedded
 * store's parsers (same parameters accepted, same 400s), then sends them to the cluster exactly as
 * the client wrote them, inside the tenant filter: the cluster computes the edit distances, the
 * expansions and the blended scores itself.
 */
import { expectRefusedBeforeSending, expectSentUnchanged } from './testing/requestShapes';

const QUERIES: Record<string, unknown>[] = [
  { fuzzy: { name: 'frnace' } },
  { fuzzy: { name: { value: 'frnace', fuzziness: 'AUTO:4,7', prefix_length: 1, max_expansions: 10, transpositions: false, rewrite: 'top_terms_blended_freqs_10', boost: 2, _name: 'typo' } } },
  { fuzzy: { 'code.keyword': { term: 'FX', fuzziness: 1, rewrite: 'constant_score' } } },
  { match: { name: { query: 'frnace', fuzziness: 'AUTO' } } },
  { match: { name: { query: 'united kingdon', fuzziness: 2, prefix_length: 2, max_expansions: 5, fuzzy_transpositions: false, fuzzy_rewrite: 'scoring_boolean', operator: 'and' } } },
  { multi_match: { query: 'nwe zeland', fields: ['name^2', 'code'], fuzziness: '1', fuzzy_rewrite: 'top_terms_5', type: 'most_fields' } },
];

describe('Elasticsearch store: typo-tolerant queries', () => {
  it.each(QUERIES)('sends %j unchanged inside the tenant filter', expectSentUnchanged);

  it('sends nothing for what the embedded store refuses (same 400)', async () => {
    await expectRefusedBeforeSending([
      { fuzzy: { name: { value: 'x', fuzziness: 3 } } },
      { fuzzy: { name: { value: 'x', fuzziness: 'AUTO:6,3' } } },
      { fuzzy: { name: { value: 'x', case_insensitive: true } } },
      { fuzzy: { name: { value: 'x', rewrite: 'top_terms_blended_freqs_0' } } },
      { match: { name: { query: 'x', fuzziness: '1.5' } } },
      { multi_match: { query: 'x', type: 'phrase', fuzziness: 1 } },
      { multi_match: { query: 'x', type: 'cross_fields', fuzziness: 'AUTO' } },
    ]);
  });
});
