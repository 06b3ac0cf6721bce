/**
 * The index file: a state stream (state.ts) and a header in one file, versioned and checksummed.
 *
 *   bytes 0-7    "EGWINDEX"
 *   bytes 8-11   FORMAT_VERSION (u32 little-endian), 12-15 zero
 *   sections     each at an offset that is a multiple of 8, raw little-endian bytes
 *   footer       JSON: {header, meta, sections: [[offset, length, crc32, onDemand], ...]}
 *   last 16      footer offset (u32 low, u32 high), footer length (u32), footer crc32 (u32)
 *
 * The footer comes last (as a zip's directory, as Lucene's codec footers): sections are written as
 * they are produced, their lengths and checksums known only then. Every section has its CRC-32, so a
 * reader can check a section when it reads it. Sections the writer marked `onDemand` (stored
 * sources) are checked and then left in the file: the reader keeps the file open and reads them at
 * their offsets when asked (diskFile.ts), so they are not in the process's memory.
 *
 * A file is trusted only whole: its version, its footer's checksum and every section's checksum
 * must hold, else reading throws IndexFileError with the reason (the store then rebuilds from
 * SQLite). Writers write to a temporary file and rename it over the old one (atomic): a reader
 * opens either the old file or the new one, never half of one.
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, unlinkSync, writeSync, fsyncSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { DiskFile, type DiskBytes } from './diskFile';
import { sectionPieces, StateReader, StateWriter } from './state';

/** Bump on any change of what a structure writes, or of its order: older files are then rebuilt. */
export const FORMAT_VERSION = 9;

const MAGIC = Buffer.from('EGWINDEX', 'latin1');
const PREFIX = 16;
const TRAILER = 16;
/** Bytes checksummed or written between two looks at the event loop. */
const PIECE = 1024 * 1024;

/** Why an index file was not used. */
export class IndexFileError extends Error {}

interface Footer<H> {
  header: H;
  meta: unknown[];
  /** offset, length, CRC-32, 1 when the reader may leave it on disk (StateWriter.bytes onDemand) */
  sections: [number, number, number, number][];
}

/** What a writer does next: write bytes, let the event loop run, or check that the state did not change. */
type Step = { write: Uint8Array } | { pause: true } | { check: () => boolean };

/** A write given up: the state changed while it was written. */
export class WriteAborted extends Error {}

function pad(offset: number): Uint8Array | null {
  const n = (8 - (offset % 8)) % 8;
  return n === 0 ? null : new Uint8Array(n);
}

/** The file's bytes in order, with pauses between pieces and the writer's check after each section. */
function* steps<H>(header: H, state: StateWriter, check: () => boolean): Generator<Step> {
  const prefix = Buffer.alloc(PREFIX);
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(FORMAT_VERSION, 8);
  yield { write: prefix };
  let offset = PREFIX;
  const table: [number, number, number, number][] = [];
  for (let i = 0; i < state.sections.length; i++) {
    // checksummed and written a piece at a time, the loop let run after each PIECE bytes
    let crc = 0;
    let length = 0;
    let sincePause = 0;
    for (const bytes of sectionPieces(state.sections[i])) {
      for (let at = 0; at < bytes.length; at += PIECE) {
        const part = bytes.subarray(at, Math.min(bytes.length, at + PIECE));
        crc = crc32(part, crc);
        yield { write: part };
        length += part.length;
        sincePause += part.length;
        if (sincePause >= PIECE) {
          yield { pause: true };
          sincePause = 0;
        }
      }
    }
    table.push([offset, length, crc, state.onDemand.has(i) ? 1 : 0]);
    offset += length;
    const padding = pad(offset);
    if (padding !== null) {
      yield { write: padding };
      offset += padding.length;
    }
    yield { check };
    yield { pause: true };
  }
  const footer = Buffer.from(JSON.stringify({ header, meta: state.meta, sections: table } satisfies Footer<H>), 'utf8');
  yield { write: footer };
  const trailer = Buffer.alloc(TRAILER);
  trailer.writeUInt32LE(offset % 2 ** 32, 0);
  trailer.writeUInt32LE(Math.floor(offset / 2 ** 32), 4);
  trailer.writeUInt32LE(footer.length, 8);
  trailer.writeUInt32LE(crc32(footer), 12);
  yield { write: trailer };
}

/**
 * Writes the file at once (tests, and a process stopping: nothing else runs). `check`: after each
 * section, a test that the state did not change (false: WriteAborted).
 */
