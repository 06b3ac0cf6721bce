/**
 * Request shapes of combined_fields: the Elasticsearch store checks it with the embedded store's
 * parser (same parameters accepted, same 400s), then sends it to the cluster exactly as the client
 * wrote it, inside the tenant filter.
 */
import { expectRefusedBeforeSending, expectSentUnchanged } from './testing/requestShapes';

const QUERIES: Record<string, unknown>[] = [
  { combined_fields: { query: 'database systems', fields: ['title^2', 'abstract', 'body*'] } },
  {
    combined_fields: {
      query: 'database systems',
      fields: ['title', 'body'],
      operator: 'and',
      minimum_should_match: '75%',
      zero_terms_query: 'all',
      auto_generate_synonyms_phrase_query: false,
      boost: 1.5,
      _name: 'combined',
    },
  },
];

describe('Elasticsearch store: combined_fields', () => {
  it.each(QUERIES)('sends %j unchanged inside the tenant filter', async (query) => {
    await expectSentUnchanged(query);
  });

  it('sends nothing for what the embedded store refuses (same 400)', async () => {
    await expectRefusedBeforeSending([
      { combined_fields: { fields: ['title'] } },
      { combined_fields: { query: 'x' } },
      { combined_fields: { query: 'x', fields: ['title^0.5'] } },
      { combined_fields: { query: 'x', fields: ['title'], fuzziness: 'AUTO' } },
      { combined_fields: { query: 'x', fields: ['title'], operator: 'xor' } },
    ]);
  });
});
