/**
 * The `_source` of each document, kept as UTF-8 JSON in large byte chunks (as Lucene keeps stored
 * fields as bytes) rather than as live objects: a million documents are a few hundred buffers
 * instead of millions of small objects for the garbage collector to trace, and take less memory.
 * Reading a source parses it: every read is a fresh copy the caller owns.
 *
 * JSON text must give back exactly what was stored, so documents holding something it cannot carry
 * (see jsonBytes.ts: -0, undefined, array holes, very deep nesting, ...) are kept as deep copies.
 */
import { Doc } from '../../port';
import { cloneJson } from './json';
import { EMPTY_INT32 } from './growable';
import { NOT_JSON, NO_ROOM, writeJson } from './jsonBytes';
import type { StateReader, StateWriter } from './persist/state';

const CHUNK_SIZE = 4 * 1024 * 1024;

export class SourceStore {
  private readonly chunks: Buffer[] = [];
  private chunk = Buffer.alloc(0);
  private end = 0;
  /** Per document: chunk index (-1: kept as an object), start in the chunk, length in bytes. */
  private where = EMPTY_INT32;
  private readonly objects = new Map<number, Doc>();

  /** Keep the source of document `doc` (a copy: later changes to `source` do not show). */
  put(doc: number, source: Doc): void {
    if (3 * doc + 3 > this.where.length) {
      let n = Math.max(192, this.where.length * 2);
      while (3 * doc + 3 > n) n *= 2;
      const grown = new Int32Array(n);
      grown.set(this.where);
      this.where = grown;
    }
    let end = writeJson(source, this.chunk, this.end);
    // chunks grow from 4 KB to CHUNK_SIZE (small indexes stay small); a larger document gets a larger chunk
    for (let size = Math.max(4096, Math.min(CHUNK_SIZE, this.chunk.length * 2)); end === NO_ROOM; size *= 2) {
      this.chunk = Buffer.alloc(size);
      this.chunks.push(this.chunk);
      this.end = 0;
      end = writeJson(source, this.chunk, 0);
    }
    if (end === NOT_JSON) {
      this.objects.set(doc, cloneJson(source));
      this.where[3 * doc] = -1;
      return;
    }
    this.where[3 * doc] = this.chunks.length - 1;
    this.where[3 * doc + 1] = this.end;
    this.where[3 * doc + 2] = end - this.end;
    this.end = end;
  }

  /** A fresh copy of the source of document `doc`. */
  get(doc: number): Doc {
    const chunk = this.where[3 * doc];
    if (chunk === -1) return cloneJson(this.objects.get(doc) as Doc);
    const start = this.where[3 * doc + 1];
    return JSON.parse(this.chunks[chunk].toString('utf8', start, start + this.where[3 * doc + 2])) as Doc;
  }

  /**
   * The stored JSON text of document `doc`'s source, as a view of the chunk holding it (written bytes
   * never change), or undefined when the source is kept as an object.
   */
  json(doc: number): Buffer | undefined {
    const chunk = this.where[3 * doc];
    if (chunk === -1) return undefined;
    const start = this.where[3 * doc + 1];
    return this.chunks[chunk].subarray(start, start + this.where[3 * doc + 2]);
  }

  /** Forget a document's source (its bytes stay until the index is rebuilt). */
  delete(doc: number): void {
    this.objects.delete(doc);
  }

  /**
   * For the index file (persist/): the chunks (written bytes never change; the last one up to its
   * end), where each source is, and the sources kept as objects (V8's serialization keeps -0 and
   * undefined). A later version could leave the chunks on disk and read a source at its offset.
   */
  writeState(w: StateWriter): void {
    const n = this.chunks.length;
    w.json([n, this.end]);
    for (let i = 0; i < n; i++) w.bytes(i === n - 1 ? this.chunks[i].subarray(0, this.end) : this.chunks[i]);
    w.array(this.where);
    w.values([...this.objects]);
  }

  /** Takes the state `writeState` wrote (the chunks are the file's buffers, not copied). */
  readState(r: StateReader): void {
    const [n, end] = r.json<[number, number]>();
    this.chunks.length = 0;
    for (let i = 0; i < n; i++) this.chunks.push(r.bytes());
    this.chunk = n === 0 ? Buffer.alloc(0) : (this.chunks[n - 1] as Buffer<ArrayBuffer>);
    this.end = end;
    this.where = r.int32();
    this.objects.clear();
    for (const [doc, source] of r.values<[number, Doc][]>()) this.objects.set(doc, source);
  }

  bytes(): number {
    let n = this.where.byteLength;
    for (const c of this.chunks) n += c.byteLength;
    return n;
  }
}
