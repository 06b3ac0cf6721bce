/**
 * Conformance, DESIGN.md "Search" (and "Embedded engine" for scores): pages, exact totals, order,
 * scores, sorting and search_after, _source, counts, and the refusals, on every store target.
 */
import { COUNTRIES } from '../support/e2e';
import type { TestServer } from '../support/testServer';
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { describeEachStore } from './support/targets';
import { bm25 } from './support/searchFixture';

/** Four names, 9 terms: "korea" in 3 of them, "south" in 2. */
const SCORED = ['South Korea', 'South Africa', 'North Korea', 'Republic of Korea'];

describeEachStore('search', (target) => {
  const gw = gatewayOn(target);
  let server: TestServer;
  let admin: Caller;
  let reader: Caller;
  const countries = uniqueCollection();
  const scored = uniqueCollection();
  const path = (type: { collection: string }, suffix: string) => `/v4/entity/${type.collection}${suffix}`;
  const search = (body: unknown, query = '', as: Caller = reader) => ok(as, 'POST', path(countries, `/search${query}`), body);

  beforeAll(async () => {
    server = gw.server();
    admin = { server, token: await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] }) };
    reader = { server, token: await server.token({ sub: 'rita', tenantId: 'acme', roles: [] }) };
    const bulk = await ok(admin, 'POST', path(countries, '/_bulk'), COUNTRIES.map((c) => ({ ...c, allowTenantIds: ['*'] })));
    expect(bulk.errors).toEqual([]);
    const more = await ok(admin, 'POST', path(scored, '/_bulk'), SCORED.map((name) => ({ name, allowTenantIds: ['*'] })));
    expect(more.errors).toEqual([]);
  });

  it('{} lists every entity of the type with the exact total', async () => {
    const result = await search({}, '?size=100');
    expect(result.total).toBe(COUNTRIES.length);
    expect(result.hits.map((h: any) => h._source.name).sort()).toEqual(COUNTRIES.map((c) => c.name).sort());
    for (const hit of result.hits) {
      expect(hit._id).toBe(hit._source.id);
      expect(hit._score).toBe(1);
      expect(hit._source.entityType).toBe(countries.entityType);
    }
  });

  it('pages are disjoint and complete, each with the exact total; past the end is empty', async () => {
    const pages = [];
    for (const from of [0, 10, 20]) pages.push(await search({}, `?from=${from}&size=10`));
    expect(pages.map((p) => p.hits.length)).toEqual([10, 10, 5]);
    for (const page of pages) expect(page.total).toBe(25);
    expect(new Set(pages.flatMap((p) => p.hits.map((h: any) => h._id))).size).toBe(25);
    expect(await search({}, '?from=30&size=10')).toEqual({ hits: [], total: 25 });
    // from/size in the body, when not in the query string
    expect((await search({ from: 20, size: 10 })).hits).toHaveLength(5);
  });

  it('a match ranks the best entity first, scores never increase, totals count every match', async () => {
    for (const wanted of ['South Korea', 'Papua New Guinea', 'United Arab Emirates']) {
      const result = await search({ query: { match: { name: wanted } } });
      expect(result.hits[0]._source.name).toBe(wanted);
      const scores = result.hits.map((h: any) => h._score);
      for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
      expect(scores[0]).toBeGreaterThan(scores[1]);
    }
    const korea = await search({ query: { match: { name: 'south korea' } } });
    expect(korea.total).toBe(4);
    expect(korea.hits.map((h: any) => h._source.name).sort()).toEqual(['North Korea', 'South Africa', 'South Korea', 'South Sudan']);
  });

  it('scores are BM25 as Elasticsearch computes them (one shard: the collection is the statistics)', async () => {
    const result = await ok(reader, 'POST', path(scored, '/search'), { query: { match: { name: 'south korea' } } });
    const avgdl = 9 / 4;
    const korea2 = bm25(3, 4, 2, avgdl);
    const south2 = bm25(2, 4, 2, avgdl);
    expect(result.total).toBe(4);
    expect(result.hits.map((h: any) => h._source.name)).toEqual(['South Korea', 'South Africa', 'North Korea', 'Republic of Korea']);
    const expected = [south2 + korea2, south2, korea2, bm25(3, 4, 3, avgdl)];
    result.hits.forEach((hit: any, i: number) => expect(hit._score).toBeCloseTo(expected[i], 5));
  });

  it('the tenant filter never changes scores', async () => {
    const body = { query: { match: { name: 'south korea' } } };
    const asReader = await ok(reader, 'POST', path(scored, '/search'), body);
    const asAdmin = await ok(admin, 'POST', path(scored, '/search'), body);
    expect(asReader.hits.map((h: any) => [h._id, h._score])).toEqual(asAdmin.hits.map((h: any) => [h._id, h._score]));
  });

  it('sorts by a keyword field, with null scores and sort values, and pages on with search_after', async () => {
    const sort = [{ 'code.keyword': 'asc' }];
    const seen: string[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const page = await search({ sort, size: 10, ...(after ? { search_after: after } : {}) });
      expect(page.total).toBe(25);
      if (page.hits.length === 0) break;
      for (const hit of page.hits) {
        expect(hit._score).toBeNull();
        expect(hit.sort).toEqual([hit._source.code]);
        seen.push(hit._source.code);
      }
      after = page.hits[page.hits.length - 1].sort;
    }
    expect(seen).toEqual(COUNTRIES.map((c) => c.code).sort());
  });

  it('sorts descending on a keyword, then by score', async () => {
    const result = await search({ query: { match: { name: 'south korea' } }, sort: [{ 'name.keyword': 'desc' }, '_score'] });
    expect(result.hits.map((h: any) => h._source.name)).toEqual(['South Sudan', 'South Korea', 'South Africa', 'North Korea']);
    for (const hit of result.hits) expect(hit.sort).toEqual([hit._source.name, expect.any(Number)]);
  });

  it('filters _source', async () => {
    const result = await search({ query: { term: { 'code.keyword': 'FR' } }, _source: ['name'] });
    expect(result.hits).toEqual([{ _id: expect.any(String), _score: expect.any(Number), _source: { name: 'France' } }]);
  });

  it('answers term, terms, prefix, bool and constant_score queries alike', async () => {
    const names = async (query: unknown) => (await search({ query }, '?size=100')).hits.map((h: any) => h._source.name).sort();
    expect(await names({ term: { 'code.keyword': 'NZ' } })).toEqual(['New Zealand']);
    expect(await names({ terms: { 'code.keyword': ['NZ', 'PG'] } })).toEqual(['New Zealand', 'Papua New Guinea']);
    expect(await names({ prefix: { 'name.keyword': 'United' } })).toEqual(['United Arab Emirates', 'United Kingdom', 'United States']);
    expect(await names({ bool: { must: [{ match: { name: 'guinea' } }], must_not: [{ match: { name: 'new' } }] } })).toEqual(['Equatorial Guinea', 'Guinea']);
    const constant = await search({ query: { constant_score: { filter: { match: { name: 'korea' } }, boost: 2.5 } } });
    expect(constant.hits.map((h: any) => h._score)).toEqual([2.5, 2.5]);
  });

  it('counts like it searches', async () => {
    expect(await ok(reader, 'POST', path(countries, '/count'), {})).toEqual({ count: 25 });
    expect(await ok(reader, 'POST', path(countries, '/count'), { query: { match: { name: 'south korea' } } })).toEqual({ count: 4 });
  });

  it('a type without entities searches and counts to nothing', async () => {
    const empty = uniqueCollection('regions');
    expect(await ok(reader, 'POST', path(empty, '/search'), {})).toEqual({ hits: [], total: 0 });
    expect(await ok(reader, 'POST', path(empty, '/count'), {})).toEqual({ count: 0 });
  });

  it('refuses unsupported clauses and body keys (400 naming them), scripts, and windows over 10,000 (413)', async () => {
    const unsupported = await failsWith(reader, 'POST', path(countries, '/search'), { query: { more_like_this: { like: 'x' } } }, 'services.storage.invalid_search_query', 400);
    expect(unsupported.message).toContain('more_like_this');
    const suggest = await failsWith(reader, 'POST', path(countries, '/search'), { suggest: {} }, 'services.storage.invalid_search_query', 400);
    expect(suggest.message).toContain('suggest');
    await failsWith(reader, 'POST', path(countries, '/search'), { query: { bool: { filter: [{ script: { script: 'true' } }] } } }, 'services.storage.invalid_search_query', 400);
    await failsWith(reader, 'POST', path(countries, '/search?from=9995&size=10'), {}, 'services.storage.get_limit_exceeded', 413);
    await failsWith(reader, 'POST', path(countries, '/count'), { query: { regexp: { name: 'x(.*' } } }, 'services.storage.invalid_search_query', 400);
  });

  it('runs pattern queries (prefix, wildcard, regexp, case-insensitive term) and refuses those over the limits', async () => {
    const names = async (query: unknown) => (await search({ query, size: 50 })).hits.map((h: any) => h._source.name).sort();
    expect(await names({ prefix: { 'name.keyword': 'South' } })).toEqual(['South Africa', 'South Korea', 'South Sudan']);
    expect(await names({ wildcard: { 'code.keyword': { value: 'g?', case_insensitive: true } } })).toEqual(['Equatorial Guinea', 'Guinea', 'United Kingdom']);
    expect(await names({ regexp: { name: { value: '(.*)guin(ea)?', flags: 'ALL' } } })).toEqual(['Equatorial Guinea', 'Guinea', 'Papua New Guinea']);
    expect(await names({ regexp: { 'code.keyword': 'K[PR]' } })).toEqual(['North Korea', 'South Korea']);
    expect(await names({ term: { 'code.keyword': { value: 'fr', case_insensitive: true } } })).toEqual(['France']);
    expect((await search({ query: { wildcard: { 'name.keyword': '*a*a*a*a*a*b' } } })).total).toBe(0);
    await failsWith(reader, 'POST', path(countries, '/search'), { query: { regexp: { name: '(a|b)*a(a|b){40}' } } }, 'services.storage.too_complex_to_determinize', 400);
    await failsWith(reader, 'POST', path(countries, '/search'), { query: { regexp: { name: 'a'.repeat(1001) } } }, 'services.storage.regex_too_long', 400);
    await failsWith(reader, 'POST', path(countries, '/search'), { query: { terms: { code: Array.from({ length: 65_537 }, (_, i) => i) } } }, 'services.storage.too_many_terms', 400);
  });

  it('takes a time budget, and answers without timed_out when it was enough', async () => {
    const result = await search({ query: { match: { name: 'south' } }, timeout: '5s' });
    expect(result.total).toBe(3);
    expect(result.timed_out).toBeUndefined();
    await failsWith(reader, 'POST', path(countries, '/search'), { timeout: 'soon' }, 'api.assert.invalid_argument', 400);
  });

  it('refuses a sort on a text field (400 services.storage.invalid_search_query)', async () => {
    await failsWith(reader, 'POST', path(countries, '/search'), { sort: ['name'] }, 'services.storage.invalid_search_query', 400);
  });
});
