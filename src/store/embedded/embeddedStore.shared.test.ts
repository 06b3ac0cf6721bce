/** Several embedded stores on one DATA_DIR (WORKERS, or gateways started separately): each follows the others' writes. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RemoteChange, SearchResult } from '../port';
import { EmbeddedDatabase } from './database';
import { EmbeddedStore } from './embeddedStore';

let dir: string;
const open: { close(): unknown }[] = [];
function store(): EmbeddedStore {
  const s = new EmbeddedStore(dir, 100, {}, 5);
  open.push(s);
  return s;
}
const record = (id: string) => ({ _id: id, userId: 'u', tenantId: 't', roles: [], description: '', expiresAt: -1, ttl: -1, fingerprint: 'f', _service_info: { author: 'u', createdAt: 1, updatedAt: null, updater: null } });
const doc = (name: string, slug = name) => ({ name, slug });
const names = async (s: EmbeddedStore) => ((await s.entities.search('things', { from: 0, size: 100, sort: [{ slug: 'asc' }] }, null)) as SearchResult).hits.map((h) => h._source?.name);

beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'shared-store-'))));
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded stores sharing one DATA_DIR', () => {
  it('each reads what the other acknowledged, at once, and loads it all at start', async () => {
    const one = store();
    const two = store();
    expect(await one.entities.create('things', 'a', doc('alpha'))).toBe('ok');
    expect(await two.entities.get('things', 'a')).toEqual(doc('alpha'));
    expect(await two.entities.count('things', { match: { name: 'alpha' } }, null)).toEqual({ count: 1 });
    expect(await two.entities.create('things', 'b', doc('beta'))).toBe('ok');
    expect(await one.entities.replace('things', 'b', doc('beta two', 'beta'), 'update')).toBe('ok');
    expect(await names(two)).toEqual(['alpha', 'beta two']);
    expect(await two.entities.delete('things', 'a')).toBe(true);
    expect(await one.entities.get('things', 'a')).toBeNull();
    expect(await one.entities.delete('things', 'a')).toBe(false);
    expect(await names(store())).toEqual(['beta two']);
  });

  it('applies interleaved writes to one entity in their commit order everywhere', async () => {
    const stores = [store(), store(), store()];
    await stores[0].entities.create('things', 'x', doc('v0', 'x'));
    for (let i = 1; i <= 30; i++) expect(await stores[i % 3].entities.replace('things', 'x', doc(`v${i}`, 'x'))).toBe('ok');
    for (const s of stores) expect(await s.entities.get('things', 'x')).toEqual(doc('v30', 'x'));
  });

  it("tells its listeners of the others' changes (with the entity before them), never of its own", async () => {
    const one = store();
    const two = store();
    const heard: RemoteChange[] = [];
    two.onRemoteChange((c) => heard.push(c));
    const mine: RemoteChange[] = [];
    one.onRemoteChange((c) => mine.push(c));
    await one.entities.create('things', 'a', doc('alpha'));
    await one.entities.replace('things', 'a', doc('alpha 2', 'alpha'), 'replace');
    await one.apiKeys.createKey(record('k'));
    await one.apiKeys.deleteKey('k');
    await one.entities.delete('things', 'a');
    // no read on two: its poll (every 5 ms here) hears of them
    for (let t = 0; t < 100 && heard.length < 4; t++) await new Promise((r) => setTimeout(r, 10));
    expect(heard).toEqual([
      { kind: 'entity', action: 'create', collection: 'things', _id: 'a', source: doc('alpha'), previous: null },
      { kind: 'entity', action: 'replace', collection: 'things', _id: 'a', source: doc('alpha 2', 'alpha'), previous: doc('alpha') },
      { kind: 'apiKeyDeleted', _id: 'k' },
      { kind: 'entity', action: 'delete', collection: 'things', _id: 'a', source: null, previous: doc('alpha 2', 'alpha') },
    ]);
    expect(mine).toEqual([]);
    expect(await two.apiKeys.getKey('k')).toBeNull();
  });

  it('reloads everything when it missed changes the log no longer holds', async () => {
    const one = store();
    const two = store();
    await one.entities.create('things', 'a', doc('alpha'));
    expect(await names(two)).toEqual(['alpha']);
    const other = new EmbeddedDatabase(dir);
    open.push(other);
    // two reads nothing for a while: writes, then the log is pruned past them
    (two as unknown as { follower: { close(): void } }).follower.close();
    await one.entities.create('things', 'b', doc('beta'));
    await one.apiKeys.createKey(record('k2'));
    await one.entities.delete('things', 'a');
    await one.entities.create('things', 'c', doc('gamma'));
    expect(other.pruneChanges(-1000)).toBeGreaterThan(0);
    expect(await names(two)).toEqual(['beta', 'gamma']);
    expect(await two.apiKeys.getKey('k2')).toEqual(record('k2'));
  });

  it('after a reload, finds a write committed while it loaded (even with no write after it)', async () => {
    const one = store();
    const two = store();
    await one.entities.create('things', 'a', doc('alpha'));
    expect(await names(two)).toEqual(['alpha']);
    (two as unknown as { follower: { close(): void } }).follower.close();
    await one.entities.create('things', 'b', doc('beta'));
    await one.apiKeys.createKey(record('k'));
    expect(new EmbeddedDatabase(dir).pruneChanges(-1000)).toBeGreaterThan(0);
    // the write lands once two's reload has read everything, and nothing is written after it
    const db = (two as unknown as { db: EmbeddedDatabase }).db;
    const snapshot = db.snapshot.bind(db);
    let landed = false;
    db.snapshot = ((read) => {
      const out = snapshot(read);
      if (!landed) {
        landed = true;
        const writer = new EmbeddedDatabase(dir);
        writer.insertEntities('things', [{ id: 'c', source: doc('gamma') }]);
        writer.close();
      }
      return out;
    }) as typeof db.snapshot;
    expect(await names(two)).toEqual(['alpha', 'beta']);
    expect(landed).toBe(true);
    expect(await names(two)).toEqual(['alpha', 'beta', 'gamma']);
  });
});
