/**
 * When the index file is read and written (README "Index file").
 *
 * - At start (`load`): the file is used when it was written for this SQLite file, by this engine,
 *   passes every checksum, and the change log still holds every change after it; the store then
 *   applies those changes. Otherwise every index is rebuilt from SQLite, and the log says why.
 * - After changes (`changed`): once no change has come for `quietMs` (after a bulk load, after a
 *   burst of writes), the file is written again without holding the event loop: the indexes'
 *   state is captured (references), checksummed and written a section at a time, through the
 *   thread pool, to a temporary file renamed over the old one. A change to an index meanwhile gives
 *   the write up (no file is left) and it is tried again after the next quiet period.
 * - When the store closes (a graceful stop): at once, if anything changed since the last file.
 *
 * Several processes on one DATA_DIR (WORKERS, gateways started separately) all follow the same
 * changes; one writes at a time: a lease in SQLite (table index_file) that the writer takes before
 * and gives back after. A process finding a file already at its own change number writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { EmbeddedDatabase } from '../database';
import type { SearchIndexOptions } from '../engine';
import { IndexFileError, WriteAborted, readIndexHeader, writeIndexFile, writeIndexFileSync } from '../engine/persist/file';
import { engineFingerprint } from './fingerprint';
import { INDEX_FILE, IndexFileHeader, StoreIndices, captureIndices, indexFilePath, readIndices } from './indexFile';

/** Where the store says what it did with the index file (the service log; silent in tests). */
export interface IndexFileLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export const SILENT_LOG: IndexFileLog = { info: () => undefined, warn: () => undefined };

export interface IndexFileSettings {
  /** Quiet time after the last change before the file is written, in ms (INDEX_FILE_QUIET_MS); 0: no index file (never read or written). */
  quietMs?: number;
  log?: IndexFileLog;
}

export const DEFAULT_INDEX_FILE_QUIET_MS = 5000;
/** How long a writer may hold the lease (a process that died while writing holds it no longer). */
const LEASE_MS = 10 * 60_000;
/** Temporary files older than this are left over by a process that died while writing: removed. */
const STALE_TEMP_MS = 60 * 60_000;

export class IndexSnapshots {
  private readonly path: string;
  private readonly quietMs: number;
  private readonly log: IndexFileLog;
  private readonly writer = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  private dirty = false;
  private writing: Promise<boolean> | null = null;
  private closed = false;
  /** Files written and writes given up by this process (tests, diagnostics). */
  readonly counts = { written: 0, aborted: 0 };
  /** Where this process's indexes came from at start (the file, or every entity from SQLite). */
  startedFrom: 'index file' | 'sqlite' = 'sqlite';

  /** @param state the store's indexes now, or null while some index has writes waiting (not written then) */
  constructor(
    private readonly dataDir: string,
    private readonly db: EmbeddedDatabase,
    private readonly state: () => StoreIndices | null,
    settings: IndexFileSettings = {},
  ) {
    this.path = indexFilePath(dataDir);
    this.quietMs = settings.quietMs ?? DEFAULT_INDEX_FILE_QUIET_MS;
    this.log = settings.log ?? SILENT_LOG;
  }

  get enabled(): boolean {
    return this.quietMs > 0;
  }

  /** The indexes as the file holds them, or null (no file, or not usable: the log says why). */
  load(options: SearchIndexOptions): StoreIndices | null {
    if (!this.enabled) return null;
    this.removeStaleTemps();
    const started = performance.now();
    try {
      const loaded = readIndices(this.path, { database: this.db.databaseId(), engine: engineFingerprint(), lastSeq: this.db.lastSeq() }, options);
      if (this.db.changesAfter(loaded.seq, 1).gap) throw new IndexFileError(`the change log no longer holds the changes after ${loaded.seq} (pruned)`);
      const ms = Math.round(performance.now() - started);
      this.log.info({ file: this.path, entities: loaded.header.entities, collections: loaded.header.collections.length, bytes: loaded.bytes, seq: loaded.seq, ms }, 'index file read');
      this.startedFrom = 'index file';
      return loaded;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.log.info({ file: this.path }, 'no index file: indexing every entity from SQLite');
      } else {
        this.log.warn({ file: this.path, reason: (err as Error).message }, 'index file not used: rebuilding every index from SQLite');
      }
      return null;
    }
  }

  /** Something changed in the indexes: the file is written once no change has come for quietMs. */
  changed(): void {
    if (!this.enabled || this.closed) return;
    this.dirty = true;
    if (this.timer !== null) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.write();
    }, this.quietMs);
    this.timer.unref();
  }

  /** Writes the file now if anything changed since the last (without holding the event loop); true when written. */
  write(): Promise<boolean> {
    if (this.writing !== null) return this.writing;
    this.writing = this.writeAsync().finally(() => (this.writing = null));
    return this.writing;
  }

  private async writeAsync(): Promise<boolean> {
    const begun = this.begin();
    if (begun === null) return false;
    const { header, writer, unchanged } = begun;
    const started = performance.now();
    try {
      await writeIndexFile(this.path, header, writer, unchanged);
    } catch (err) {
      this.failed(err);
      return false;
    }
    this.written(header, performance.now() - started);
    return true;
  }

  /** The capture to write, or null: nothing to write, or not now (then tried again later). */
  private begin(): ReturnType<typeof captureIndices> | null {
    if (!this.dirty) return null;
    const state = this.state();
    if (state === null) {
      this.changed(); // writes wait for paused searches: later
      return null;
    }
    const database = this.db.databaseId();
    const engine = engineFingerprint();
    const onDisk = readIndexHeader<IndexFileHeader>(this.path);
    if (onDisk !== null && onDisk.database === database && onDisk.engine === engine && onDisk.seq >= state.seq) {
      this.dirty = false; // another process on this DATA_DIR wrote it
      return null;
    }
    if (!this.db.takeIndexLease(this.writer, LEASE_MS)) {
      this.changed(); // another process is writing it
      return null;
    }
    this.dirty = false;
    return captureIndices(state, database, engine);
  }

  private written(header: IndexFileHeader, ms: number): void {
    this.db.indexWritten(this.writer, header.seq);
    this.counts.written++;
    this.log.info({ file: this.path, entities: header.entities, collections: header.collections.length, seq: header.seq, ms: Math.round(ms) }, 'index file written');
  }

  private failed(err: unknown): void {
    this.db.releaseIndexLease(this.writer);
    if (err instanceof WriteAborted) {
      this.counts.aborted++;
    } else {
      this.log.warn({ file: this.path, err: (err as Error).message }, 'index file not written');
    }
    this.changed();
  }

  /**
   * The store is closing: any write under way ends, then the file is written at once if anything
   * changed since (nothing else runs any more). Changes after this are not recorded.
   */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.writing !== null) await this.writing;
    const begun = this.begin();
    if (begun === null) return;
    const started = performance.now();
    try {
      writeIndexFileSync(this.path, begun.header, begun.writer, begun.unchanged);
    } catch (err) {
      this.failed(err);
      return;
    }
    this.written(begun.header, performance.now() - started);
  }

  private removeStaleTemps(): void {
    try {
      for (const name of readdirSync(this.dataDir)) {
        if (!name.startsWith(`${INDEX_FILE}.`) || !name.endsWith('.tmp')) continue;
        const path = join(this.dataDir, name);
        if (Date.now() - statSync(path).mtimeMs > STALE_TEMP_MS) unlinkSync(path);
      }
    } catch {
      // another process removed it first
    }
  }
}
