import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedStore } from './embeddedStore';
import { HITS_JSON, SOURCE_JSON, type SearchRequest } from '../port';

describe('the embedded store request cache', () => {
  let dir: string;
  let store: EmbeddedStore;
  const all: SearchRequest = { from: 0, size: 10, query: { match: { name: 'red' } } };
  const tenant = { terms: { allowTenantIds: ['t1', '*'] } };
  const names = async (request = all, filter: Record<string, unknown> | null = tenant) => (await store.entities.search('things', request, filter)).hits.map((h) => h._source?.name);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'search-cache-'));
    store = new EmbeddedStore(dir, 100);
    await store.entities.createMany('things', [
      { id: 'a', source: { slug: 'a', name: 'red apple', allowTenantIds: ['t1'], at: '2020-01-01' } },
      { id: 'b', source: { slug: 'b', name: 'red car', allowTenantIds: ['t2'], at: '2020-01-01' } },
    ]);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a repeated search the same, with fresh hits each time', async () => {
    const first = await store.entities.search('things', all, tenant);
    const again = await store.entities.search('things', all, tenant);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    expect(again.hits[0]).not.toBe(first.hits[0]);
    again.hits[0]._source!.name = 'changed by a caller';
    expect(await names()).toEqual(['red apple']);
  });

  it('gives a repeated search the text of its page of hits, until the hits are read', async () => {
    await store.entities.search('things', all, null);
    const cached = await store.entities.search('things', all, null);
    const text = cached[HITS_JSON]?.text;
    expect(text).toBe(JSON.stringify([{ _id: 'a', _score: cached.hits[0]._score, _source: { slug: 'a', name: 'red apple', allowTenantIds: ['t1'], at: '2020-01-01' } }, { _id: 'b', _score: cached.hits[1]._score, _source: { slug: 'b', name: 'red car', allowTenantIds: ['t2'], at: '2020-01-01' } }]));
    expect(cached[HITS_JSON]).toBeUndefined(); // the hits were read: they are the truth now
    expect(Object.keys(cached)).toEqual(['hits', 'total']);
  });

  it('keeps no page of more than 100 hits', async () => {
    await store.entities.createMany('things', Array.from({ length: 120 }, (_, i) => ({ id: `m${i}`, source: { slug: `m${i}`, name: 'many' } })));
    const big: SearchRequest = { from: 0, size: 101, query: { match: { name: 'many' } } };
    await store.entities.search('things', big, null);
    expect((await store.entities.search('things', big, null))[HITS_JSON]).toBeUndefined();
    const small: SearchRequest = { ...big, size: 100 };
    await store.entities.search('things', small, null);
    expect((await store.entities.search('things', small, null))[HITS_JSON]).toBeDefined();
  });

  it('keeps no answer computed across a write (a search paused between slices)', async () => {
    const sliced = new EmbeddedStore(mkdtempSync(join(tmpdir(), 'search-cache-')), 100, { sliceMs: 0 });
    try {
      await sliced.entities.createMany('things', [{ id: 'a', source: { slug: 'a', name: 'red apple' } }]);
      const wide: SearchRequest = { from: 0, size: 10, query: { bool: { should: [{ match: { name: 'red' } }, { prefix: { name: 're' } }, { wildcard: { name: 'r*' } }] } } };
      const paused = sliced.entities.search('things', wide, null);
      expect(paused).toBeInstanceOf(Promise);
      await sliced.entities.createMany('things', [{ id: 'b', source: { slug: 'b', name: 'red car' } }]);
      expect((await paused).total).toBe(1); // it read the index as it was
      expect((await sliced.entities.search('things', wide, null)).total).toBe(2);
    } finally {
      await sliced.close();
    }
  });

  it('keeps tenants apart: the filter is part of the key', async () => {
    expect(await names()).toEqual(['red apple']);
    expect(await names(all, { terms: { allowTenantIds: ['t2', '*'] } })).toEqual(['red car']);
  });

  it('sees every write at once: create, replace, delete', async () => {
    expect(await names()).toEqual(['red apple']);
    expect((await store.entities.count('things', all.query, tenant)).count).toBe(1);
    await store.entities.create('things', 'c', { slug: 'c', name: 'red red red', allowTenantIds: ['*'] });
    expect(await names()).toEqual(['red red red', 'red apple']);
    expect((await store.entities.count('things', all.query, tenant)).count).toBe(2);
    await store.entities.replace('things', 'c', { slug: 'c', name: 'blue', allowTenantIds: ['*'] });
    expect(await names()).toEqual(['red apple']);
    await store.entities.delete('things', 'a');
    expect(await names()).toEqual([]);
    expect((await store.entities.count('things', all.query, tenant)).count).toBe(0);
  });

  it('keeps sort values per answer and still hands out stored source text', async () => {
    const sorted = { ...all, sort: [{ 'name.keyword': 'desc' }] };
    await store.entities.search('things', sorted, null);
    const cached = await store.entities.search('things', sorted, null);
    expect(cached.hits.map((h) => h.sort)).toEqual([['red car'], ['red apple']]);
    expect(cached.hits[0][SOURCE_JSON]).toBeDefined();
    cached.hits[0].sort!.push('x');
    expect((await store.entities.search('things', sorted, null)).hits[0].sort).toEqual(['red car']);
  });

  it('keys on highlight and keeps each answer its highlights, copied per answer and in its text', async () => {
    const highlighted: SearchRequest = { ...all, highlight: { fields: { name: {} } } };
    const first = await store.entities.search('things', highlighted, tenant);
    expect(first.hits.map((h) => h.highlight)).toEqual([{ name: ['<em>red</em> apple'] }]);
    // a search without highlight is another entry
    expect((await store.entities.search('things', all, tenant)).hits.map((h) => h.highlight)).toEqual([undefined]);
    const tagged = await store.entities.search('things', { ...all, highlight: { pre_tags: ['['], post_tags: [']'], fields: { name: {} } } }, tenant);
    expect(tagged.hits[0].highlight).toEqual({ name: ['[red] apple'] });
    const again = await store.entities.search('things', highlighted, tenant);
    expect(again[HITS_JSON]?.text).toContain('"highlight":{"name":["<em>red</em> apple"]}');
    const hits = again.hits;
    expect(hits.map((h) => h.highlight)).toEqual([{ name: ['<em>red</em> apple'] }]);
    (hits[0].highlight as Record<string, string[]>).name[0] = 'changed by a caller';
    expect((await store.entities.search('things', highlighted, tenant)).hits[0].highlight).toEqual({ name: ['<em>red</em> apple'] });
  });

  it('keys on aggs and gives each answer its own copy of the aggregations, tenant filter part of the key', async () => {
    const faceted: SearchRequest = { from: 0, size: 0, aggs: { names: { terms: { field: 'name.keyword' } } } };
    const buckets = async (request: SearchRequest, filter: Record<string, unknown> | null) => ((await store.entities.search('things', request, filter)).aggregations as any).names.buckets;
    expect(await buckets(faceted, tenant)).toEqual([{ key: 'red apple', doc_count: 1 }]);
    expect(await buckets(faceted, null)).toEqual([{ key: 'red apple', doc_count: 1 }, { key: 'red car', doc_count: 1 }]);
    const cached = await store.entities.search('things', faceted, tenant);
    (cached.aggregations as any).names.buckets[0].doc_count = 99;
    expect(await buckets(faceted, tenant)).toEqual([{ key: 'red apple', doc_count: 1 }]);
    expect(await buckets({ ...faceted, aggs: { names: { terms: { field: 'slug' } } } }, tenant)).toEqual([{ key: 'a', doc_count: 1 }]);
    await store.entities.create('things', 'c', { slug: 'c', name: 'red apple', allowTenantIds: ['t1'] });
    expect(await buckets(faceted, tenant)).toEqual([{ key: 'red apple', doc_count: 2 }]);
  });

  it('does not cache date math on now', async () => {
    const recent = { from: 0, size: 10, query: { range: { at: { gte: 'now-100y' } } } };
    const key = (store.entities as unknown as { cache: { searchKey: (r: unknown, f: unknown) => string | null } }).cache.searchKey(recent, null);
    expect(key).toBeNull();
    expect(await names(recent, null)).toEqual(['red apple', 'red car']);
  });

  it('keys a request by its own key when it has one, and tells keyed and serialized requests apart', async () => {
    const cache = (store.entities as unknown as { cache: { searchKey: (r: SearchRequest, f: unknown) => string | null } }).cache;
    const keyed = { ...all, key: '0 10 {"query":{"match":{"name":"red"}}}' };
    expect(cache.searchKey(keyed, tenant)).not.toBe(cache.searchKey(all, tenant));
    expect(cache.searchKey(keyed, tenant)).not.toBe(cache.searchKey(keyed, null));
    expect(cache.searchKey(keyed, tenant)).toBe(cache.searchKey({ ...keyed }, { terms: { allowTenantIds: ['t1', '*'] } }));
    expect(await names(keyed)).toEqual(['red apple']);
    expect(await names(keyed, null)).toEqual(['red apple', 'red car']);
  });

  it('does not trust a key with escapes, which could hide date math on now', async () => {
    const cache = (store.entities as unknown as { cache: { searchKey: (r: SearchRequest, f: unknown) => string | null } }).cache;
    const recent = { from: 0, size: 10, query: { range: { at: { gte: 'now-100y' } } }, key: '0 10 {"query":{"range":{"at":{"gte":"\\u006eow-100y"}}}}' };
    expect(cache.searchKey(recent, null)).toBeNull();
    expect(cache.searchKey({ ...recent, key: '0 10 {"query":{"range":{"at":{"gte":"now-100y"}}}}' }, null)).toBeNull();
  });

  it('counts its hits and misses (cacheable lookups only) and its entries, for the metrics; the store tells its sizes', async () => {
    const stats = () => store.stats().searchCache!;
    expect(stats()).toEqual({ searchHits: 0, searchMisses: 0, countHits: 0, countMisses: 0, entries: 0 });
    await names();
    await names();
    await names();
    await store.entities.count('things', undefined, tenant);
    await store.entities.count('things', undefined, tenant);
    expect(stats()).toEqual({ searchHits: 2, searchMisses: 1, countHits: 1, countMisses: 1, entries: 2 });
    // date math on now is never cached, nor counted
    await store.entities.search('things', { from: 0, size: 10, query: { range: { at: { gte: 'now-100y' } } } }, null);
    expect(stats()).toMatchObject({ searchHits: 2, searchMisses: 1 });
    // a write empties the collection's entries; the next search is a miss
    await store.entities.create('things', 'c', { slug: 'c', name: 'red hat', allowTenantIds: ['t1'] });
    expect(stats().entries).toBe(0);
    await names();
    expect(stats()).toMatchObject({ searchHits: 2, searchMisses: 2, entries: 1 });
    // sizes: collections holding entities only (a search of an empty one names nothing)
    await store.entities.search('nothings', all, null);
    expect(store.stats().entities).toEqual(new Map([['things', 3]]));
    expect(store.stats().apiKeys).toBe(0);
  });

  it('can be turned off', async () => {
    const off = new EmbeddedStore(mkdtempSync(join(tmpdir(), 'search-cache-off-')), 0);
    await off.entities.create('things', 'a', { slug: 'a', name: 'red' });
    expect((await off.entities.search('things', all, null)).total).toBe(1);
    expect((off.entities as unknown as { cache: { searchKey: (r: unknown, f: unknown) => string | null } }).cache.searchKey(all, null)).toBeNull();
    await off.close();
  });
});
