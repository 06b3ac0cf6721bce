/**
 * Conformance of `nested` (README "Arrays of objects: nested") on every store target: a field a
 * mapping declares `nested` is matched object by object (two conditions hold for one object),
 * score_mode, a nested field inside another, ignore_unmapped and the 400s of an unmapped path and of an object that is not
 * nested, inner_hits with `_nested`, the nested objects limit; and tenant isolation (a nested query never matches, and an
 * inner hit never shows, another tenant's entity).
 */
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { describeEachStore } from './support/targets';

const BOLT_AND_BIG = { bool: { must: [{ match: { 'parts.name': 'bolt' } }, { range: { 'parts.n': { gte: 5 } } }] } };

describeEachStore('nested', (target) => {
  const gw = gatewayOn(target);
  let writerA: Caller;
  let writerB: Caller;
  const kits = uniqueCollection('kits');
  const path = (suffix: string) => `/v4/entity/${kits.collection}${suffix}`;
  const search = async (body: Record<string, unknown>, who: Caller = writerA) => ok(who, 'POST', path('/search?size=50'), body);
  const names = async (query: unknown, who: Caller = writerA) => (await search({ query }, who)).hits.map((h: any) => h._source.name);

  beforeAll(async () => {
    const admin = await gw.caller('ada', 'tenant-a', ['admin']);
    writerA = await gw.caller('anna', 'tenant-a', ['writer']);
    writerB = await gw.caller('bob', 'tenant-b', ['writer']);
    await ok(admin, 'PUT', path('/_mapping'), { properties: { name: { type: 'keyword' }, parts: { type: 'nested', properties: { name: { type: 'text' }, n: { type: 'integer' }, screws: { type: 'nested', properties: { size: { type: 'long' } } } } }, box: { properties: { name: { type: 'text' } } } } });
    await ok(writerA, 'POST', path(''), { name: 'small', parts: [{ name: 'bolt', n: 3 }, { name: 'nut', n: 7 }], box: { name: 'card' } });
    await ok(writerA, 'POST', path(''), { name: 'large', parts: [{ name: 'bolt', n: 9, screws: [{ size: 4 }] }, { name: 'washer', n: 1, screws: [{ size: 6 }] }] });
    await ok(writerB, 'POST', path(''), { name: 'secret', parts: [{ name: 'bolt', n: 8 }] });
  });

  it('matches one object at a time, scores per score_mode', async () => {
    expect(await names({ nested: { path: 'parts', query: BOLT_AND_BIG } })).toEqual(['large']);
    const scored = await search({ query: { nested: { path: 'parts', query: { match: { 'parts.name': 'bolt nut' } }, score_mode: 'sum' } } });
    expect(scored.hits.map((h: any) => h._source.name)).toEqual(['small', 'large']);
    const none = await search({ query: { nested: { path: 'parts', query: { match: { 'parts.name': 'bolt' } }, score_mode: 'none' } } });
    expect(none.hits.map((h: any) => h._score)).toEqual([0, 0]);
    // the nested fields are not the entity's
    expect((await ok(writerA, 'POST', path('/count'), { query: { match: { 'parts.name': 'bolt' } } })).count).toBe(0);
  });

  it('inner_hits: the matching objects with _nested, highlighted', async () => {
    const r = await search({ query: { nested: { path: 'parts', query: BOLT_AND_BIG, inner_hits: { name: 'found', highlight: { fields: { 'parts.name': {} } } } } } });
    expect(r.hits).toHaveLength(1);
    expect(r.hits[0].inner_hits.found.hits.hits[0].highlight).toEqual({ 'parts.name': ['<em>bolt</em>'] });
    const inner = r.hits[0].inner_hits.found.hits;
    expect(inner.total).toBe(1);
    expect(inner.hits.map((h: any) => [h._id, h._nested, h._source])).toEqual([[r.hits[0]._id, { field: 'parts', offset: 0 }, { name: 'bolt', n: 9, screws: [{ size: 4 }] }]]);
  });

  it('a nested field inside another: at the root, and inside a nested query on the outer one, with inner hits inside inner hits', async () => {
    expect(await names({ nested: { path: 'parts.screws', query: { term: { 'parts.screws.size': 6 } } } })).toEqual(['large']);
    const boltWith6 = { bool: { must: [{ match: { 'parts.name': 'bolt' } }, { nested: { path: 'parts.screws', query: { term: { 'parts.screws.size': 6 } } } }] } };
    expect(await names({ nested: { path: 'parts', query: boltWith6 } })).toEqual([]);
    const r = await search({ query: { nested: { path: 'parts', inner_hits: {}, query: { nested: { path: 'parts.screws', query: { range: { 'parts.screws.size': { gte: 5 } } }, inner_hits: { name: 'screws' } } } } } });
    const part = r.hits[0].inner_hits.parts.hits.hits[0];
    expect(part._nested).toEqual({ field: 'parts', offset: 1 });
    expect(part.inner_hits.screws.hits.hits.map((h: any) => [h._nested, h._source])).toEqual([[{ field: 'parts', offset: 1, _nested: { field: 'screws', offset: 0 } }, { size: 6 }]]);
  });

  it('ignore_unmapped; an unmapped path and an object that is not nested are 400', async () => {
    expect(await names({ nested: { path: 'nothing', query: { match_all: {} }, ignore_unmapped: true } })).toEqual([]);
    const unmapped = await failsWith(writerA, 'POST', path('/search'), { query: { nested: { path: 'nothing', query: { match_all: {} } } } }, 'services.storage.invalid_search_query', 400);
    expect(unmapped.message).toContain('[nested] failed to find nested object under path [nothing]');
    const object = await failsWith(writerA, 'POST', path('/search'), { query: { nested: { path: 'box', query: { match_all: {} } } } }, 'services.storage.invalid_search_query', 400);
    expect(object.message).toContain('[nested] nested object under path [box] is not of nested type');
  });

  it('an object field an entity mapped dynamically cannot become nested (400 mapping_conflict)', async () => {
    const admin = await gw.caller('ada', 'tenant-a', ['admin']);
    const loose = uniqueCollection('boxes');
    await ok(writerA, 'POST', `/v4/entity/${loose.collection}`, { name: 'x', parts: [{ name: 'bolt' }] });
    const conflict = await failsWith(admin, 'PUT', `/v4/entity/${loose.collection}/_mapping`, { properties: { parts: { type: 'nested' } } }, 'services.storage.mapping_conflict', 400);
    expect(conflict.message).toContain('[parts]');
  });

  it('refuses a mapping of more than 50 nested fields (index.mapping.nested_fields.limit)', async () => {
    const admin = await gw.caller('ada', 'tenant-a', ['admin']);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`n${i}`, { type: 'nested' }]));
    const refused = await failsWith(admin, 'PUT', `/v4/entity/${uniqueCollection('crates').collection}/_mapping`, { properties: many }, 'services.storage.invalid_mapping', 400);
    expect(refused.message).toContain('Limit of nested fields [50] has been exceeded');
  });

  it('refuses an entity with more than 10,000 nested objects (index.mapping.nested_objects.limit)', async () => {
    const parts = Array.from({ length: 10_001 }, () => ({ name: 'bolt' }));
    await failsWith(writerB, 'POST', path(''), { name: 'huge', parts }, 'services.storage.nested_objects_limit', 400);
  });

  it("never matches, counts or shows another tenant's entity", async () => {
    const query = { nested: { path: 'parts', query: { match: { 'parts.name': 'bolt' } }, inner_hits: { size: 10 } } };
    const mine = await search({ query });
    expect(mine.hits.map((h: any) => h._source.name).sort()).toEqual(['large', 'small']);
    const ids = new Set(mine.hits.map((h: any) => h._id));
    for (const hit of mine.hits) for (const inner of hit.inner_hits.parts.hits.hits) expect(ids.has(inner._id)).toBe(true);
    expect(JSON.stringify(mine)).not.toContain('"n":8');
    expect((await ok(writerA, 'POST', path('/count'), { query })).count).toBe(2);
    expect(await names(query, writerB)).toEqual(['secret']);
  });
});
