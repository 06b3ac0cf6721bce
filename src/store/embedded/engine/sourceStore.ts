/**
 * The `_source` of each document, kept as UTF-8 JSON in large byte chunks (as Lucene keeps stored
 * fields as bytes) rather than as live objects: a million documents are a few hundred buffers
 * instead of millions of small objects for the garbage collector to trace, and take less memory.
 * Reading a source parses it: every read is a fresh copy the caller owns.
 *
 * With a spill directory (SearchIndexOptions.spillDir: the store's DATA_DIR), only the chunk being
 * filled is in memory: a full chunk is appended to a spill file there (persist/diskFile.ts) and each
 * read then reads its source's bytes back (one positioned read: a page of hits reads its hits'
 * sources, from the page cache when they were read or written recently). An index read from the
 * index file reads its sources from that file likewise, and spills its new ones.
 *
 * JSON text must give back exactly what was stored, so documents holding something it cannot carry
 * (see jsonBytes.ts: -0, undefined, array holes, very deep nesting, ...) are kept as deep copies.
 */
import { Doc } from '../../port';
import { cloneJson } from './json';
import { EMPTY_INT32 } from './growable';
import { NOT_JSON, NO_ROOM, isExactJson, writeJson } from './jsonBytes';
import type { StateReader, StateWriter } from './persist/state';
import { SpillFile, isDiskBytes, type DiskBytes } from './persist/diskFile';

const CHUNK_SIZE = 4 * 1024 * 1024;

export class SourceStore {
  /** Chunks in memory, or where they are on disk (spilled, or left in the index file read). */
  private readonly chunks: (Buffer | DiskBytes)[] = [];
  /** The chunk being filled, chunks[current] (-1: none yet, or the last chunk is on disk). */
  private chunk = Buffer.alloc(0);
  private current = -1;
  private end = 0;
  private spill: SpillFile | null = null;
  /** Per document: chunk index (-1: kept as an object), start in the chunk, length in bytes. */
  private where = EMPTY_INT32;
  private readonly objects = new Map<number, Doc>();

  /** @param spillDir where full chunks go (a spill file, opened with the first one); none: they stay in memory */
  constructor(private readonly spillDir?: string) {}

  /**
   * Keep the source of document `doc` (a copy: later changes to `source` do not show). `json`:
   * JSON.stringify(source), when the caller made it already (the store, for SQLite): its UTF-8 bytes
   * are kept when it reads back exactly (isExactJson), instead of serializing the source again.
   */
  put(doc: number, source: Doc, json?: string): void {
    if (3 * doc + 3 > this.where.length) {
      let n = Math.max(192, this.where.length * 2);
      while (3 * doc + 3 > n) n *= 2;
      const grown = new Int32Array(n);
      grown.set(this.where);
      this.where = grown;
    }
    const text = json !== undefined && isExactJson(source) ? json : undefined;
    let end = text === undefined ? writeJson(source, this.chunk, this.end) : this.writeText(text, this.chunk, this.end);
    // chunks grow from 4 KB to CHUNK_SIZE (small indexes stay small); a larger document gets a larger chunk
    for (let size = Math.max(4096, Math.min(CHUNK_SIZE, this.chunk.length * 2)); end === NO_ROOM; size *= 2) {
      // a spilled chunk's buffer takes the next one (no garbage of 4 MB buffers for the allocator to keep)
      if (!this.retire() || this.chunk.length < size) this.chunk = Buffer.alloc(size);
      this.chunks.push(this.chunk);
      this.current = this.chunks.length - 1;
      this.end = 0;
      end = text === undefined ? writeJson(source, this.chunk, 0) : this.writeText(text, this.chunk, 0);
    }
    if (end === NOT_JSON) {
      this.objects.set(doc, cloneJson(source));
      this.where[3 * doc] = -1;
      return;
    }
    this.where[3 * doc] = this.current;
    this.where[3 * doc + 1] = this.end;
    this.where[3 * doc + 2] = end - this.end;
    this.end = end;
  }

