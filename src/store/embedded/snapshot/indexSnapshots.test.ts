/** The embedded store's index file: read at start instead of re-indexing, caught up from the change log, never trusted when it should not be. */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SearchRequest } from '../../port';
import { DATABASE_FILE, EmbeddedDatabase } from '../database';
import { EmbeddedStore } from '../embeddedStore';
import { FORMAT_VERSION } from '../engine/persist/file';
import { INDEX_FILE } from './indexFile';

let dir: string;
const open: EmbeddedStore[] = [];
let logged: { level: string; message: string; details: Record<string, unknown> }[] = [];
const log = {
  info: (details: object, message: string) => logged.push({ level: 'info', message, details: details as Record<string, unknown> }),
  warn: (details: object, message: string) => logged.push({ level: 'warn', message, details: details as Record<string, unknown> }),
};

function store(quietMs = 60_000): EmbeddedStore {
  const s = new EmbeddedStore(dir, 0, {}, 5, {}, { quietMs, log });
  open.push(s);
  return s;
}
async function closeAll(): Promise<void> {
  for (const s of open.splice(0)) await s.close();
}
const messages = () => logged.map((l) => l.message);
/** Waits (polling) until `done`, for 10 s at most. */
async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done() && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'index-file-store-'));
  logged = [];
});
afterEach(async () => {
  await closeAll();
  rmSync(dir, { recursive: true, force: true });
});

const record = (id: string) => ({ _id: id, userId: 'u', tenantId: 't', roles: [], description: '', expiresAt: -1, ttl: -1, fingerprint: 'f', _service_info: { author: 'u', createdAt: 1, updatedAt: null, updater: null } });
const WORDS = ['red', 'green', 'blue', 'fast', 'slow', 'tall', 'small', 'dark', 'light', 'warm'];
const entity = (i: number) => ({ slug: `s${i}`, name: `${WORDS[i % 10]} ${WORDS[(i * 7) % 10]} ${WORDS[(i * 3) % 10]}`, rank: (i * 37) % 101, tags: [WORDS[i % 4]], allowTenantIds: i % 5 === 0 ? ['t1'] : ['*'] });

const REQUESTS: SearchRequest[] = [
  { from: 0, size: 20, query: { match: { name: 'red blue' } } },
  { from: 0, size: 20, query: { range: { rank: { gte: 10, lte: 60 } } }, sort: [{ rank: 'desc' }, { slug: 'asc' }] },
  { from: 0, size: 5, query: { match: { name: 'green' } }, aggs: { tags: { terms: { field: 'tags.keyword' } }, ranks: { avg: { field: 'rank' } } } },
  { from: 0, size: 20, query: { prefix: { slug: 's1' } }, sort: [{ slug: 'asc' }] },
  { from: 0, size: 20, query: { match: { colour: 'deep' } } },
];
const FILTER = { terms: { allowTenantIds: ['*', 't1'] } };

async function answers(s: EmbeddedStore): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const collection of ['things', 'others']) {
    for (const request of REQUESTS) out.push(await s.entities.search(collection, request, FILTER));
    out.push(await s.entities.count(collection, { match: { name: 'red' } }, null));
  }
  out.push(await s.entities.getMapping('things'));
  out.push(await s.apiKeys.getKey('k1'), await s.apiKeys.getKey('k2'));
  return out;
}

async function fill(s: EmbeddedStore, from: number, to: number): Promise<void> {
  const items = [];
  for (let i = from; i < to; i++) items.push({ id: `e${i}`, source: entity(i) });
  await s.entities.createMany('things', items);
  await s.entities.createMany('others', items.slice(0, 20));
}

