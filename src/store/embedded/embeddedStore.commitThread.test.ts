/**
 * Bulk writes through the commit thread (COMMIT_THREAD_FROM): acknowledged once committed, read by
 * this process and by the others at once, indexed in commit order with every other write, told to
 * the other processes' listeners once and never to this one's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidDocumentError, type QueryDsl, type RemoteChange, type SearchResult } from '../port';
import { DEFAULT_LIMITS } from './engine/limits';
import { COMMIT_PIECE, EmbeddedStore } from './embeddedStore';
import { answerSoon } from '../../scheduler/scheduler';

let dir: string;
const open: EmbeddedStore[] = [];
/** A store whose bulk writes of 2 or more go through the commit thread; the poll every 5 ms (`syncMs`). */
function store(options: { maxFields?: number; commitThreadFrom?: number; syncMs?: number } = {}): EmbeddedStore {
  const s = new EmbeddedStore(dir, 100, options.maxFields === undefined ? {} : { limits: { ...DEFAULT_LIMITS, maxFields: options.maxFields } }, options.syncMs ?? 5, { commitThreadFrom: options.commitThreadFrom ?? 2 });
  open.push(s);
  return s;
}
const doc = (name: string, extra: Record<string, unknown> = {}) => ({ name, slug: name.replace(/ /g, '-'), ...extra });
const items = (names: string[], extra: Record<string, unknown> = {}) => names.map((name) => ({ id: name.replace(/ /g, '-'), source: doc(name, extra) }));
const names = async (s: EmbeddedStore, query?: QueryDsl) =>
  ((await s.entities.search('things', { ...(query === undefined ? {} : { query }), from: 0, size: 100, sort: [{ slug: 'asc' }] }, null)) as SearchResult).hits.map((h) => h._source?.name);

beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'commit-thread-store-'))));
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded store: bulk writes through the commit thread', () => {
  it('reads its own bulk writes at once (searches, counts, gets), and so does another process', async () => {
    const one = store();
    const two = store();
    expect(await one.entities.createMany('things', items(['alpha', 'beta']))).toEqual(['ok', 'ok']);
    expect(await one.entities.createMany('things', items(['gamma', 'delta']))).toEqual(['ok', 'ok']);
    expect(await one.entities.get('things', 'delta')).toEqual(doc('delta'));
    expect(await one.entities.count('things', { match: { name: 'gamma' } }, null)).toEqual({ count: 1 });
    expect(await names(one)).toEqual(['alpha', 'beta', 'delta', 'gamma']);
    expect(await names(two)).toEqual(['alpha', 'beta', 'delta', 'gamma']);
    expect(one.stats().entities.get('things')).toBe(4);
    // and a process started now loads them
    expect(await names(store())).toEqual(['alpha', 'beta', 'delta', 'gamma']);
  });

  it('answers taken ids and slugs per item and indexes only what it created', async () => {
    const s = store();
    await s.entities.createMany('things', items(['alpha', 'beta']));
    const outcomes = await s.entities.createMany('things', [
      { id: 'alpha', source: doc('other') },
      { id: 'x', source: { name: 'x', slug: 'beta' } },
      { id: 'gamma', source: doc('gamma') },
    ]);
    expect(outcomes).toEqual(['id_taken', 'slug_taken', 'ok']);
    expect(await names(s)).toEqual(['alpha', 'beta', 'gamma']);
    expect(await s.entities.get('things', 'alpha')).toEqual(doc('alpha'));
  });

  it('commits a bulk write sent to the thread in pieces as one: outcomes per item in every piece, all read at once here and by another process', async () => {
    const s = store();
    await s.entities.createMany('things', items(['alpha', 'beta']));
    const many = Array.from({ length: 2 * COMMIT_PIECE + 50 }, (_, i) => ({ id: `e${i}`, source: doc(`e${i}`) }));
    many[COMMIT_PIECE + 10] = { id: 'x', source: { name: 'x', slug: 'beta' } }; // a taken slug in the second piece
    many[2 * COMMIT_PIECE + 20] = { id: 'alpha', source: doc('other') }; // a taken id in the last
    const outcomes = await s.entities.createMany('things', many);
    expect(outcomes.filter((o) => o !== 'ok')).toEqual(['slug_taken', 'id_taken']);
    expect([outcomes[COMMIT_PIECE + 10], outcomes[2 * COMMIT_PIECE + 20]]).toEqual(['slug_taken', 'id_taken']);
    const total = { match_all: {} };
    expect(await s.entities.count('things', total, null)).toEqual({ count: 2 * COMMIT_PIECE + 50 });
    expect(await store().entities.count('things', total, null)).toEqual({ count: 2 * COMMIT_PIECE + 50 });
    expect(await s.entities.get('things', `e${2 * COMMIT_PIECE + 49}`)).toEqual(doc(`e${2 * COMMIT_PIECE + 49}`));
    expect(await s.entities.get('things', 'alpha')).toEqual(doc('alpha'));
  });

  it('applies a replace or delete after the bulk write before it, in commit order', async () => {
    const s = store();
    await s.entities.createMany('things', items(['alpha', 'beta', 'gamma']));
    expect(await s.entities.replace('things', 'beta', doc('beta two', { slug: 'beta' }))).toBe('ok');
    expect(await s.entities.delete('things', 'gamma')).toBe(true);
    await s.entities.createMany('things', items(['delta', 'epsilon']));
    expect(await s.entities.delete('things', 'delta')).toBe(true);
    expect(await names(s)).toEqual(['alpha', 'beta two', 'epsilon']);
    expect(await names(store())).toEqual(['alpha', 'beta two', 'epsilon']);
  });

  it('interleaves with the bulk writes of another process in commit order', async () => {
    const one = store();
    const two = store();
    for (let round = 0; round < 5; round++) {
      await one.entities.createMany('things', items([`one ${round} a`, `one ${round} b`]));
      await two.entities.createMany('things', items([`two ${round} a`, `two ${round} b`]));
      await one.entities.replace('things', `two-${round}-a`, doc(`two ${round} a by one`, { slug: `two-${round}-a` }));
    }
    const expected = await names(store());
    expect(expected).toHaveLength(20);
    expect(expected.filter((n) => String(n).endsWith('by one'))).toHaveLength(5);
    expect(await names(one)).toEqual(expected);
    expect(await names(two)).toEqual(expected);
  });

  it("tells the other processes' listeners of each created entity once, and never its own", async () => {
    const one = store();
    const two = store();
    const heard: RemoteChange[] = [];
    const mine: RemoteChange[] = [];
    two.onRemoteChange((c) => heard.push(c));
    one.onRemoteChange((c) => mine.push(c));
    await one.entities.createMany('things', items(['alpha', 'beta']));
    await one.entities.createMany('things', items(['gamma', 'delta']));
    await one.entities.search('things', { from: 0, size: 1 }, null);
    await new Promise((r) => setTimeout(r, 200)); // (several polls of both)
    expect(heard.map((c) => c.kind === 'entity' && [c.action, c._id])).toEqual([
      ['create', 'alpha'],
      ['create', 'beta'],
      ['create', 'gamma'],
      ['create', 'delta'],
    ]);
    expect(mine).toEqual([]);
  });

  it('indexes a bulk write that adds fields at once: the next write is checked against MAX_FIELDS with them', async () => {
    // id, entityType, slug, allowTenantIds, modified, name, name.keyword: 7; a and b add 2 each (text + keyword)
    const s = store({ maxFields: 9 });
    await s.entities.createMany('things', items(['alpha', 'beta'], { a: 'x' }));
    await expect(s.entities.createMany('things', items(['gamma', 'delta'], { b: 'y' }))).rejects.toThrow(InvalidDocumentError);
    expect(await s.entities.createMany('things', items(['gamma', 'delta'], { a: 'z' }))).toEqual(['ok', 'ok']);
    expect(await names(s, { match: { a: 'z' } })).toEqual(['delta', 'gamma']);
  });

  it('refuses a bulk write of several pieces past MAX_FIELDS whole: none of it written, here or for another process, and the next one numbered on', async () => {
    const s = store({ maxFields: 9 });
    await s.entities.createMany('things', items(['alpha', 'beta'], { a: 'x' }));
    const many = Array.from({ length: 2 * COMMIT_PIECE + 1 }, (_, i) => ({ id: `e${i}`, source: doc(`e${i}`, { a: 'x' }) }));
    many[2 * COMMIT_PIECE] = { id: 'last', source: doc('last', { b: 'y', c: 'z' }) };
    await expect(s.entities.createMany('things', many)).rejects.toThrow(InvalidDocumentError);
    expect(await s.entities.count('things', { match_all: {} }, null)).toEqual({ count: 2 });
    const other = store({ maxFields: 9 });
    expect(await other.entities.get('things', 'e0')).toBeNull();
    expect(await s.entities.createMany('things', items(['gamma', 'delta'], { a: 'z' }))).toEqual(['ok', 'ok']);
    expect(await other.entities.count('things', { match_all: {} }, null)).toEqual({ count: 4 });
  });

  /** What the index holds now, without the read that would apply a deferred write first. */
  const indexed = (s: EmbeddedStore) => (s.entities as unknown as { indices: Map<string, { size: number }> }).indices.get('things')?.size ?? 0;
  const turn = () => new Promise((r) => setImmediate(r));
  const many = (from: number, count: number) => items(Array.from({ length: count }, (_, k) => `thing ${from + k}`));

  /** A store with the collection's fields known (a bulk write that adds fields is indexed at once), its poll out of the way. */
  const idleStore = async () => {
    const s = store({ syncMs: 60_000 });
    await s.entities.createMany('things', many(-2, 2));
    return s;
  };

  it('indexes the writes it defers while it has nothing else to do, a slice at a time, with no poll', async () => {
    const s = await idleStore();
    await s.entities.createMany('things', many(0, 3000));
    expect(indexed(s)).toBe(2);
    const seen: number[] = [];
    for (let turns = 0; indexed(s) < 3002 && turns < 1000; turns++) {
      await turn();
      seen.push(indexed(s));
    }
    expect(indexed(s)).toBe(3002);
    // (slices of 32 items at least, nothing having read it)
    expect(seen.filter((n) => n < 3002).every((n) => (n - 2) % 32 === 0)).toBe(true);
  });

  it("lets a bulk write's answer leave before any of the write is indexed (the answer queued as the write returns)", async () => {
    const s = await idleStore();
    await s.entities.createMany('things', many(0, 3000));
    const whenAnswered = await new Promise<number>((resolve) => answerSoon(() => resolve(indexed(s))));
    expect(whenAnswered).toBe(2);
    await turn();
    await turn();
    expect(indexed(s)).toBeGreaterThan(2);
  });

  it('answers a search sent while a bulk write is indexed in part with every entity, in commit order with the next write', async () => {
    const s = await idleStore();
    await s.entities.createMany('things', many(0, 3000));
    await turn();
    expect(await s.entities.count('things', { match_all: {} }, null)).toEqual({ count: 3002 });
    await s.entities.createMany('things', many(3000, 3000));
    await turn();
    expect(await s.entities.delete('things', 'thing-4000')).toBe(true);
    expect(await s.entities.count('things', { match_all: {} }, null)).toEqual({ count: 6001 });
    expect(await s.entities.get('things', 'thing-4000')).toBeNull();
  });

  it('writes no index file of a bulk write indexed in part, and one with all of it at close', async () => {
    const s = await idleStore();
    await s.entities.createMany('things', many(0, 3000));
    await turn(); // (the answer's turn)
    await turn();
    expect(indexed(s)).toBeGreaterThan(2);
    expect(indexed(s)).toBeLessThan(3002);
    expect(await s.indexFile.write()).toBe(false);
    await s.close();
    open.splice(open.indexOf(s), 1);
    const again = store();
    expect(again.indexFile.startedFrom).toBe('index file');
    expect(indexed(again)).toBe(3002); // (read from the file: the change log has nothing after it)
    expect(await again.entities.count('things', { match_all: {} }, null)).toEqual({ count: 3002 });
  });

  it('indexes the writes it defers within a poll or two when nothing reads', async () => {
    const s = store();
    await s.entities.createMany('things', items(['alpha', 'beta']));
    await new Promise((r) => setTimeout(r, 300));
    // (what the index holds now, without the read that would apply a deferred write first)
    const index = (s.entities as unknown as { indices: Map<string, { size: number }> }).indices.get('things');
    expect(index?.size).toBe(2);
  });
});
