/**
 * Bytes appended in large chunks and read back by (chunk, start, length): what the engine keeps as
 * bytes it reads a piece at a time, as Lucene keeps stored fields and term dictionary blocks in
 * segment files. Used for stored sources (sourceStore.ts) and the tails of long terms (termHash.ts).
 *
 * With a spill directory (SearchIndexOptions.spillDir: the store's DATA_DIR), only the chunk being
 * filled is in memory: a full chunk is appended to a spill file there (persist/diskFile.ts), and a
 * read then reads its bytes back (one positioned read, from the page cache when they were read or
 * written recently). Chunks read from an index file stay in that file (read on demand likewise).
 * Without one, every chunk stays in memory.
 */
import { NO_ROOM } from './jsonBytes';
import type { StateReader, StateWriter } from './persist/state';
import { isDiskBytes, type DiskBytes, type SpillTarget } from './persist/diskFile';

const CHUNK_SIZE = 4 * 1024 * 1024;
/**
 * Bytes at most copied by a loop rather than Buffer.copy, whose argument checks cost more than
 * copying a long term's rest (Node 20: a third of a pattern walk over long terms).
 */
const SMALL_COPY = 64;
/** Bytes of a chunk on disk read at once when the index file is written. */
const READ_PIECE = 512 * 1024;

export class ByteChunks {
  /** Chunks in memory, or where they are on disk (spilled, or left in the index file read). */
  private readonly chunks: (Buffer | DiskBytes)[] = [];
  /** The chunk being filled, chunks[current] (-1: none yet, or the last chunk is on disk). */
  private chunk = Buffer.alloc(0);
  private current = -1;
  private end = 0;
  /** Where the last successful `append` put its bytes: chunk number and start in it. */
  lastChunk = -1;
  lastStart = 0;

  /** @param spill where full chunks go (its index's spill file); none: they stay in memory */
  constructor(private readonly spill?: SpillTarget) {}

  /**
   * Appends what `write(chunk, at)` writes from `at`: it returns the end of what it wrote, NO_ROOM
   * when it does not fit (it is then called again on a new chunk, large enough in the end), or any
   * other negative number when it wrote nothing (returned as is). Returns the end; the bytes are then
   * at (lastChunk, lastStart).
   */
  append(write: (chunk: Buffer, at: number) => number): number {
    let end = write(this.chunk, this.end);
    // chunks grow from 4 KB to CHUNK_SIZE (small indexes stay small); larger bytes get a larger chunk
    for (let size = Math.max(4096, Math.min(CHUNK_SIZE, this.chunk.length * 2)); end === NO_ROOM; size *= 2) {
      // a spilled chunk's buffer takes the next one (no garbage of 4 MB buffers for the allocator to keep)
      if (!this.retire() || this.chunk.length < size) this.chunk = Buffer.alloc(size);
      this.chunks.push(this.chunk);
      this.current = this.chunks.length - 1;
      this.end = 0;
      end = write(this.chunk, 0);
    }
    if (end < 0) return end;
    this.lastChunk = this.current;
    this.lastStart = this.end;
    this.end = end;
    return end;
  }

  /** Appends `bytes` (see append). */
  appendBytes(bytes: Uint8Array): void {
    this.append((chunk, at) => {
      if (at + bytes.length > chunk.length) return NO_ROOM;
      chunk.set(bytes, at);
      return at + bytes.length;
    });
  }

  /** The chunk being filled is full: to the spill file, when there is a spill directory (true: spilled). */
  private retire(): boolean {
    if (this.current < 0 || this.spill === undefined) return false;
    this.chunks[this.current] = this.spill.append(this.chunk.subarray(0, this.end));
    this.current = -1;
    return true;
  }

  /**
   * `length` bytes from `start` of chunk `chunk`: a view of the chunk when chunks stay in memory
   * (written bytes never change); a copy when they may be spilled (a spilled chunk's buffer is used
   * again); read from disk when on disk.
   */
  read(chunk: number, start: number, length: number): Buffer {
    const where = this.chunks[chunk];
    if (isDiskBytes(where)) return where.file.read(where.offset + start, length);
    const view = where.subarray(start, start + length);
    return this.spill === undefined ? view : Buffer.from(view);
  }

  /** Copies `length` bytes from `start` of chunk `chunk` into `out` at `at` (read from disk straight into it when on disk). */
  copy(chunk: number, start: number, length: number, out: Buffer, at: number): void {
    const where = this.chunks[chunk];
    if (isDiskBytes(where)) where.file.readInto(where.offset + start, length, out, at);
    else if (length <= SMALL_COPY) for (let i = 0; i < length; i++) out[at + i] = where[start + i];
    else where.copy(out, at, start, start + length);
  }

  /**
   * For the index file (persist/): the chunks (the one being filled up to its end; those on disk
   * read when written), each to be read on demand by the reader.
   */
  writeState(w: StateWriter): void {
    const n = this.chunks.length;
    w.json(n);
    for (let i = 0; i < n; i++) {
      const chunk = this.chunks[i];
      // (a chunk on disk read a piece at a time as it is written, not 4 MB at once)
      if (isDiskBytes(chunk)) w.bytes(() => chunk.file.readPieces(chunk.offset, chunk.length, READ_PIECE), true);
      else w.bytes(i === this.current ? chunk.subarray(0, this.end) : chunk, true);
    }
  }

  /** Takes the state `writeState` wrote: the chunks stay in the index file (or are its buffers, when it was read whole); new bytes go to a new chunk. */
  readState(r: StateReader): void {
    const n = r.json<number>();
    this.chunks.length = 0;
    for (let i = 0; i < n; i++) this.chunks.push(r.bytesOnDemand());
    this.chunk = Buffer.alloc(0);
    this.current = -1;
    this.end = 0;
  }

  /** Memory held (chunks on disk not counted). */
  bytes(): number {
    let n = 0;
    for (const c of this.chunks) if (!isDiskBytes(c)) n += c.byteLength;
    return n;
  }
}