describe('index file', () => {
  it('a store closed and opened again reads the file, re-indexes nothing, and answers exactly as before', async () => {
    const one = store();
    await one.entities.putMapping('things', { properties: { colour: { type: 'text' }, rank: { type: 'integer' } } });
    await fill(one, 0, 300);
    for (let i = 0; i < 300; i += 7) await one.entities.delete('things', `e${i}`);
    await one.entities.replace('things', 'e1', { ...entity(1), colour: 'deep red', name: 'replaced' });
    await one.apiKeys.createKey(record('k1'));
    const before = await answers(one);
    await closeAll();
    expect(messages()).toEqual(['no index file: indexing every entity from SQLite', 'index file written']);
    expect(statSync(join(dir, INDEX_FILE)).size).toBeGreaterThan(1000);

    logged = [];
    const two = store();
    expect(messages()).toEqual(['index file read']);
    expect(logged[0].details).toMatchObject({ entities: 300 - 43 + 20, collections: 2 });
    expect(await answers(two)).toEqual(before);
  });

  it('writes committed after the file are caught up from the change log (entities, mappings, API keys, from this process and others)', async () => {
    const one = store();
    await fill(one, 0, 200);
    await one.apiKeys.createKey(record('k1'));
    expect(await one.indexFile.write()).toBe(true);
    // after the file: creates, replaces, deletes, a mapping change, API keys created and deleted
    await fill(one, 200, 260);
    await one.entities.replace('things', 'e3', { ...entity(3), name: 'after the file', colour: 'deep blue' });
    await one.entities.delete('things', 'e4');
    await one.entities.putMapping('things', { properties: { colour: { type: 'text' } } });
    await one.apiKeys.deleteKey('k1');
    await one.apiKeys.createKey(record('k2'));
    const db = new EmbeddedDatabase(dir);
    db.pruneChanges(0); // the log keeps what came after the file
    db.close();
    const two = store();
    expect(messages()).toContain('index file read');
    expect(await answers(two)).toEqual(await answers(one));
    expect(await two.apiKeys.getKey('k1')).toBeNull();
    expect(await two.entities.get('things', 'e3')).toMatchObject({ name: 'after the file' });
  });

  it('is written once writes have been quiet for the quiet period, and not while an index changes under it', async () => {
    const one = store(50);
    await fill(one, 0, 100);
    await until(() => one.indexFile.counts.written > 0);
    expect(one.indexFile.counts.written).toBe(1);
    // a change while the file is being written: given up, and written after the next quiet period
    await one.entities.create('things', 'late', entity(1000));
    const writing = one.indexFile.write();
    await one.entities.create('things', 'later', entity(1001));
    expect(await writing).toBe(false);
    expect(one.indexFile.counts.aborted).toBe(1);
    await until(() => one.indexFile.counts.written > 1);
    expect(one.indexFile.counts.written).toBe(2);
    const two = store();
    expect(await two.entities.get('things', 'later')).toEqual(entity(1001));
  });

  it('one process writes it at a time; a process finding it current writes nothing', async () => {
    const one = store();
    const two = store();
    await fill(one, 0, 50);
    await two.entities.count('things', undefined, null); // two has applied them too
    const db = new EmbeddedDatabase(dir);
    expect(db.takeIndexLease('someone else', 60_000)).toBe(true);
    expect(await one.indexFile.write()).toBe(false);
    db.releaseIndexLease('someone else');
    expect(await one.indexFile.write()).toBe(true);
    expect(await two.indexFile.write()).toBe(false);
    expect(two.indexFile.counts.written).toBe(0);
    db.close();
  });

  describe('rebuilt from SQLite, and logged, when it cannot be trusted', () => {
    let expected: unknown[];
    beforeEach(async () => {
      const one = store();
      await fill(one, 0, 200);
      await one.apiKeys.createKey(record('k1'));
      expected = await answers(one);
      await closeAll();
      logged = [];
    });

    const reopened = async (reason: string | RegExp) => {
      const two = store();
      expect(logged[0]).toMatchObject({ level: 'warn', message: 'index file not used: rebuilding every index from SQLite' });
      expect(logged[0].details.reason).toMatch(reason);
      expect(await answers(two)).toEqual(expected);
    };
    const change = (edit: (bytes: Buffer) => void) => {
      const path = join(dir, INDEX_FILE);
      const bytes = readFileSync(path);
      edit(bytes);
      writeFileSync(path, bytes);
    };

    it('a byte flipped', async () => {
      change((b) => (b[Math.floor(b.length / 2)] ^= 1));
      await reopened(/checksum/);
    });

    it('written in an older format version', async () => {
      change((b) => b.writeUInt32LE(FORMAT_VERSION - 1, 8));
      await reopened(`written in format version ${FORMAT_VERSION - 1}`);
    });

    it('written for another SQLite file', async () => {
      rmSync(join(dir, DATABASE_FILE));
      rmSync(join(dir, `${DATABASE_FILE}-wal`), { force: true });
      const two = store();
      expect(logged[0].details.reason).toBe('it was written for another SQLite file');
      expect(await two.entities.count('things', undefined, null)).toEqual({ count: 0 });
    });

    it('older than the change log holds (a process that stopped without writing it, a day later)', async () => {
      const one = store(); // (not closed before the next one opens: as if it had died)
      await one.entities.create('things', 'new', entity(999));
      await one.entities.create('things', 'newer', entity(998));
      const raw = new Database(join(dir, DATABASE_FILE));
      raw.exec('DELETE FROM changes WHERE seq < (SELECT MAX(seq) FROM changes)');
      raw.close();
      logged = [];
      const two = store();
      expect(logged[0].details.reason).toMatch(/change log no longer holds/);
      expect(await two.entities.get('things', 'new')).toEqual(entity(999));
      expect(await two.entities.count('things', undefined, null)).toEqual({ count: 202 });
    });
  });
});
