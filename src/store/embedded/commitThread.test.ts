/** The commit thread: inserts run in another thread, in order, each committed before it is answered (asynchronously or blocking). */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitThread } from './commitThread';
import { DATABASE_FILE, EmbeddedDatabase, entityRow } from './database';

let dir: string;
let thread: CommitThread;
let reader: EmbeddedDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'commit-thread-test-'));
  thread = new CommitThread(dir);
  reader = new EmbeddedDatabase(dir);
});
afterEach(async () => {
  await thread.close();
  reader.close();
  rmSync(dir, { recursive: true, force: true });
});

const row = (id: string, slug = id) => entityRow({ id, source: { name: id, slug } });

describe('CommitThread', () => {
  it('inserts a batch in one transaction and answers once it is committed: another connection reads it at once', async () => {
    const outcome = await thread.insert('c', [row('a'), row('b')]);
    expect(outcome).toEqual({ outcomes: ['ok', 'ok'], seqs: [1, 2] });
    expect(reader.entitySource('c', 'b')).toEqual({ name: 'b', slug: 'b' });
    expect(reader.changesAfter(0).changes.map((c) => [c.seq, c.action, c.id, c.source])).toEqual([
      [1, 'create', 'a', '{"name":"a","slug":"a"}'],
      [2, 'create', 'b', '{"name":"b","slug":"b"}'],
    ]);
  });

  it('answers each item: a taken id or slug is refused, the others committed', async () => {
    await thread.insert('c', [row('a')]);
    expect(await thread.insert('c', [row('a', 'other'), row('b', 'a'), row('c')])).toEqual({ outcomes: ['id_taken', 'slug_taken', 'ok'], seqs: [2] });
  });

  it('runs inserts in the order sent, asynchronous and blocking alike, numbered after the writes of other connections', async () => {
    reader.insertEntities('c', [{ id: 'first', source: { slug: 'first' } }]);
    const one = thread.insert('c', [row('a')]);
    const two = thread.insert('c', [row('a', 'a2'), row('b')]);
    const three = thread.begin('c', [row('c')]);
    expect(three.wait()).toEqual({ outcomes: ['ok'], seqs: [4] });
    expect(await one).toEqual({ outcomes: ['ok'], seqs: [2] });
    expect(await two).toEqual({ outcomes: ['id_taken', 'ok'], seqs: [3] });
  });

  it('lets the caller work between begin and wait, and blocks until the commit', () => {
    const pending = thread.begin('c', [row('a'), row('b')]);
    expect(() => thread.begin('c', [row('c')])).toThrow('a synchronous insert is under way already');
    const { outcomes } = pending.wait();
    expect(outcomes).toEqual(['ok', 'ok']);
    expect(reader.entitySource('c', 'a')).toEqual({ name: 'a', slug: 'a' });
    expect(thread.begin('c', [row('c')]).wait().seqs).toEqual([3]);
  });

  it('inserts an insert sent in pieces in one transaction: nothing is read before the last piece, then every row, numbered in order', async () => {
    const pending = thread.begin('c', [row('a'), row('b')], true);
    pending.add([row('c')], true);
    expect(() => pending.wait()).toThrow('whose last piece is not sent');
    // (the thread has the first pieces, or soon will: another connection reads none of them)
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reader.entitySource('c', 'a')).toBeNull();
    pending.add([row('a', 'a2'), row('d')], false);
    expect(pending.wait()).toEqual({ outcomes: ['ok', 'ok', 'ok', 'id_taken', 'ok'], seqs: [1, 2, 3, 4] });
    expect(reader.changesAfter(0).changes.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rolls back an insert sent in pieces whose piece fails, answers the error after the last piece, and keeps running', async () => {
    const bad = [{ id: 'x', slug: 'x', json: null as unknown as string }]; // source NOT NULL
    const pending = thread.begin('c', [row('a')], true);
    pending.add(bad, true);
    pending.add([row('b')], false);
    expect(() => pending.wait()).toThrow(/NOT NULL/);
    expect(reader.entitySource('c', 'a')).toBeNull();
    expect(reader.entitySource('c', 'b')).toBeNull();
    expect(await thread.insert('c', [row('a')])).toEqual({ outcomes: ['ok'], seqs: [1] });
  });

  it('rolls back an insert given up between two pieces (abort): nothing of it is written, and the next insert is', () => {
    const pending = thread.begin('c', [row('a')], true);
    pending.abort();
    expect(thread.begin('c', [row('b')]).wait()).toEqual({ outcomes: ['ok'], seqs: [1] });
    expect(reader.entitySource('c', 'a')).toBeNull();
    expect(reader.entitySource('c', 'b')).not.toBeNull();
  });

  it("answers SQLite's errors as errors, and keeps running", async () => {
    const bad = [{ id: 'x', slug: 'x', json: null as unknown as string }]; // source NOT NULL
    await expect(thread.insert('c', bad)).rejects.toThrow(/NOT NULL/);
    expect(() => thread.begin('c', bad).wait()).toThrow(/NOT NULL/);
    expect((await thread.insert('c', [row('a')])).outcomes).toEqual(['ok']);
  });

  it('copies its write-ahead log into the database file after inserts of 1 MB: the -wal file stays well below the 4 MB SQLite lets it reach', async () => {
    // 40 batches of 100 entities of 900 characters (four to a page): 3.6 MB written, about 1,000 pages
    const text = 'x'.repeat(900);
    for (let batch = 0; batch < 40; batch++) {
      const rows = Array.from({ length: 100 }, (_, i) => entityRow({ id: `e${batch}-${i}`, source: { slug: `e${batch}-${i}`, text } }));
      expect((await thread.insert('c', rows)).outcomes.every((o) => o === 'ok')).toBe(true);
    }
    expect(statSync(join(dir, `${DATABASE_FILE}-wal`)).size).toBeLessThan(3 * 1024 * 1024);
    expect(statSync(join(dir, DATABASE_FILE)).size).toBeGreaterThan(3.6 * 1000 * 1000);
    expect(reader.entitySource('c', 'e39-99')).toEqual({ slug: 'e39-99', text });
  });

  it('finishes what was sent before closing', async () => {
    const sent = thread.insert('c', [row('a')]);
    await thread.close();
    expect((await sent).outcomes).toEqual(['ok']);
    expect(reader.entitySource('c', 'a')).not.toBeNull();
    await expect(thread.insert('c', [row('b')])).rejects.toThrow('the commit thread stopped');
  });
});
