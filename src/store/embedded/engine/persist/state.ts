/**
 * The state of the index structures as an ordered stream, what the index file (file.ts) holds:
 * small values as JSON (`json`), large ones as sections of raw little-endian bytes (`array`:
 * typed arrays; `strings`: string lists; `bytes`: buffers). Each structure writes its state in a
 * fixed order (`writeState`) and reads it back in the same order (`readState`): the stream has no
 * names, the format's version (file.ts FORMAT_VERSION) says which order.
 *
 * Writing captures: a typed array is kept by reference (the used part, as a view) and string lists
 * by their count (dictionaries only grow), so capturing an index of a million documents takes
 * microseconds; the bytes are produced when the file is written, section by section. Whoever writes
 * must make sure the structures did not change meanwhile (the store checks each index's write
 * count before and after: embedded/snapshot/).
 *
 * Reading gives views into the section buffers (no copy): a section is 8-byte aligned in the file
 * and read into a buffer of its own, so any typed array can view it.
 */
import { deserialize as v8Deserialize, serialize as v8Serialize } from 'node:v8';
import type { DiskBytes } from './diskFile';

/** Typed arrays the structures keep. */
export type StateArray = Int32Array | Int16Array | Int8Array | Uint32Array | Uint16Array | Uint8Array | Float64Array;

type ArrayKind = 'i32' | 'i16' | 'i8' | 'u32' | 'u16' | 'u8' | 'f64';
const CONSTRUCTORS: Record<ArrayKind, { new (buffer: ArrayBuffer, offset: number, length: number): StateArray; BYTES_PER_ELEMENT: number }> = {
  i32: Int32Array,
  i16: Int16Array,
  i8: Int8Array,
  u32: Uint32Array,
  u16: Uint16Array,
  u8: Uint8Array,
  f64: Float64Array,
};

function kindOf(array: StateArray): ArrayKind {
  if (array instanceof Int32Array) return 'i32';
  if (array instanceof Int16Array) return 'i16';
  if (array instanceof Int8Array) return 'i8';
  if (array instanceof Uint32Array) return 'u32';
  if (array instanceof Uint16Array) return 'u16';
  if (array instanceof Float64Array) return 'f64';
  return 'u8';
}

/**
 * A section's bytes: at once (a view of memory the structures own), or made when written, whole or
 * in pieces written one after the other (the writer lets the event loop run between pieces: a
 * section of 100 MB made at once held it for tens of milliseconds). A piece is valid until the next
 * is asked for (its buffer may be used again for the next: fresh buffers of a megabyte for every
 * piece of a 300 MB file made the garbage collector run full collections of 10 to 30 ms while it was
 * written).
 */
export type SectionSource = Uint8Array | (() => Uint8Array | Iterable<Uint8Array>);

/** A section's bytes, made if they are made when written: one piece, or its pieces one after the other. */
export function sectionPieces(source: SectionSource): Iterable<Uint8Array> {
  const made = typeof source === 'function' ? source() : source;
  return made instanceof Uint8Array ? [made] : made;
}

/** A section's bytes in one buffer (what the file holds; tests read a state back from memory with it). */
export function sectionBytes(source: SectionSource): Buffer {
  const pieces: Buffer[] = [];
  for (const piece of sectionPieces(source)) pieces.push(Buffer.from(piece)); // (copied before the next is made)
  return Buffer.concat(pieces);
}

/** Bytes per piece of a section made in pieces (joinedPieces). */
const JOINED_PIECE = 1024 * 1024;

/**
 * The bytes of `lists[b].subarray(0, lengths[b])`, list after list, in pieces: a list of
 * JOINED_PIECE bytes or more as a view of itself, smaller ones copied together into pieces of at
 * most JOINED_PIECE bytes, all in one buffer (a piece is valid until the next is asked for: see
 * SectionSource).
 */
export function* joinedPieces(lists: readonly StateArray[], lengths: ArrayLike<number>, pieceBytes = JOINED_PIECE): Generator<Uint8Array> {
  let piece: Uint8Array | null = null;
  let filled = 0;
  for (let b = 0; b < lists.length; b++) {
    const list = lists[b];
    const bytes = new Uint8Array(list.buffer, list.byteOffset, lengths[b] * list.BYTES_PER_ELEMENT);
    if (bytes.length >= pieceBytes) {
      if (piece !== null && filled > 0) yield piece.subarray(0, filled);
      filled = 0;
      yield bytes;
      continue;
    }
    if (piece !== null && filled + bytes.length > pieceBytes) {
      yield piece.subarray(0, filled);
      filled = 0;
    }
    piece ??= new Uint8Array(pieceBytes);
    piece.set(bytes, filled);
    filled += bytes.length;
  }
  if (piece !== null && filled > 0) yield piece.subarray(0, filled);
}

/** Strings per block of a string list (each block one section, decoded as one string). */
const STRINGS_PER_BLOCK = 65_536;

/** Whether every code unit is below 256 (the block is stored one byte per character). */
const ONE_BYTE = /^[\x00-\xff]*$/;

export class StateWriter {
  /** The JSON items, in order (the file's footer holds them). */
  readonly meta: unknown[] = [];
  readonly sections: SectionSource[] = [];
  /** Sections a reader may leave in the file and read on demand (`bytes(…, true)`), by number. */
  readonly onDemand = new Set<number>();

  json(value: unknown): void {
    this.meta.push(value);
  }

  /** The first `length` elements of `array` (a view: the array must not change until written). */
  array(array: StateArray, length = array.length): void {
    this.meta.push(kindOf(array));
    this.sections.push(new Uint8Array(array.buffer, array.byteOffset, length * array.BYTES_PER_ELEMENT));
  }