  /** The chunk being filled is full: to the spill file, when there is a spill directory (true: spilled). */
  private retire(): boolean {
    if (this.current < 0 || this.spillDir === undefined) return false;
    this.spill ??= SpillFile.open(this.spillDir);
    this.chunks[this.current] = this.spill.append(this.chunk.subarray(0, this.end));
    this.current = -1;
    return true;
  }

  /** JSON text's UTF-8 bytes into chunk[at, ...): the end of what was written, or NO_ROOM. */
  private writeText(text: string, chunk: Buffer, at: number): number {
    // (at most 3 bytes per UTF-16 code unit: a surrogate pair's two units make 4)
    if (at + 3 * text.length > chunk.length && at + Buffer.byteLength(text) > chunk.length) return NO_ROOM;
    return at + chunk.write(text, at);
  }

  /** A fresh copy of the source of document `doc`. */
  get(doc: number): Doc {
    const json = this.json(doc);
    if (json === undefined) return cloneJson(this.objects.get(doc) as Doc);
    return JSON.parse(json.toString('utf8')) as Doc;
  }

  /**
   * The stored JSON text of document `doc`'s source (a view of the chunk holding it: written bytes
   * never change; a copy when chunks are spilled, as a spilled chunk's buffer is used again; or read
   * from disk), or undefined when the source is kept as an object.
   */
  json(doc: number): Buffer | undefined {
    const chunk = this.where[3 * doc];
    if (chunk === -1) return undefined;
    const start = this.where[3 * doc + 1];
    const where = this.chunks[chunk];
    if (isDiskBytes(where)) return where.file.read(where.offset + start, this.where[3 * doc + 2]);
    const view = where.subarray(start, start + this.where[3 * doc + 2]);
    return this.spillDir === undefined ? view : Buffer.from(view);
  }

  /** The length in bytes of document `doc`'s stored JSON text, or -1 when its source is kept as an object. */
  jsonLength(doc: number): number {
    return this.where[3 * doc] === -1 ? -1 : this.where[3 * doc + 2];
  }

  /** Copies document `doc`'s stored JSON text (jsonLength bytes) into `out` at `at`, without a buffer of its own. */
  copyJson(doc: number, out: Buffer, at: number): void {
    const chunk = this.where[3 * doc];
    if (chunk === -1) throw new Error(`internal: the source of document ${doc} is not kept as JSON text`);
    const start = this.where[3 * doc + 1];
    const length = this.where[3 * doc + 2];
    const where = this.chunks[chunk];
    if (isDiskBytes(where)) where.file.readInto(where.offset + start, length, out, at);
    else where.copy(out, at, start, start + length);
  }

  /** Forget a document's source (its bytes stay until the index is rebuilt). */
  delete(doc: number): void {
    this.objects.delete(doc);
  }

  /**
   * For the index file (persist/): the chunks (written bytes never change; the one being filled up
   * to its end; those on disk read when written), each to be read on demand by the reader, where
   * each source is, and the sources kept as objects (V8's serialization keeps -0 and undefined).
   */
  writeState(w: StateWriter): void {
    const n = this.chunks.length;
    w.json(n);
    for (let i = 0; i < n; i++) {
      const chunk = this.chunks[i];
      if (isDiskBytes(chunk)) w.bytes(() => chunk.file.read(chunk.offset, chunk.length), true);
      else w.bytes(i === this.current ? chunk.subarray(0, this.end) : chunk, true);
    }
    w.array(this.where);
    w.values([...this.objects]);
  }

  /**
   * Takes the state `writeState` wrote: the chunks stay in the index file, read from there (or are
   * the file's buffers, when it was read whole); new sources go to a new chunk.
   */
  readState(r: StateReader): void {
    const n = r.json<number>();
    this.chunks.length = 0;
    for (let i = 0; i < n; i++) this.chunks.push(r.bytesOnDemand());
    this.chunk = Buffer.alloc(0);
    this.current = -1;
    this.end = 0;
    this.where = r.int32();
    this.objects.clear();
    for (const [doc, source] of r.values<[number, Doc][]>()) this.objects.set(doc, source);
  }

  /** Memory held (chunks on disk not counted). */
  bytes(): number {
    let n = this.where.byteLength;
    for (const c of this.chunks) if (!isDiskBytes(c)) n += c.byteLength;
    return n;
  }
}
