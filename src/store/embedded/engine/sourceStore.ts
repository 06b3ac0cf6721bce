/**
 * The `_source` of each document, kept as UTF-8 JSON in large byte chunks (as Lucene keeps stored
 * fields as bytes) rather than as live objects: a million documents are a few hundred buffers
 * instead of millions of small objects for the garbage collector to trace, and take less memory.
 * Reading a source parses it: every read is a fresh copy the caller owns.
 *
 * The bytes are in ByteChunks (byteChunks.ts): with a spill directory (SearchIndexOptions.spillDir:
 * the store's DATA_DIR), only the chunk being filled is in memory, a full chunk is appended to a
 * spill file there and each read then reads its source's bytes back (one positioned read: a page of
 * hits reads its hits' sources, from the page cache when they were read or written recently). An
 * index read from the index file reads its sources from that file likewise, and spills its new ones.
 *
 * JSON text must give back exactly what was stored, so documents holding something it cannot carry
 * (see jsonBytes.ts: -0, undefined, array holes, very deep nesting, ...) are kept as deep copies.
 */
import { Doc } from '../../port';
import { cloneJson } from './json';
import { EMPTY_INT32, grow } from './growable';
import { NOT_JSON, NO_ROOM, isExactJson, writeJson } from './jsonBytes';
import type { StateReader, StateWriter } from './persist/state';
import { ByteChunks } from './byteChunks';
import type { SpillTarget } from './persist/diskFile';

export class SourceStore {
  private readonly chunks: ByteChunks;
  /** Per document: chunk index (-1: kept as an object), start in the chunk, length in bytes. */
  private where = EMPTY_INT32;
  private readonly objects = new Map<number, Doc>();

  /** @param spill where full chunks go (the index's spill file); none: they stay in memory */
  constructor(spill?: SpillTarget) {
    this.chunks = new ByteChunks(spill);
  }

  /**
   * Keep the source of document `doc` (a copy: later changes to `source` do not show). `json`:
   * JSON.stringify(source), when the caller made it already (the store, for SQLite): its UTF-8 bytes
   * are kept when it reads back exactly (isExactJson), instead of serializing the source again.
   */
  put(doc: number, source: Doc, json?: string): void {
    this.where = grow(this.where, 3 * doc + 3);
    const text = json !== undefined && isExactJson(source) ? json : undefined;
    const end = this.chunks.append(text === undefined ? (chunk, at) => writeJson(source, chunk, at) : (chunk, at) => writeText(text, chunk, at));
    if (end === NOT_JSON) {
      this.objects.set(doc, cloneJson(source));
      this.where[3 * doc] = -1;
      return;
    }
    this.where[3 * doc] = this.chunks.lastChunk;
    this.where[3 * doc + 1] = this.chunks.lastStart;
    this.where[3 * doc + 2] = end - this.chunks.lastStart;
  }

  /** A fresh copy of the source of document `doc`. */
  get(doc: number): Doc {
    const json = this.json(doc);
    if (json === undefined) return cloneJson(this.objects.get(doc) as Doc);
    return JSON.parse(json.toString('utf8')) as Doc;
  }

  /**
   * The stored JSON text of document `doc`'s source (ByteChunks.read: a view of the chunk holding
   * it, a copy, or read from disk), or undefined when the source is kept as an object.
   */
  json(doc: number): Buffer | undefined {
    const chunk = this.where[3 * doc];
    if (chunk === -1) return undefined;
    return this.chunks.read(chunk, this.where[3 * doc + 1], this.where[3 * doc + 2]);
  }

  /** The length in bytes of document `doc`'s stored JSON text, or -1 when its source is kept as an object. */
  jsonLength(doc: number): number {
    return this.where[3 * doc] === -1 ? -1 : this.where[3 * doc + 2];
  }

  /** Copies document `doc`'s stored JSON text (jsonLength bytes) into `out` at `at`, without a buffer of its own. */
  copyJson(doc: number, out: Buffer, at: number): void {
    const chunk = this.where[3 * doc];
    if (chunk === -1) throw new Error(`internal: the source of document ${doc} is not kept as JSON text`);
    this.chunks.copy(chunk, this.where[3 * doc + 1], this.where[3 * doc + 2], out, at);
  }

  /** Forget a document's source (its bytes stay until the index is rebuilt). */
  delete(doc: number): void {
    this.objects.delete(doc);
  }

  /**
   * For the index file (persist/): the chunks (ByteChunks.writeState: read on demand by the reader),
   * where each source is, and the sources kept as objects (V8's serialization keeps -0 and undefined).
   */
  writeState(w: StateWriter): void {
    this.chunks.writeState(w);
    w.array(this.where);
    w.values([...this.objects]);
  }

  /** Takes the state `writeState` wrote: the chunks stay in the index file, read from there; new sources go to a new chunk. */
  readState(r: StateReader): void {
    this.chunks.readState(r);
    this.where = r.int32();
    this.objects.clear();
    for (const [doc, source] of r.values<[number, Doc][]>()) this.objects.set(doc, source);
  }

  /** Memory held (chunks on disk not counted). */
  bytes(): number {
    return this.where.byteLength + this.chunks.bytes();
  }
}

/** JSON text's UTF-8 bytes into chunk[at, ...): the end of what was written, or NO_ROOM. */
function writeText(text: string, chunk: Buffer, at: number): number {
  // (at most 3 bytes per UTF-16 code unit: a surrogate pair's two units make 4)
  if (at + 3 * text.length > chunk.length && at + Buffer.byteLength(text) > chunk.length) return NO_ROOM;
  return at + chunk.write(text, at);
}
