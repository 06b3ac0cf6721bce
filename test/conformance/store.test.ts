/**
 * Conformance at the storage port (src/store/port.ts), on the Store that createStore(config) (or
 * the simulated cluster) gives: the outcomes every store returns as values, the errors it throws,
 * and the key records it keeps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { InvalidQueryError, type ApiKeyRecord, type Store } from '../../src/store/port';
import { uniqueCollection } from './support/api';
import { describeEachStore, type Backend } from './support/targets';

const doc = (id: string, slug: string, extra: Record<string, unknown> = {}) => ({ id, entityType: 'x', slug, allowTenantIds: ['acme'], name: `Name ${id}`, ...extra });
const key = (id: string, userId: string): ApiKeyRecord => ({
  _id: id,
  userId,
  tenantId: 'acme',
  roles: ['writer'],
  description: `key ${id}`,
  expiresAt: -1,
  ttl: -1,
  fingerprint: 'f'.repeat(64),
  _service_info: { author: userId, createdAt: 1_700_000_000_000, updatedAt: null, updater: null },
});

describeEachStore('storage port', (target) => {
  let backend: Backend;
  let store: Store;
  let dataDir: string;

  beforeAll(async () => {
    backend = await target.open();
    dataDir = mkdtempSync(join(tmpdir(), 'conformance-port-'));
    store = backend.store(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ES_INDEX_PREFIX: 'conformance', ...backend.env }));
  });

  afterAll(async () => {
    await store?.close();
    await backend?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ready', async () => {
    expect(await store.ready()).toBe(true);
  });

  it('createMany: one outcome per item, in order, as sequential inserts (a taken id wins over a taken slug)', async () => {
    const { collection } = uniqueCollection();
    expect(await store.entities.create(collection, 'pre', doc('pre', 'pre'))).toBe('ok');
    expect(
      await store.entities.createMany(collection, [
        { id: '1', source: doc('1', 'fr') },
        { id: '2', source: doc('2', 'fr') },
        { id: '1', source: doc('1', 'de') },
        { id: '3', source: doc('3', 'de') },
        { id: '1', source: doc('1', 'fr') },
        { id: 'pre', source: doc('pre', 'new') },
        { id: '4', source: doc('4', 'pre') },
      ]),
    ).toEqual(['ok', 'slug_taken', 'id_taken', 'ok', 'id_taken', 'id_taken', 'slug_taken']);
    expect(await store.entities.createMany(collection, [])).toEqual([]);
    expect((await store.entities.count(collection, undefined, null)).count).toBe(3);
  });

  it('createMany keeps every source as given: get and search answer it back, in small and large batches (150: the commit thread)', async () => {
    const { collection } = uniqueCollection();
    const odd = (i: number) => ({
      text: `"quoted" \\ back\nnew\tline \u0001 é 日本 🎉 ${i}`,
      __proto__x: { constructor: 'c', toString: 't', list: [1, -2.5, 1e21, 5e-7, 0, true, false, null, 'x'] },
      nested: { a: { b: { c: [{ d: i }] } } },
      big: 9007199254740991,
      empty: {},
      none: [],
    });
    const large = Array.from({ length: 150 }, (_, i) => ({ id: `l${i}`, source: doc(`l${i}`, `l${i}`, odd(i)) }));
    const small = [0, 1, 2].map((i) => ({ id: `s${i}`, source: doc(`s${i}`, `s${i}`, odd(i)) }));
    const expected = new Map([...large, ...small].map((item) => [item.id, JSON.parse(JSON.stringify(item.source))]));
    expect(await store.entities.createMany(collection, large)).toEqual(large.map(() => 'ok'));
    expect(await store.entities.createMany(collection, small)).toEqual(small.map(() => 'ok'));
    for (const id of ['l0', 'l149', 's2']) expect(await store.entities.get(collection, id)).toEqual(expected.get(id));
    const page = await store.entities.search(collection, { from: 0, size: 200 }, null);
    expect(page.total).toBe(153);
    for (const hit of page.hits) expect(hit._source).toEqual(expected.get(hit._id));
  });

  it('replace and delete: outcomes and freed slugs', async () => {
    const { collection } = uniqueCollection();
    await store.entities.create(collection, 'a', doc('a', 'alpha'));
    await store.entities.create(collection, 'b', doc('b', 'beta'));
    expect(await store.entities.replace(collection, 'nope', doc('nope', 'x'))).toBe('not_found');
    expect(await store.entities.replace(collection, 'b', doc('b', 'alpha'))).toBe('slug_taken');
    expect(await store.entities.replace(collection, 'a', doc('a', 'alpha', { name: 'same slug' }))).toBe('ok');
    expect(await store.entities.replace(collection, 'a', doc('a', 'gamma'))).toBe('ok');
    expect(await store.entities.replace(collection, 'b', doc('b', 'alpha'))).toBe('ok');
    expect(await store.entities.get(collection, 'b')).toEqual(doc('b', 'alpha'));
    expect(await store.entities.delete(collection, 'b')).toBe(true);
    expect(await store.entities.delete(collection, 'b')).toBe(false);
    expect(await store.entities.create(collection, 'c', doc('c', 'alpha'))).toBe('ok');
    expect(await store.entities.create(collection, 'd', doc('d', 'gamma'))).toBe('slug_taken');
  });

  it('ids "." and ".." are ids like any other (WebSocket clients can send them)', async () => {
    const { collection } = uniqueCollection();
    expect(await store.entities.create(collection, '..', doc('..', 'dots'))).toBe('ok');
    expect(await store.entities.create(collection, '.', doc('.', 'dot'))).toBe('ok');
    expect(await store.entities.get(collection, '..')).toEqual(doc('..', 'dots'));
    expect(await store.entities.replace(collection, '..', doc('..', 'two-dots'))).toBe('ok');
    expect(await store.entities.delete(collection, '.')).toBe(true);
    expect((await store.entities.count(collection, undefined, null)).count).toBe(1);
    expect(await store.entities.get(collection, '..')).toEqual(doc('..', 'two-dots'));
    expect(await store.apiKeys.getKey('..')).toBeNull();
    expect(await store.apiKeys.deleteKey('..')).toBe(false);
  });

  it('a collection nobody wrote to: empty search, zero count, null get, false delete', async () => {
    const { collection } = uniqueCollection();
    expect(await store.entities.search(collection, { from: 0, size: 10 }, { terms: { allowTenantIds: ['acme', '*'] } })).toEqual({ hits: [], total: 0 });
    expect((await store.entities.count(collection, { match: { name: 'x' } }, null)).count).toBe(0);
    expect(await store.entities.get(collection, 'x')).toBeNull();
    expect(await store.entities.delete(collection, 'x')).toBe(false);
  });

  it('search: the filter restricts without scoring, pages, sorts, search_after', async () => {
    const { collection } = uniqueCollection();
    const items = Array.from({ length: 12 }, (_, i) => ({ id: `e${String(i).padStart(2, '0')}`, source: doc(`e${String(i).padStart(2, '0')}`, `s${i}`, { allowTenantIds: [i % 2 === 0 ? 'acme' : 'other'], rank: i }) }));
    expect(await store.entities.createMany(collection, items)).toEqual(items.map(() => 'ok'));
    const acme = { terms: { allowTenantIds: ['acme', '*'] } };
    const first = await store.entities.search(collection, { from: 0, size: 4, sort: [{ rank: 'desc' }] }, acme);
    expect(first.total).toBe(6);
    expect(first.hits.map((h) => h._id)).toEqual(['e10', 'e08', 'e06', 'e04']);
    expect(first.hits.map((h) => h._score)).toEqual([null, null, null, null]);
    expect(first.hits[3].sort).toEqual([4]);
    const next = await store.entities.search(collection, { from: 0, size: 4, sort: [{ rank: 'desc' }], search_after: first.hits[3].sort }, acme);
    expect(next.hits.map((h) => h._id)).toEqual(['e02', 'e00']);
    const scored = await store.entities.search(collection, { from: 0, size: 20, query: { match: { name: 'e03' } } }, null);
    expect(scored.hits.map((h) => h._id)).toEqual(['e03']);
    expect(scored.hits[0]._score).toBeGreaterThan(0);
  });

  it('throws InvalidQueryError for a query it cannot run', async () => {
    const { collection } = uniqueCollection();
    await expect(store.entities.search(collection, { from: 0, size: 10, query: { more_like_this: { like: 'x' } } }, null)).rejects.toBeInstanceOf(InvalidQueryError);
    await expect(store.entities.count(collection, { nope: {} }, null)).rejects.toBeInstanceOf(InvalidQueryError);
    await expect(store.apiKeys.searchKeys({ from: 0, size: 10, query: { script: {} } }, null)).rejects.toBeInstanceOf(InvalidQueryError);
  });

  it('API keys: create (id_taken once taken), get back the same record, search with a filter, delete', async () => {
    const user = `u-${uniqueCollection().collection}`;
    const k1 = key(`${user}-1`, user);
    expect(await store.apiKeys.createKey(k1)).toBe('ok');
    expect(await store.apiKeys.createKey({ ...k1, description: 'again' })).toBe('id_taken');
    expect(await store.apiKeys.createKey(key(`${user}-2`, user))).toBe('ok');
    expect(await store.apiKeys.createKey(key(`${user}-3`, `${user}-other`))).toBe('ok');
    expect(await store.apiKeys.getKey(k1._id)).toEqual(k1);
    const mine = await store.apiKeys.searchKeys({ from: 0, size: 10 }, { term: { userId: user } });
    expect(mine.total).toBe(2);
    expect(mine.hits.map((h) => h._id).sort()).toEqual([`${user}-1`, `${user}-2`]);
    expect(mine.hits[0]._source).not.toHaveProperty('_id');
    expect(await store.apiKeys.deleteKey(k1._id)).toBe(true);
    expect(await store.apiKeys.deleteKey(k1._id)).toBe(false);
    expect(await store.apiKeys.getKey(k1._id)).toBeNull();
  });
});
