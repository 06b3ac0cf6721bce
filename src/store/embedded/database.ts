/**
 * The embedded store's file: SQLite through better-sqlite3, in DATA_DIR. Every write is one
 * transaction, committed (synchronous=FULL) before the caller is answered. `seq` records the order
 * of writes, so the in-memory index can be rebuilt in the same order at start.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiKeyRecord, Doc, WriteOutcome } from '../port';

export const DATABASE_FILE = 'gateway.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS entities (
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  slug TEXT NOT NULL,
  seq INTEGER NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY (collection, id)
);
CREATE UNIQUE INDEX IF NOT EXISTS entities_slug ON entities (collection, slug);
CREATE INDEX IF NOT EXISTS entities_seq ON entities (seq);
CREATE TABLE IF NOT EXISTS api_keys (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  record TEXT NOT NULL
);
`;

export interface StoredRow {
  collection: string;
  id: string;
  source: Doc;
}

export class EmbeddedDatabase {
  private readonly db: Database.Database;
  private seq: number;
  private readonly stmt;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new Database(join(dataDir, DATABASE_FILE));
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
    const max = this.db.prepare('SELECT MAX(m) AS m FROM (SELECT MAX(seq) AS m FROM entities UNION ALL SELECT MAX(seq) FROM api_keys)').get() as { m: number | null };
    this.seq = max.m ?? 0;
    this.stmt = {
      entityExists: this.db.prepare('SELECT 1 FROM entities WHERE collection = ? AND id = ?'),
      slugOwner: this.db.prepare('SELECT id FROM entities WHERE collection = ? AND slug = ?'),
      insertEntity: this.db.prepare('INSERT INTO entities (collection, id, slug, seq, source) VALUES (?, ?, ?, ?, ?)'),
      updateEntity: this.db.prepare('UPDATE entities SET slug = ?, seq = ?, source = ? WHERE collection = ? AND id = ?'),
      deleteEntity: this.db.prepare('DELETE FROM entities WHERE collection = ? AND id = ?'),
      allEntities: this.db.prepare('SELECT collection, id, source FROM entities ORDER BY seq'),
      insertKey: this.db.prepare('INSERT INTO api_keys (id, seq, record) VALUES (?, ?, ?)'),
      keyExists: this.db.prepare('SELECT 1 FROM api_keys WHERE id = ?'),
      deleteKey: this.db.prepare('DELETE FROM api_keys WHERE id = ?'),
      allKeys: this.db.prepare('SELECT record FROM api_keys ORDER BY seq'),
    };
  }

  private insertOne(collection: string, id: string, source: Doc): WriteOutcome {
    if (this.stmt.entityExists.get(collection, id)) return 'id_taken';
    if (this.stmt.slugOwner.get(collection, String(source.slug))) return 'slug_taken';
    this.stmt.insertEntity.run(collection, id, String(source.slug), ++this.seq, JSON.stringify(source));
    return 'ok';
  }

  /** Inserts in one transaction; items that fail are skipped, the others committed together. */
  insertEntities(collection: string, items: { id: string; source: Doc }[]): WriteOutcome[] {
    const run = this.db.transaction(() => items.map(({ id, source }) => this.insertOne(collection, id, source)));
    return run();
  }

  replaceEntity(collection: string, id: string, source: Doc): WriteOutcome {
    const run = this.db.transaction((): WriteOutcome => {
      if (!this.stmt.entityExists.get(collection, id)) return 'not_found';
      const owner = this.stmt.slugOwner.get(collection, String(source.slug)) as { id: string } | undefined;
      if (owner !== undefined && owner.id !== id) return 'slug_taken';
      this.stmt.updateEntity.run(String(source.slug), ++this.seq, JSON.stringify(source), collection, id);
      return 'ok';
    });
    return run();
  }

  deleteEntity(collection: string, id: string): boolean {
    return this.stmt.deleteEntity.run(collection, id).changes > 0;
  }

  *entities(): IterableIterator<StoredRow> {
    for (const row of this.stmt.allEntities.iterate() as IterableIterator<{ collection: string; id: string; source: string }>) {
      yield { collection: row.collection, id: row.id, source: JSON.parse(row.source) as Doc };
    }
  }

  insertKey(record: ApiKeyRecord): WriteOutcome {
    const run = this.db.transaction((): WriteOutcome => {
      if (this.stmt.keyExists.get(record._id)) return 'id_taken';
      this.stmt.insertKey.run(record._id, ++this.seq, JSON.stringify(record));
      return 'ok';
    });
    return run();
  }

  deleteKey(id: string): boolean {
    return this.stmt.deleteKey.run(id).changes > 0;
  }

  *keys(): IterableIterator<ApiKeyRecord> {
    for (const row of this.stmt.allKeys.iterate() as IterableIterator<{ record: string }>) yield JSON.parse(row.record) as ApiKeyRecord;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
