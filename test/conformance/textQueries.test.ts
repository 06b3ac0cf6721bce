/**
 * Conformance of the multi-field and positional text queries (README "Query DSL": combined_fields, intervals)
 * on every store target: the same matches, order and scores (BM25F as Lucene's CombinedFieldQuery),
 * the same 400s, explanations whose values are the scores; and tenant isolation (another tenant's
 * entity is never found, counted or explained).
 */
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { describeEachStore } from './support/targets';

const ARTICLES = [
  { code: 'a', title: 'apple pear', body: 'apple apple tree' },
  { code: 'b', title: 'tree', body: 'pear apple' },
  { code: 'c', title: 'apple' },
  { code: 'd', title: 'red', body: 'x y z w v u t s r q p o apple' },
];

describeEachStore('text queries: combined_fields and intervals', (target) => {
  const gw = gatewayOn(target);
  let admin: Caller;
  let writerA: Caller;
  let writerB: Caller;
  const articles = uniqueCollection('articles');
  const path = (suffix: string) => `/v4/entity/${articles.collection}${suffix}`;
  const search = async (body: Record<string, unknown>, who: Caller = writerA) => ok(who, 'POST', path('/search?size=50'), body);
  const scored = async (query: unknown, who: Caller = writerA) => (await search({ query }, who)).hits.map((h: any) => [h._source.code, h._score]);

  beforeAll(async () => {
    admin = await gw.caller('ada', 'hq', ['admin']);
    writerA = await gw.caller('anna', 'tenant-a', ['writer']);
    writerB = await gw.caller('bob', 'tenant-b', ['writer']);
    await ok(admin, 'PUT', path('/_mapping'), { properties: { code: { type: 'keyword' }, title: { type: 'text' }, body: { type: 'text' } } });
    for (const article of ARTICLES) await ok(writerA, 'POST', path(''), article);
    // another tenant's entity counts in the collection's statistics (as in Elasticsearch), never in results
    await ok(writerB, 'POST', path(''), { code: 'z', title: 'pear', body: 'pear pear' });
  });

  it('scores the fields as one field (BM25F), weights multiplying frequencies and lengths', async () => {
    expect((await scored({ combined_fields: { query: 'apple', fields: ['title', 'body'] } })).map(([code]: [string]) => code)).toEqual(['a', 'c', 'b', 'd']);
    // "red" is in d's title alone: sumTotalTermFreq trunc(1.5 * sum of body lengths) + sum of title lengths
    const red = await scored({ combined_fields: { query: 'red', fields: ['title', 'body^1.5'] } });
    expect(red.map(([code]: [string]) => code)).toEqual(['d']);
    expect(await scored({ combined_fields: { query: 'apple tree', fields: ['title^2', 'body'], operator: 'and' } })).toHaveLength(2);
    const explained = await search({ query: { combined_fields: { query: 'apple pear', fields: ['title', 'body'] } }, explain: true });
    for (const hit of explained.hits) expect(hit._explanation.value).toBe(hit._score);
    await failsWith(writerA, 'POST', path('/search'), { query: { combined_fields: { query: 'apple', fields: ['title^0.5'] } } }, 'services.storage.invalid_search_query', 400);
    await failsWith(writerA, 'POST', path('/search'), { query: { combined_fields: { query: 'apple', fields: ['title', 'code'] } } }, 'services.storage.invalid_search_query', 400);
  });

  it('intervals finds words in order, near each other, with filters', async () => {
    const ids = async (rule: unknown, who: Caller = writerA) => (await search({ query: { intervals: { body: rule } } }, who)).hits.map((h: any) => h._source.code).sort();
    expect(await ids({ match: { query: 'apple tree', ordered: true, max_gaps: 0 } })).toEqual(['a']);
    expect(await ids({ match: { query: 'apple pear' } })).toEqual(['b']);
    expect(await ids({ all_of: { intervals: [{ prefix: { prefix: 'app' } }, { fuzzy: { term: 'tere' } }], ordered: true } })).toEqual(['a']);
    expect(await ids({ match: { query: 'apple', filter: { after: { match: { query: 'pear' } } } } })).toEqual(['b']);
    const scored = await search({ query: { intervals: { body: { match: { query: 'apple pear' } } } }, explain: true });
    // b: "pear apple", one interval of width 2 (minExtent 2): S = 1, score 1 * 1 / (1 + 1)
    expect(scored.hits.map((h: any) => h._score)).toEqual([0.5]);
    expect(scored.hits[0]._explanation.value).toBe(0.5);
    await failsWith(writerA, 'POST', path('/search'), { query: { intervals: { code: { match: { query: 'a' } } } } }, 'services.storage.invalid_search_query', 400);
    await failsWith(writerA, 'POST', path('/search'), { query: { intervals: { body: { regexp: { pattern: 'a.' } } } } }, 'services.storage.invalid_search_query', 400);
  });

  it('never shows, counts or explains another tenant entity', async () => {
    const pearPear = { intervals: { body: { match: { query: 'pear pear' } } } };
    expect((await search({ query: pearPear })).total).toBe(0);
    expect((await ok(writerA, 'POST', path('/count'), { query: pearPear })).count).toBe(0);
    expect((await search({ query: pearPear }, writerB)).hits.map((h: any) => h._source.code)).toEqual(['z']);
    const pear = await search({ query: { combined_fields: { query: 'pear', fields: ['title', 'body'] } }, explain: true });
    expect(pear.hits.map((h: any) => h._source.code).sort()).toEqual(['a', 'b']);
    expect(pear.total).toBe(2);
    expect(JSON.stringify(pear.hits)).not.toContain('tenant-b');
    expect((await ok(writerA, 'POST', path('/count'), { query: { combined_fields: { query: 'pear', fields: ['title', 'body'] } } })).count).toBe(2);
    expect((await scored({ combined_fields: { query: 'pear', fields: ['title', 'body'] } }, writerB)).map(([code]: [string]) => code)).toEqual(['z']);
  });
});
