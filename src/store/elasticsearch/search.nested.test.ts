/**
 * Request shapes of `nested` (with score_mode, ignore_unmapped, inner_hits): checked with the
 * embedded store's parsers (same parameters accepted, same 400s), then sent to the cluster exactly
 * as written, inside the tenant filter; the cluster reads the nested mapping, and its inner hits'
 * `_nested` reach the hit.
 */
import { toSearchResult } from './searchResult';
import { expectRefusedBeforeSending, expectSentUnchanged } from './testing/requestShapes';

const BOLT = { match: { 'parts.name': 'bolt' } };

const QUERIES: Record<string, unknown>[] = [
  { nested: { path: 'parts', query: BOLT } },
  { nested: { path: 'parts', query: { bool: { must: [BOLT, { range: { 'parts.n': { gte: 5 } } }] } }, score_mode: 'max', boost: 2, _name: 'n' } },
  { nested: { path: 'parts', query: BOLT, score_mode: 'none', ignore_unmapped: true, inner_hits: { name: 'found', from: 1, size: 2, sort: [{ 'parts.n': 'desc' }], _source: ['parts.name'], highlight: { fields: { 'parts.name': {} } } } } },
  // a nested field inside another (the cluster reads the mapping)
  { nested: { path: 'parts', query: { nested: { path: 'parts.screws', query: { match_all: {} } } } } },
];

describe('Elasticsearch store: nested', () => {
  it.each(QUERIES)('sends %j unchanged inside the tenant filter', async (query) => {
    await expectSentUnchanged(query);
  });

  it('sends nothing for what the embedded store refuses (same 400)', async () => {
    await expectRefusedBeforeSending([
      { nested: { query: BOLT } },
      { nested: { path: 'parts' } },
      { nested: { path: 'parts', query: BOLT, score_mode: 'total' } },
      { nested: { path: 'parts', query: BOLT, inner_hits: { size: 101 } } },
    ]);
  });

  it("keeps the inner hits' _nested", () => {
    const result = toSearchResult({
      hits: {
        total: { value: 1, relation: 'eq' },
        hits: [
          {
            _id: 'k1',
            _score: 1,
            _source: { parts: [{ name: 'bolt' }] },
            inner_hits: { parts: { hits: { total: { value: 1, relation: 'eq' }, max_score: 1, hits: [{ _id: 'k1', _nested: { field: 'parts', offset: 0 }, _score: 1, _source: { name: 'bolt' } }] } } },
          },
        ],
      },
    });
    expect(result.hits[0].inner_hits).toEqual({ parts: { hits: { total: 1, max_score: 1, hits: [{ _id: 'k1', _nested: { field: 'parts', offset: 0 }, _score: 1, _source: { name: 'bolt' } }] } } });
  });
});
