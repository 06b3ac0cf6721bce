/** The SQLite file's change log: one order over every connection, no gaps, pruning, files from before the log. */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_FILE, EmbeddedDatabase, entityRow } from './database';

let dir: string;
const open: EmbeddedDatabase[] = [];
const db = () => {
  const d = new EmbeddedDatabase(dir);
  open.push(d);
  return d;
};

beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'database-test-'))));
afterEach(() => {
  for (const d of open.splice(0)) d.close();
  rmSync(dir, { recursive: true, force: true });
});

const entity = (name: string, slug = name) => ({ name, slug });

describe('EmbeddedDatabase change log', () => {
  it('numbers every write of every connection in one order, without gaps, in the same transaction as the write', () => {
    const one = db();
    const two = db();
    expect(one.insertEntities('c', [{ id: 'a', source: entity('a') }, { id: 'b', source: entity('b') }]).seqs).toEqual([1, 2]);
    expect(two.replaceEntity('c', 'a', entity('a2'), 'update')).toEqual({ outcome: 'ok', seq: 3 });
    // refused writes take no number
    expect(two.insertEntities('c', [{ id: 'a', source: entity('x') }, { id: 'z', source: entity('b') }])).toEqual({ outcomes: ['id_taken', 'slug_taken'], seqs: [] });
    expect(two.replaceEntity('c', 'nope', entity('n'))).toEqual({ outcome: 'not_found' });
    expect(one.deleteEntity('c', 'b')).toBe(4);
    expect(one.deleteEntity('c', 'b')).toBeNull();
    expect(two.deleteKey('none')).toBeNull();
    const key = { _id: 'k1', userId: 'u', tenantId: null, roles: [], description: '', expiresAt: -1, ttl: -1, fingerprint: 'f', _service_info: { author: 'u', createdAt: 1, updatedAt: null, updater: null } };
    expect(two.insertKey(key)).toEqual({ outcome: 'ok', seq: 5 });
    expect(one.deleteKey('k1')).toBe(6);
    expect(one.lastSeq()).toBe(6);
    const { changes, gap } = two.changesAfter(0);
    expect(gap).toBe(false);
    expect(changes.map((c) => [c.seq, c.kind, c.action, c.collection, c.id, c.source === null ? null : JSON.parse(c.source).name ?? JSON.parse(c.source)._id])).toEqual([
      [1, 'entity', 'create', 'c', 'a', 'a'],
      [2, 'entity', 'create', 'c', 'b', 'b'],
      [3, 'entity', 'update', 'c', 'a', 'a2'],
      [4, 'entity', 'delete', 'c', 'b', null],
      [5, 'key', 'create', '', 'k1', 'k1'],
      [6, 'key', 'delete', '', 'k1', null],
    ]);
    expect(two.changesAfter(4, 1).changes.map((c) => c.seq)).toEqual([5]);
    expect(two.changesAfter(6)).toEqual({ changes: [], gap: false });
  });

  it('logs each entity a large insert created, in order, with one number each, the refused ones left out', () => {
    const one = db();
    one.insertEntities('c', [{ id: 'x150', source: entity('x150') }]);
    const items = Array.from({ length: 251 }, (_, k) => ({ id: `x${k}`, source: entity(`x${k}`, k === 200 ? 'x150' : `x${k}`) }));
    const { outcomes, seqs } = one.insertEntities('c', items);
    expect(outcomes.filter((o) => o !== 'ok')).toEqual(['id_taken', 'slug_taken']);
    expect(seqs).toEqual(Array.from({ length: 249 }, (_, k) => k + 2));
    const created = items.filter((_, k) => outcomes[k] === 'ok').map((item) => item.id);
    const { changes } = db().changesAfter(1, 1000);
    expect(changes.map((c) => [c.seq, c.kind, c.action, c.collection, c.id])).toEqual(created.map((id, k) => [k + 2, 'entity', 'create', 'c', id]));
    expect(changes.every((c) => c.source !== null && JSON.parse(c.source).name === c.id)).toBe(true);
    expect(one.lastSeq()).toBe(250);
  });

  it('logs an insert given in pieces (the commit thread\'s) as one: every entity created, once, numbered in order, nothing before the commit', () => {
    const one = db();
    one.insertEntities('c', [{ id: 'x150', source: entity('x150') }]);
    const items = Array.from({ length: 451 }, (_, k) => ({ id: `x${k}`, source: entity(`x${k}`, k === 320 ? 'x150' : `x${k}`) }));
    const reader = db();
    const insert = one.beginEntityRows('c');
    for (let from = 0; from < items.length; from += 150) {
      insert.add(items.slice(from, from + 150).map(entityRow));
      expect(reader.changesAfter(1, 1000).changes).toEqual([]);
    }
    const { outcomes, seqs } = insert.commit();
    expect(outcomes.filter((o) => o !== 'ok')).toEqual(['id_taken', 'slug_taken']);
    expect(seqs).toEqual(Array.from({ length: 449 }, (_, k) => k + 2));
    const created = items.filter((_, k) => outcomes[k] === 'ok').map((item) => item.id);
    expect(reader.changesAfter(1, 1000).changes.map((c) => [c.seq, c.id])).toEqual(created.map((id, k) => [k + 2, id]));
  });

  it("writes a create's source once (the entity row), copied into the log before a later write replaces or deletes it", () => {
    const one = db();
    one.insertEntities('c', [{ id: 'a', source: entity('a') }, { id: 'b', source: entity('b') }, { id: 'c', source: entity('c') }]);
    const raw = new Database(join(dir, DATABASE_FILE), { readonly: true });
    const logged = () => raw.prepare('SELECT seq, source FROM changes ORDER BY seq').all() as { seq: number; source: string | null }[];
    try {
      expect(logged().map((r) => r.source)).toEqual([null, null, null]);
      const two = db();
      two.replaceEntity('c', 'a', entity('a2'), 'replace');
      two.replaceEntity('c', 'a', entity('a3'), 'update');
      two.deleteEntity('c', 'b');
      expect(logged().map((r) => (r.source === null ? null : JSON.parse(r.source).name))).toEqual(['a', 'b', null, 'a2', 'a3', null]);
      // every change still answers with its own source, whatever happened to the entity since
      expect(one.changesAfter(0).changes.map((c) => [c.seq, c.action, c.id, c.source === null ? null : JSON.parse(c.source).name])).toEqual([
        [1, 'create', 'a', 'a'],
        [2, 'create', 'b', 'b'],
        [3, 'create', 'c', 'c'],
        [4, 'replace', 'a', 'a2'],
        [5, 'update', 'a', 'a3'],
        [6, 'delete', 'b', null],
      ]);
    } finally {
      raw.close();
    }
  });

  it('reads the creates of a log written with their sources (files from before the source was written once)', () => {
    const one = db();
    one.insertEntities('c', [{ id: 'a', source: entity('a') }]);
    const raw = new Database(join(dir, DATABASE_FILE));
    raw.prepare("INSERT INTO changes (seq, kind, action, collection, id, source, at) VALUES (2, 'entity', 'create', 'c', 'gone', '{\"name\":\"old\"}', 0)").run();
    raw.close();
    expect(one.changesAfter(0).changes.map((c) => [c.id, c.source === null ? null : JSON.parse(c.source).name])).toEqual([
      ['a', 'a'],
      ['gone', 'old'],
    ]);
  });

  it("tells a connection when another one committed (not when it committed itself)", () => {
    const one = db();
    const two = db();
    one.changedElsewhere();
    two.changedElsewhere();
    one.insertEntities('c', [{ id: 'a', source: entity('a') }]);
    expect(one.changedElsewhere()).toBe(false);
    expect(two.changedElsewhere()).toBe(true);
    expect(two.changedElsewhere()).toBe(false);
  });

  it('sees no gap when another connection commits while it reads the log (one read transaction)', () => {
    const one = db();
    const two = db();
    one.insertEntities('c', [{ id: 'a', source: entity('a') }]);
    // the other connection commits right after the log's rows are read, before the last number is
    const stmt = (two as unknown as { stmt: { changesAfter: { all: (...args: unknown[]) => unknown } } }).stmt.changesAfter;
    const all = stmt.all.bind(stmt);
    stmt.all = (...args: unknown[]) => {
      const rows = all(...args);
      one.insertEntities('c', [{ id: `late-${Math.random()}`, source: entity(`late-${Math.random()}`) }]);
      return rows;
    };
    expect(two.changesAfter(1)).toEqual({ changes: [], gap: false });
    expect(two.changesAfter(1)).toEqual({ changes: [expect.objectContaining({ seq: 2 })], gap: false });
  });

  it('prunes old changes, keeping the last; a reader behind the pruned part sees a gap', () => {
    const one = db();
    for (const id of ['a', 'b', 'c']) one.insertEntities('c', [{ id, source: entity(id) }]);
    expect(one.pruneChanges(-1000)).toBe(2); // everything is "old": all but the last go
    expect(one.changesAfter(0)).toEqual({ changes: [expect.objectContaining({ seq: 3 })], gap: true });
    expect(one.changesAfter(2).gap).toBe(false);
    one.insertEntities('c', [{ id: 'd', source: entity('d') }]);
    expect(one.pruneChanges(-1000)).toBe(1);
    expect(one.changesAfter(2)).toEqual({ changes: [expect.objectContaining({ seq: 4 })], gap: true });
    expect(one.pruneChanges()).toBe(0); // nothing ten minutes old
  });

  it('reads everything with the number of the last change it holds', () => {
    const one = db();
    one.insertEntities('c', [{ id: 'a', source: entity('a') }, { id: 'b', source: entity('b') }]);
    one.deleteEntity('c', 'a');
    const { value, seq } = one.snapshot((rows) => [...rows].map((r) => r.id));
    expect(value).toEqual(['b']);
    expect(seq).toBe(3);
  });

  it("continues the numbers of a file written before the change log", () => {
    const old = new Database(join(dir, DATABASE_FILE));
    old.exec(`CREATE TABLE entities (collection TEXT NOT NULL, id TEXT NOT NULL, slug TEXT NOT NULL, seq INTEGER NOT NULL, source TEXT NOT NULL, PRIMARY KEY (collection, id));
      CREATE TABLE api_keys (id TEXT PRIMARY KEY, seq INTEGER NOT NULL, record TEXT NOT NULL);
      INSERT INTO entities VALUES ('c', 'a', 'a', 41, '{"name":"a","slug":"a"}');`);
    old.close();
    const one = db();
    expect(one.lastSeq()).toBe(41);
    expect(one.changesAfter(41)).toEqual({ changes: [], gap: false });
    expect(one.insertEntities('c', [{ id: 'b', source: entity('b') }]).seqs).toEqual([42]);
    expect(one.snapshot((rows) => [...rows].map((r) => r.id)).value).toEqual(['a', 'b']);
  });
});