export function writeIndexFileSync<H>(path: string, header: H, state: StateWriter, check: () => boolean = () => true): void {
  const temp = tempName(path);
  const fd = openSync(temp, 'w', 0o600);
  try {
    for (const step of steps(header, state, check)) {
      if ('write' in step) writeAll(fd, step.write);
      else if ('check' in step && !step.check()) throw new WriteAborted('the index changed while it was written');
    }
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(temp);
    throw err;
  }
  closeSync(fd);
  renameSync(temp, path);
  syncDir(path);
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/**
 * Writes the file without holding the event loop: checksums a piece at a time, writes through
 * libuv's thread pool, lets the loop run between sections; throws WriteAborted (and leaves no file)
 * when a check fails.
 */
export async function writeIndexFile<H>(path: string, header: H, state: StateWriter, check: () => boolean = () => true): Promise<void> {
  const temp = tempName(path);
  const handle = await open(temp, 'w', 0o600);
  try {
    for (const step of steps(header, state, check)) {
      if ('write' in step) {
        for (let at = 0; at < step.write.length; ) at += (await handle.write(step.write, at, step.write.length - at)).bytesWritten;
      } else if ('pause' in step) {
        await new Promise((resolve) => setImmediate(resolve));
      } else if (!step.check()) {
        throw new WriteAborted('the index changed while it was written');
      }
    }
    await handle.datasync();
  } catch (err) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await handle.close();
  await rename(temp, path);
  syncDir(path);
}

let tempCount = 0;
function tempName(path: string): string {
  return `${path}.${process.pid}.${++tempCount}.tmp`;
}

/** The rename is durable once the directory is synced. */
function syncDir(path: string): void {
  try {
    const fd = openSync(dirname(path), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // some file systems refuse to sync a directory: the rename is still atomic
  }
}

function readAt(fd: number, offset: number, length: number): Buffer {
  // a buffer of its own (offset 0 of its ArrayBuffer): every typed array can view it
  const out = Buffer.allocUnsafeSlow(length);
  for (let at = 0; at < length; ) {
    const n = readSync(fd, out, at, length - at, offset + at);
    if (n === 0) throw new IndexFileError('the file ends early');
    at += n;
  }
  return out;
}

/** The header alone (cheap: the footer only), or null when there is no readable file. */
export function readIndexHeader<H>(path: string): H | null {
  try {
    const fd = openSync(path, 'r');
    try {
      return readFooter<H>(fd).header;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

function readFooter<H>(fd: number): Footer<H> {
  const size = fstatSync(fd).size;
  if (size < PREFIX + TRAILER) throw new IndexFileError(`the file is too short (${size} bytes)`);
  const prefix = readAt(fd, 0, PREFIX);
  if (!prefix.subarray(0, 8).equals(MAGIC)) throw new IndexFileError('not an index file (its first bytes differ)');
  const version = prefix.readUInt32LE(8);
  if (version !== FORMAT_VERSION) throw new IndexFileError(`written in format version ${version}, this gateway reads version ${FORMAT_VERSION}`);
  const trailer = readAt(fd, size - TRAILER, TRAILER);
  const footerAt = trailer.readUInt32LE(0) + trailer.readUInt32LE(4) * 2 ** 32;
  const footerLength = trailer.readUInt32LE(8);
  if (footerAt + footerLength + TRAILER !== size) throw new IndexFileError('its trailer does not match its size');
  const footerBytes = readAt(fd, footerAt, footerLength);
  if (crc32(footerBytes) !== trailer.readUInt32LE(12)) throw new IndexFileError('its footer fails its checksum');
  return JSON.parse(footerBytes.toString('utf8')) as Footer<H>;
}

/** Bytes checked at once when a section left on disk is checked. */
const CHECK_PIECE = 4 * 1024 * 1024;

/** The CRC-32 of a run of the file, read a piece at a time. */
function crcAt(fd: number, offset: number, length: number): number {
  const piece = Buffer.allocUnsafeSlow(Math.min(length, CHECK_PIECE));
  let crc = 0;
  for (let at = 0; at < length; ) {
    const n = readSync(fd, piece, 0, Math.min(piece.length, length - at), offset + at);
    if (n === 0) throw new IndexFileError('the file ends early');
    crc = crc32(piece.subarray(0, n), crc);
    at += n;
  }
  return crc;
}

/**
 * Reads and checks a whole file: its header and a reader of its state, each section in a buffer
 * of its own, except those written `onDemand`: checked, then left in the file, which stays open
 * for them (diskFile.ts). Throws IndexFileError (or a file system error) when it cannot be trusted.
 */
export function readIndexFile<H>(path: string): { header: H; state: StateReader; bytes: number } {
  const fd = openSync(path, 'r');
  let file: DiskFile | null = null;
  try {
    const footer = readFooter<H>(fd);
    let bytes = 0;
    const sections = footer.sections.map(([offset, length, crc, onDemand], i): Buffer | DiskBytes => {
      bytes += length;
      if (onDemand === 1) {
        if (crcAt(fd, offset, length) !== crc) throw new IndexFileError(`section ${i} fails its checksum`);
        return { file: (file ??= new DiskFile(fd)), offset, length };
      }
      const section = readAt(fd, offset, length);
      if (crc32(section) !== crc) throw new IndexFileError(`section ${i} fails its checksum`);
      return section;
    });
    // (a file some sections are read from stays open: closed once they are garbage collected)
    if (file === null) closeSync(fd);
    return { header: footer.header, state: new StateReader(footer.meta, sections), bytes };
  } catch (err) {
    if (file === null) closeSync(fd);
    else (file as DiskFile).close();
    throw err;
  }
}
