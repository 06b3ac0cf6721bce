/**
 * Request shapes of intervals: the Elasticsearch store checks it with the embedded store's parser
 * (same rules and parameters accepted, same 400s), then sends it to the cluster exactly as the
 * client wrote it, inside the tenant filter.
 */
import { expectRefusedBeforeSending, expectSentUnchanged } from './testing/requestShapes';

const QUERIES: Record<string, unknown>[] = [
  { intervals: { body: { match: { query: 'quick fox', max_gaps: 2, ordered: true, analyzer: 'standard', use_field: 'title' } } } },
  {
    intervals: {
      body: {
        all_of: {
          ordered: true,
          max_gaps: 3,
          intervals: [{ prefix: { prefix: 'qui' } }, { any_of: { intervals: [{ wildcard: { pattern: 'f?x' } }, { fuzzy: { term: 'dgo', fuzziness: 'AUTO', prefix_length: 1, transpositions: true } }] } }],
          filter: { not_containing: { match: { query: 'lazy' } } },
        },
        boost: 2,
        _name: 'near',
      },
    },
  },
  { intervals: { body: { match: { query: 'brown', filter: { before: { match: { query: 'fox' } } } } } } },
];

describe('Elasticsearch store: intervals', () => {
  it.each(QUERIES)('sends %j unchanged inside the tenant filter', async (query) => {
    await expectSentUnchanged(query);
  });

  it('sends nothing for what the embedded store refuses (same 400)', async () => {
    await expectRefusedBeforeSending([
      { intervals: { body: { regexp: { pattern: 'f.x' } } } },
      { intervals: { body: { match: { query: 'a' }, prefix: { prefix: 'b' } } } },
      { intervals: { body: { match: { query: 'a', filter: { script: { source: 'true' } } } } } },
      { intervals: { body: { match: { query: 'a', filter: { near: { match: { query: 'b' } } } } } } },
      { intervals: { body: { all_of: { intervals: [] } } } },
    ]);
  });
});
