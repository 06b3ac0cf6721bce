/**
 * Conformance of typo tolerance (the fuzzy query, `fuzziness` on match and multi_match) on every
 * store target: what a misspelling finds, Elasticsearch's scores (edit-distance boosts, blended
 * document frequencies), the refusals, and tenant isolation (a fuzzy query never brings another
 * tenant's entity into a page or a count).
 */
import { COUNTRIES } from '../support/e2e';
import { failsWith } from './support/api';
import { bm25, NAME_AVGDL as AVGDL, searchFixture } from './support/searchFixture';
import { describeEachStore } from './support/targets';

describeEachStore('typo-tolerant search', (target) => {
  const f = searchFixture(target);
  const { search, names, expectIslandsIsolated } = f;
  const path = (type: { collection: string }, suffix: string) => `/v4/entity/${type.collection}${suffix}`;

  it('finds what a misspelling meant: match with fuzziness, multi_match, the fuzzy query', async () => {
    expect(await names({ match: { name: { query: 'frnace', fuzziness: 'AUTO' } } })).toEqual(['France']);
    expect(await names({ match: { name: 'frnace' } })).toEqual([]);
    expect(await names({ fuzzy: { name: 'kingdon' } })).toEqual(['United Kingdom']);
    expect((await names({ match: { name: { query: 'untied kingdon', fuzziness: 'AUTO', operator: 'and' } } }))).toEqual(['United Kingdom']);
    expect((await names({ multi_match: { query: 'grmany', fields: ['name', 'code'], fuzziness: 1 } }))).toEqual(['Germany']);
    expect(await names({ fuzzy: { 'code.keyword': { value: 'KX', fuzziness: 1 } } })).toEqual(['South Korea', 'North Korea', 'Mexico']); // KR, KP, MX
  });

  it('scores with edit-distance boosts and blended document frequencies, as Elasticsearch does', async () => {
    // "sorth" (5 letters: 1 edit) is 1 edit from "south" (3 names) and "north" (1 name): boost 1 - 1/5
    // each; blended, both score with the document frequency of the more common, 3
    const result = await search({ fuzzy: { name: 'sorth' } });
    expect(result.total).toBe(4);
    const expected = 0.8 * bm25(3, COUNTRIES.length, 2, AVGDL);
    for (const hit of result.hits) expect(hit._score).toBeCloseTo(expected, 5);
    // scored on its own statistics (rewrite scoring_boolean), the rarer "north" ranks first
    const own = await search({ fuzzy: { name: { value: 'sorth', rewrite: 'scoring_boolean' } } });
    expect(own.hits[0]._source.name).toBe('North Korea');
    expect(own.hits[0]._score).toBeCloseTo(0.8 * bm25(1, COUNTRIES.length, 2, AVGDL), 5);
    // max_expansions: the nearest terms first, then the smallest ("north" before "south")
    expect(await names({ fuzzy: { name: { value: 'sorth', max_expansions: 1 } } })).toEqual(['North Korea']);
    // constant_score: every match scores the boost
    expect((await search({ match: { name: { query: 'sorth', fuzziness: 1, fuzzy_rewrite: 'constant_score', boost: 2 } } })).hits.map((h: any) => h._score)).toEqual([2, 2, 2, 2]);
  });

  it('refuses what Elasticsearch refuses (400 naming it)', async () => {
    const edits = await failsWith(f.reader, 'POST', path(f.countries, '/search'), { query: { fuzzy: { name: { value: 'x', fuzziness: 3 } } } }, 'services.storage.invalid_search_query', 400);
    expect(edits.message).toContain('Valid edit distances are [0, 1, 2] but was [3]');
    const auto = await failsWith(f.reader, 'POST', path(f.countries, '/search'), { query: { match: { name: { query: 'x', fuzziness: 'AUTO:6,3' } } } }, 'services.storage.invalid_search_query', 400);
    expect(auto.message).toContain('fuzziness wrongly configured');
    const phrase = await failsWith(f.reader, 'POST', path(f.countries, '/count'), { query: { multi_match: { query: 'x', type: 'phrase', fuzziness: 1 } } }, 'services.storage.invalid_search_query', 400);
    expect(phrase.message).toContain('Fuzziness not allowed for type [phrase]');
    await failsWith(f.reader, 'POST', path(f.countries, '/search'), { query: { fuzzy: { name: { value: 'x', case_insensitive: true } } } }, 'services.storage.invalid_search_query', 400);
  });

  it("never shows or counts another tenant's entities, whatever the typo", async () => {
    const queries = [
      { fuzzy: { name: 'isle' } },
      { fuzzy: { name: { value: 'islte', fuzziness: 2 } } },
      { match: { name: { query: 'iselt of', fuzziness: 'AUTO' } } },
      { multi_match: { query: 'isl', fields: ['name', 'slug'], fuzziness: 1 } },
    ];
    for (const query of queries) await expectIslandsIsolated(query);
    expect((await names({ fuzzy: { name: 'islet' } }, f.writerA, f.islands)).sort()).toEqual(['Isle of Anna', 'Isle of Man', 'Islet Alpha']);
    expect(await names({ fuzzy: { name: 'islet' } }, f.readerC, f.islands)).toEqual(['Isle of Man']);
  });
});
