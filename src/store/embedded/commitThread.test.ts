/** The commit thread: inserts run in another thread, in order, each committed before it is answered (asynchronously or blocking). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitThread } from './commitThread';
import { EmbeddedDatabase, entityRow } from './database';

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

  it("answers SQLite's errors as errors, and keeps running", async () => {
    const bad = [{ id: 'x', slug: 'x', json: null as unknown as string }]; // source NOT NULL
    await expect(thread.insert('c', bad)).rejects.toThrow(/NOT NULL/);
    expect(() => thread.begin('c', bad).wait()).toThrow(/NOT NULL/);
    expect((await thread.insert('c', [row('a')])).outcomes).toEqual(['ok']);
  });

  it('finishes what was sent before closing', async () => {
    const sent = thread.insert('c', [row('a')]);
    await thread.close();
    expect((await sent).outcomes).toEqual(['ok']);
    expect(reader.entitySource('c', 'a')).not.toBeNull();
    await expect(thread.insert('c', [row('b')])).rejects.toThrow('the commit thread stopped');
  });
});
