/**
 * Conformance of the as-you-type queries (match_phrase_prefix, match_bool_prefix, multi_match of
 * types phrase_prefix, bool_prefix and cross_fields) on every store target: what a search box finds
 * letter after letter, Elasticsearch's scores, the refusals, and tenant isolation (a prefix never
 * brings another tenant's entity into a page or a count).
 */
import { COUNTRIES } from '../support/e2e';
import type { TestServer } from '../support/testServer';
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { bm25, NAME_AVGDL as AVGDL } from './support/searchFixture';
import { describeEachStore } from './support/targets';

describeEachStore('as-you-type search', (target) => {
  const gw = gatewayOn(target);
  let server: TestServer;
  /** An admin, a reader of tenant acme, writers of tenants a and b, a reader of tenant c. */
  const as: Record<'admin' | 'reader' | 'writerA' | 'writerB' | 'readerC', Caller> = {} as never;
  const countries = uniqueCollection();
  const islands = uniqueCollection('islands');
  const path = (type: { collection: string }, suffix: string) => `/v4/entity/${type.collection}${suffix}`;
  const search = async (query: unknown, who: Caller = as.reader, type = countries) => ok(who, 'POST', path(type, '/search?size=50'), { query });
  const names = async (query: unknown, who: Caller = as.reader, type = countries) => (await search(query, who, type)).hits.map((h: any) => h._source.name);

  beforeAll(async () => {
    server = gw.server();
    const make = async (sub: string, tenantId: string, roles: string[]) => ({ server, token: await server.token({ sub, tenantId, roles }) });
    as.admin = await make('ada', 'hq', ['admin']);
    as.reader = await make('rita', 'acme', []);
    expect((await ok(as.admin, 'POST', path(countries, '/_bulk'), COUNTRIES.map((c) => ({ ...c, allowTenantIds: ['*'] })))).errors).toEqual([]);
    as.writerA = await make('anna', 'tenant-a', ['writer']);
    as.writerB = await make('bob', 'tenant-b', ['writer']);
    as.readerC = await make('carl', 'tenant-c', []);
    for (const name of ['Isle of Anna', 'Island Alpha', 'Isla Arena']) await ok(as.writerA, 'POST', path(islands, ''), { name });
    for (const name of ['Isle of Bob', 'Island Beta']) await ok(as.writerB, 'POST', path(islands, ''), { name });
    await ok(as.admin, 'POST', path(islands, '/_bulk'), [{ name: 'Isle of Man', allowTenantIds: ['*'] }]);
  });

  it('match_phrase_prefix finds the entity as its name is typed', async () => {
    expect(await names({ match_phrase_prefix: { name: 'fran' } })).toEqual(['France']);
    expect(await names({ match_phrase_prefix: { name: 'United K' } })).toEqual(['United Kingdom']);
    expect((await names({ match_phrase_prefix: { name: 'new' } })).sort()).toEqual(['New Zealand', 'Papua New Guinea']);
    expect(await names({ match_phrase_prefix: { name: 'papua new g' } })).toEqual(['Papua New Guinea']);
    expect(await names({ match_phrase_prefix: { name: 'south s' } })).toEqual(['South Sudan']);
    // the first term starting with "s" is "south": "south south" is nobody's name
    expect(await names({ match_phrase_prefix: { name: { query: 'south s', max_expansions: 1 } } })).toEqual([]);
    expect(await names({ match_phrase_prefix: { name: { query: 'guinea new', slop: 2 } } })).toEqual(['Papua New Guinea']);
    expect((await search({ match_phrase_prefix: { name: 'fran' } })).hits[0]._score).toBeCloseTo(bm25(1, COUNTRIES.length, 1, AVGDL), 5);
  });

  it('match_bool_prefix takes the words in any order, the last one typed as a prefix', async () => {
    const result = await search({ match_bool_prefix: { name: 'united k' } });
    // "united": 3 names; "k" prefixes kingdom and korea (twice), scoring 1 each
    expect(result.total).toBe(5);
    expect(result.hits[0]._source.name).toBe('United Kingdom');
    expect(result.hits[0]._score).toBeCloseTo(bm25(3, COUNTRIES.length, 2, AVGDL) + 1, 5);
    expect(await names({ match_bool_prefix: { name: { query: 'k united', operator: 'and' } } })).toEqual([]);
    expect(await names({ match_bool_prefix: { name: { query: 'kingdom unit', operator: 'and' } } })).toEqual(['United Kingdom']);
    expect((await search({ match_bool_prefix: { name: 'united k ' } })).total).toBe(3); // a space after "k": the word is done
  });

  it('multi_match runs phrase_prefix, bool_prefix and cross_fields over several fields', async () => {
    expect(await names({ multi_match: { query: 'fr', type: 'phrase_prefix', fields: ['name', 'code'] } })).toEqual(['France']);
    expect((await names({ multi_match: { query: 'korea k', type: 'bool_prefix', fields: ['name', 'code'], operator: 'and' } })).sort()).toEqual(['North Korea', 'South Korea']);
    expect(await names({ multi_match: { query: 'korea kp', type: 'cross_fields', fields: ['name', 'code'], operator: 'and' } })).toEqual(['North Korea']);
    expect((await names({ multi_match: { query: 'korea kp', type: 'cross_fields', fields: ['name^2', 'code'] } }))[0]).toBe('North Korea');
  });

  it('refuses what Elasticsearch refuses (400 naming it)', async () => {
    const keyword = await failsWith(as.reader, 'POST', path(countries, '/search'), { query: { match_phrase_prefix: { 'name.keyword': 'Fr' } } }, 'services.storage.invalid_search_query', 400);
    expect(keyword.message).toContain('Can only use phrase prefix queries on text fields');
    await failsWith(as.reader, 'POST', path(countries, '/search'), { query: { match_phrase_prefix: { name: { query: 'x', max_expansions: -1 } } } }, 'services.storage.invalid_search_query', 400);
    const slop = await failsWith(as.reader, 'POST', path(countries, '/search'), { query: { multi_match: { query: 'x', type: 'bool_prefix', slop: 1 } } }, 'services.storage.invalid_search_query', 400);
    expect(slop.message).toContain('[slop] not allowed for type [bool_prefix]');
    await failsWith(as.reader, 'POST', path(countries, '/count'), { query: { match_bool_prefix: { name: { query: 'x', slop: 1 } } } }, 'services.storage.invalid_search_query', 400);
  });

  it("never shows or counts another tenant's entities, whatever the prefix", async () => {
    const queries = [
      { match_phrase_prefix: { name: 'isl' } },
      { match_bool_prefix: { name: 'isle o' } },
      { multi_match: { query: 'is', type: 'bool_prefix', fields: ['name'] } },
      { multi_match: { query: 'isle of', type: 'phrase_prefix', fields: ['name'] } },
      { multi_match: { query: 'isle', type: 'cross_fields', fields: ['name', 'slug'] } },
    ];
    for (const query of queries) {
      const seen = {
        a: (await names(query, as.writerA, islands)).sort(),
        b: (await names(query, as.writerB, islands)).sort(),
        c: (await names(query, as.readerC, islands)).sort(),
      };
      for (const name of seen.a) expect(['Isle of Anna', 'Island Alpha', 'Isla Arena', 'Isle of Man']).toContain(name);
      for (const name of seen.b) expect(['Isle of Bob', 'Island Beta', 'Isle of Man']).toContain(name);
      expect(seen.c.every((name: string) => name === 'Isle of Man')).toBe(true);
      for (const [who, caller] of [['a', as.writerA], ['b', as.writerB], ['c', as.readerC]] as const) {
        expect((await ok(caller, 'POST', path(islands, '/count'), { query })).count).toBe(seen[who].length);
      }
    }
    expect(await names({ match_phrase_prefix: { name: 'isle of' } }, as.readerC, islands)).toEqual(['Isle of Man']);
    expect((await names({ match_phrase_prefix: { name: 'isle of' } }, as.writerA, islands)).sort()).toEqual(['Isle of Anna', 'Isle of Man']);
  });
});