  /**
   * An Int32Array made when the file is written, not when the state is captured (what it is made
   * from must not change until then, as for `array`): work over a whole structure (a loop over a
   * million terms) then runs between two sections of the write, not in the capture, which is made
   * at once for every index.
   */
  int32Made(make: () => Int32Array): void {
    this.meta.push('i32');
    this.sections.push(() => {
      const array = make();
      return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    });
  }

  /**
   * Bytes as they are, or made when written. `onDemand`: a reader leaves them in the file and reads
   * them when asked (StateReader.bytesOnDemand; persist/diskFile.ts), as stored sources are read.
   */
  bytes(bytes: SectionSource, onDemand = false): void {
    if (onDemand) this.onDemand.add(this.sections.length);
    this.sections.push(bytes);
  }

  /**
   * The first `count` strings of `list` (list[i] for i < count must not change; later ones may be
   * added): per block of STRINGS_PER_BLOCK, their lengths in UTF-16 code units, then their text
   * joined, one byte per character when it fits (latin1), else UTF-16.
   */
  strings(list: readonly string[], count = list.length): void {
    const blocks = Math.ceil(count / STRINGS_PER_BLOCK);
    this.meta.push(count);
    for (let b = 0; b < blocks; b++) {
      const from = b * STRINGS_PER_BLOCK;
      const to = Math.min(count, from + STRINGS_PER_BLOCK);
      this.sections.push(() => {
        const lengths = new Int32Array(to - from);
        for (let i = from; i < to; i++) lengths[i - from] = list[i].length;
        return new Uint8Array(lengths.buffer);
      });
      this.sections.push(() => {
        const text = list.slice(from, to).join('');
        // flag byte: 1 latin1, 2 utf16le
        const oneByte = ONE_BYTE.test(text);
        const body = Buffer.from(text, oneByte ? 'latin1' : 'utf16le');
        const out = Buffer.allocUnsafe(body.length + 1);
        out[0] = oneByte ? 1 : 2;
        body.copy(out, 1);
        return out;
      });
    }
  }

  /**
   * Values JSON cannot carry exactly (-0, undefined, ...): V8's serialization, made when the file is
   * written (the value must not change until then).
   */
  values(value: unknown): void {
    this.sections.push(() => v8Serialize(value));
  }
}

/** The file's content is not what this version wrote (a damaged or foreign file that passed its checksums). */
export class StateError extends Error {}

export class StateReader {
  private m = 0;
  private s = 0;

  constructor(
    private readonly meta: readonly unknown[],
    private readonly sections: readonly (Buffer | DiskBytes)[],
  ) {}

  json<T>(): T {
    if (this.m >= this.meta.length) throw new StateError('index file: fewer values than expected');
    return this.meta[this.m++] as T;
  }

  private section(): Buffer {
    const section = this.anySection();
    if (!Buffer.isBuffer(section)) throw new StateError('index file: a section left on disk where one in memory was expected');
    return section;
  }

  private anySection(): Buffer | DiskBytes {
    if (this.s >= this.sections.length) throw new StateError('index file: fewer sections than expected');
    return this.sections[this.s++];
  }

  private array<T>(kind: ArrayKind): T {
    const stored = this.json<string>();
    if (stored !== kind) throw new StateError(`index file: expected an array of ${kind}, found ${String(stored)}`);
    const bytes = this.section();
    const type = CONSTRUCTORS[kind];
    if (bytes.byteOffset % type.BYTES_PER_ELEMENT !== 0 || bytes.length % type.BYTES_PER_ELEMENT !== 0) throw new StateError('index file: misaligned section');
    return new type(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.length / type.BYTES_PER_ELEMENT) as unknown as T;
  }

  int32(): Int32Array<ArrayBuffer> {
    return this.array('i32');
  }

  /** Signed integers of whichever width was written (i8, i16 or i32: forwardIndex.ts TermIds). */
  termIds(): Int8Array<ArrayBuffer> | Int16Array<ArrayBuffer> | Int32Array<ArrayBuffer> {
    const stored = this.meta[this.m];
    return this.array(stored === 'i8' || stored === 'i16' ? stored : 'i32');
  }

  uint32(): Uint32Array<ArrayBuffer> {
    return this.array('u32');
  }

  uint16(): Uint16Array<ArrayBuffer> {
    return this.array('u16');
  }

  uint8(): Uint8Array<ArrayBuffer> {
    return this.array('u8');
  }

  float64(): Float64Array<ArrayBuffer> {
    return this.array('f64');
  }

  bytes(): Buffer {
    return this.section();
  }

  /** Bytes written with `onDemand`: where they are in the file (read from there when needed), or in memory. */
  bytesOnDemand(): Buffer | DiskBytes {
    return this.anySection();
  }

  /** A string list (StateWriter.strings): pieces of one decoded string per block (V8 slices, no copy of the text). */
  strings(): string[] {
    const count = this.json<number>();
    const out: string[] = new Array(count);
    let at = 0;
    while (at < count) {
      const lengthBytes = this.section();
      const lengths = new Int32Array(lengthBytes.buffer, lengthBytes.byteOffset, lengthBytes.length / 4);
      const body = this.section();
      const text = body.toString(body[0] === 1 ? 'latin1' : 'utf16le', 1);
      let offset = 0;
      for (let i = 0; i < lengths.length; i++) {
        out[at++] = text.slice(offset, offset + lengths[i]);
        offset += lengths[i];
      }
      if (offset !== text.length) throw new StateError('index file: string lengths do not add up');
    }
    return out;
  }

  values<T>(): T {
    return v8Deserialize(this.section()) as T;
  }

  /** Throws unless every item was read (a file of another layout that happened to parse). */
  end(): void {
    if (this.m !== this.meta.length || this.s !== this.sections.length) throw new StateError('index file: more values than expected');
  }
}
