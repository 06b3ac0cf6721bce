/**
 * Bytes the engine keeps on disk and reads on demand with positioned reads (pread), as Lucene reads
 * its stored fields from a segment file rather than holding them: a page of hits reads the sources of
 * its hits only. Two kinds of files:
 *
 * - the index file a process started from (file.ts): the sections its writer marked as readable on
 *   demand (stored sources) are checked when it is read and then left where they are;
 * - spill files (`SpillFile`): where a source store appends each chunk of sources once it is full.
 *   A spill file is removed from its directory as soon as it is opened: it has no name, only the
 *   process holds it, and it disappears with the process, however it ends.
 *
 * A file stays open while anything still refers to it (the structures that read from it) and is
 * closed when they are garbage collected (a FinalizationRegistry): an index file replaced by a newer
 * one (renamed over it) stays readable by the process that opened it until then. The operating
 * system's page cache holds what was read recently; it is not the process's memory.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

/** Positioned reads made so far by this process (diskReads). */
let reads = 0;

/**
 * How many positioned reads the engine has made so far: what a loop over a dictionary's terms
 * counts to look at its budget sooner when its terms are read from disk (budget/checkEvery.ts).
 */
export const diskReads = (): number => reads;

export class DiskFile {
  constructor(readonly fd: number) {
    closer.register(this, fd, this);
  }

  /** Closes it now (nothing may read from it after). */
  close(): void {
    closer.unregister(this);
    closeSync(this.fd);
  }

  /** `length` bytes from `offset`, in a new buffer. */
  read(offset: number, length: number): Buffer {
    const out = Buffer.allocUnsafe(length);
    this.readInto(offset, length, out, 0);
    return out;
  }

  /**
   * `length` bytes from `offset`, `pieceBytes` at most at a time, each read when asked for into the
   * same buffer (a piece is valid until the next is asked for).
   */
  *readPieces(offset: number, length: number, pieceBytes: number): Generator<Buffer> {
    const buffer = Buffer.allocUnsafeSlow(Math.min(pieceBytes, length));
    for (let at = 0; at < length; at += pieceBytes) {
      const n = Math.min(pieceBytes, length - at);
      this.readInto(offset + at, n, buffer, 0);
      yield buffer.subarray(0, n);
    }
  }

  /** `length` bytes from `offset`, into `out` at `into`. */
  readInto(offset: number, length: number, out: Buffer, into: number): void {
    reads++;
    for (let at = 0; at < length; ) {
      const n = readSync(this.fd, out, into + at, length - at, offset + at);
      if (n === 0) throw new Error(`internal: a file the engine reads from ends before ${offset + length}`);
      at += n;
    }
  }
}

/** A run of bytes in a file kept open. */
export interface DiskBytes {
  readonly file: DiskFile;
  readonly offset: number;
  readonly length: number;
}

export const isDiskBytes = (value: unknown): value is DiskBytes => typeof value === 'object' && value !== null && (value as DiskBytes).file instanceof DiskFile;

/**
 * Where the structures of one index spill what they keep on disk (its stored sources, the rest of
 * its long terms): one spill file in `dir`, opened with the first append, shared by all of them
 * (a file descriptor per index, not per field), given back with the index.
 */
export class SpillTarget {
  private file: SpillFile | null = null;

  constructor(readonly dir: string) {}

  append(bytes: Uint8Array): DiskBytes {
    this.file ??= SpillFile.open(this.dir);
    return this.file.append(bytes);
  }
}

/** An append-only file without a name, in `dir` (see above). */
export class SpillFile extends DiskFile {
  private end = 0;

  static open(dir: string): SpillFile {
    const path = join(dir, `spill.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
    const fd = openSync(path, 'w+', 0o600);
    unlinkSync(path);
    return new SpillFile(fd);
  }

  /** Appends `bytes`; returns where they are. */
  append(bytes: Uint8Array): DiskBytes {
    const offset = this.end;
    for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at, offset + at);
    this.end += bytes.length;
    return { file: this, offset, length: bytes.length };
  }
}
