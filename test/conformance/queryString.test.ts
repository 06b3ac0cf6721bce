/**
 * Conformance of the search-box syntaxes (`query_string`, `simple_query_string`) on every store
 * target: what they find, Elasticsearch's scores, the syntax error that names its column, the
 * limits, and tenant isolation (no syntax brings another tenant's entity into a page or a count).
 */
import { COUNTRIES } from '../support/e2e';
import { failsWith } from './support/api';
import { NAME_AVGDL, bm25, searchFixture } from './support/searchFixture';
import { describeEachStore } from './support/targets';

describeEachStore('search-box syntax: query_string and simple_query_string', (target) => {
  const t = searchFixture(target);
  const sorted = async (query: unknown, who = t.reader, type = t.countries) => (await t.names(query, who, type)).sort();
  const refused = (query: unknown, id: string, action = 'search') => failsWith(t.reader, 'POST', `/v4/entity/${t.countries.collection}/${action}`, { query }, id, 400);

  it('query_string: fields, AND/OR/NOT, +/-, phrases, wildcards, ranges, _exists_', async () => {
    expect(await sorted({ query_string: { query: 'name:(south AND korea)' } })).toEqual(['South Korea']);
    expect(await sorted({ query_string: { query: 'south -korea', default_field: 'name' } })).toEqual(['South Africa', 'South Sudan']);
    // Lucene's precedence: AND makes south required too, japan stays optional
    expect(await sorted({ query_string: { query: 'south && !sudan || japan', default_field: 'name' } })).toEqual(['South Africa', 'South Korea']);
    expect(await sorted({ query_string: { query: '"new guinea"', fields: ['name'] } })).toEqual(['Papua New Guinea']);
    expect(await sorted({ query_string: { query: '"guinea papua"~3', fields: ['name'] } })).toEqual(['Papua New Guinea']);
    expect(await sorted({ query_string: { query: 'uni* AND NOT states', default_field: 'name' } })).toEqual(['United Arab Emirates', 'United Kingdom']);
    expect(await sorted({ query_string: { query: 'code:K?' } })).toEqual(['North Korea', 'South Korea']);
    expect(await sorted({ query_string: { query: 'code.keyword:[A TO C}' } })).toEqual(['Argentina', 'Brazil', 'United Arab Emirates']);
    expect(await sorted({ query_string: { query: 'name:/sud.n/' } })).toEqual(['South Sudan', 'Sudan']);
    expect((await t.search({ query_string: { query: '_exists_:code' } })).total).toBe(COUNTRIES.length);
    // every field by default: the country code of Norway, or its name
    expect(await sorted({ query_string: { query: 'NO' } })).toEqual(['Norway']);
  });

  it('query_string scores as Elasticsearch: BM25 per field, the best field of several', async () => {
    const result = await t.search({ query_string: { query: 'sudan', fields: ['name', 'code'] } });
    expect(result.hits.map((h: any) => h._source.name)).toEqual(['Sudan', 'South Sudan']);
    expect(result.hits[0]._score).toBeCloseTo(bm25(2, COUNTRIES.length, 1, NAME_AVGDL), 5);
    expect(result.hits[1]._score).toBeCloseTo(bm25(2, COUNTRIES.length, 2, NAME_AVGDL), 5);
    const boosted = await t.search({ query_string: { query: 'sudan^2 south', default_field: 'name' } });
    expect(boosted.hits[0]._source.name).toBe('South Sudan');
    expect(boosted.hits[0]._score).toBeCloseTo(2 * bm25(2, COUNTRIES.length, 2, NAME_AVGDL) + bm25(3, COUNTRIES.length, 2, NAME_AVGDL), 5);
  });

  it('simple_query_string: + | - operators, phrases, prefixes, flags; never a syntax error', async () => {
    expect(await sorted({ simple_query_string: { query: 'south + -korea', fields: ['name'] } })).toEqual(['South Africa', 'South Sudan']);
    expect(await sorted({ simple_query_string: { query: '"united states" | japan', fields: ['name'] } })).toEqual(['Japan', 'United States']);
    expect(await sorted({ simple_query_string: { query: 'gui*', fields: ['name'], default_operator: 'and' } })).toEqual(['Equatorial Guinea', 'Guinea', 'Papua New Guinea']);
    expect(await sorted({ simple_query_string: { query: 'new + zealand', fields: ['name'], flags: 'WHITESPACE' } })).toEqual(['New Zealand', 'Papua New Guinea']);
    expect((await t.search({ simple_query_string: { query: '(("unclosed -', fields: ['name'] } })).total).toBe(0);
    expect((await t.search({ simple_query_string: { query: '-korea', fields: ['name'] } })).total).toBe(COUNTRIES.length - 2);
  });

  it('refuses a syntax error with a 400 naming its column, and what a query string may not expand to', async () => {
    const syntax = await refused({ query_string: { query: 'name:(south' } }, 'services.storage.invalid_search_query');
    expect(syntax.message).toContain("Failed to parse query [name:(south]: Cannot parse 'name:(south': Encountered \"<EOF>\" at line 1, column 11.");
    await refused({ query_string: { query: `${'('.repeat(40)}south${')'.repeat(40)}` } }, 'services.storage.query_too_deep', 'count');
    await refused({ query_string: { query: Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' '), default_field: 'name' } }, 'services.storage.too_many_clauses');
    const flags = await refused({ simple_query_string: { query: 'a', flags: 'SOMETIMES' } }, 'services.storage.invalid_search_query');
    expect(flags.message).toContain('Unknown simple_query_string flag [SOMETIMES]');
  });

  it("never shows or counts another tenant's entities, whatever the query string", async () => {
    // every field by default: bob is also the id of the user who wrote both of tenant b's islands
    expect(await sorted({ query_string: { query: 'bob' } }, t.writerB, t.islands)).toEqual(['Isle of Bob', 'Islet Beta']);
    const bobId = (await t.search({ query_string: { query: 'name:bob' } }, t.writerB, t.islands)).hits[0]._id;
    for (const query of [
      { query_string: { query: '*' } },
      { query_string: { query: '*:*' } },
      { query_string: { query: 'isl*' } },
      { query_string: { query: `_id:${bobId}` } },
      { query_string: { query: 'allowTenantIds:tenant-b OR allowTenantIds:tenant-a' } },
      { query_string: { query: 'NOT allowTenantIds:tenant-a' } },
      { query_string: { query: '-bob', fields: ['*'] } },
      { simple_query_string: { query: 'isle | islet | bob' } },
      { simple_query_string: { query: '-anna' } },
    ]) {
      await t.expectIslandsIsolated(query);
    }
    expect(await sorted({ query_string: { query: '*' } }, t.writerA, t.islands)).toEqual(['Isle of Anna', 'Isle of Man', 'Islet Alpha']);
    expect(await sorted({ query_string: { query: `_id:${bobId}` } }, t.writerA, t.islands)).toEqual([]);
  });
});
