/**
 * A string -> id dictionary (ids 0, 1, 2, ... in order of addition) with open addressing over an
 * Int32Array, that can look a term up from a slice of a longer text, lower-casing ASCII on the fly:
 * indexing finds the id of each token without first cutting it out of the text as a new string.
 */
import { ByteChunks } from './byteChunks';
import type { SpillTarget } from './persist/diskFile';
import { EMPTY_INT32, EMPTY_UINT8, allocate, allocateBuffer, grow } from './growable';
import { entryId, slotEntry, tagOf } from './hashSlots';
import { compareUtf8 } from './strings';
import type { StateReader, StateWriter } from './persist/state';

/** FNV-1a over UTF-16 code units of text[start, end), ASCII upper case folded when `fold` (as analyzer.scanAscii computes it). */
export function hashSlice(text: string, start: number, end: number, fold: boolean): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    let c = text.charCodeAt(i);
    if (fold && c >= 65 && c <= 90) c += 32;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h | 0;
}

const EMPTY_CHARS = Buffer.alloc(0);

/** A term of more bytes than this is long: `chars` holds its first PREFIX bytes and a REF, `tails` the rest. */
const LONG = 36;
const PREFIX = 16;
/** After a long term's prefix: its length in bytes, the chunk and start of the rest in `tails` (u32 each), then its hash (i32). */
const REF = 16;

/** A buffer reused from call to call, grown as needed. */
class ReusedBuffer {
  private bytes = Buffer.allocUnsafe(256);

  /** The buffer, at least `n` bytes long (what it held is not kept when it grows). */
  atLeast(n: number): Buffer {
    if (n > this.bytes.length) this.bytes = Buffer.allocUnsafe(Math.max(n, 2 * this.bytes.length));
    return this.bytes;
  }
}

/**
 * Where long terms' bytes are put together: to make a term's string or code units (term,
 * codeUnits), and two terms to compare (compare: sorting a dictionary compares long terms sharing
 * their prefix many times). Never two uses of one at once: each caller is done with it on return.
 */
const TERM_BYTES = new ReusedBuffer();
const COMPARE_A = new ReusedBuffer();
const COMPARE_B = new ReusedBuffer();
/** A long term's bytes are put together here before being split (grown as needed). */
let scratch = Buffer.alloc(256);

/** Sets bit `id` of `bits` (grown as needed); returns the array. */
function withBit(bits: Uint8Array, id: number): Uint8Array {
  const out = id >> 3 >= bits.length ? grow(bits, (id >> 3) + 1) : bits;
  out[id >> 3] |= 1 << (id & 7);
  return out;
}

const hasBit = (bits: Uint8Array, id: number): boolean => (bits[id >> 3] & (1 << (id & 7))) !== 0;

/**
 * The dictionary keeps no JavaScript string per term: the terms' characters are end to end in one
 * byte buffer (`chars`: one byte per character, or two, UTF-16LE, for a term with a code unit above
 * 255), found through their start offsets (`starts`, one Int32 per term). A million unique keyword
 * values (ids, slugs, names) took a string each on the JavaScript heap (16 to 24 bytes of header
 * and a pointer besides their characters, and work for every garbage collection); here they take
 * their characters and 4 bytes, out of the heap, and are written to and read from the index file
 * as they are (no string made when an index file is read). `term(id)` makes the string when asked.
 *
 * A long term (more than LONG bytes: a sentence kept whole as a keyword, a URL) keeps only its first
 * PREFIX bytes in `chars`, with its length and where the rest is in `tails` (byteChunks.ts: with a
 * spill directory, on disk but for the chunk being filled; read back from the index file after a
 * restart), as Lucene keeps its term dictionary in a file: a `.keyword` of a 15-word description
 * took 120 bytes of memory per entity and takes 32 (its first 16 bytes, its length, where the rest is, its hash). What reads a long term's rest from disk (one
 * positioned read): making its string (`term`: a hit's sort value, an aggregation's bucket, a
 * pattern's walk over the dictionary), finding it (`get`, `intern`) when another term has the same
 * 32-bit hash (the same term, mostly: writing a value already indexed), and ordering two terms whose
 * first PREFIX bytes are the same (sorting the dictionary, SortedTerms).
 */
export class TermHash {
  private chars: Buffer = EMPTY_CHARS;
  /** Id -> start of its characters in `chars`; starts[size] is where the next term goes. */
  private starts = Int32Array.of(0);
  /** A bit per id: its characters are two bytes each. */
  private wide: Uint8Array = EMPTY_UINT8;
  /** A bit per id: a long term (see above). */
  private long: Uint8Array = EMPTY_UINT8;
  /** The rest of each long term's bytes (made with the first). */
  private tails: ByteChunks | null = null;
  private count = 0;
  /** Slot -> id + 1 and hash bits (hashSlots.ts; 0: empty); allocated with the first term. */
  private table = EMPTY_INT32;

  /** @param spill where the tails of long terms go (ByteChunks: the index's spill file); none: in memory */
  constructor(private readonly spill?: SpillTarget) {}

  get size(): number {
    return this.count;
  }

  /** The term of an id (a new string). */
  term(id: number): string {
    const encoding = this.isWide(id) ? 'utf16le' : 'latin1';
    // (a long term put together in a reused buffer: the string is the only allocation)
    if (this.isLong(id)) return this.longBytes(id, TERM_BYTES).toString(encoding, 0, this.longLength(id));
    return this.chars.toString(encoding, this.starts[id], this.starts[id + 1]);
  }

  /**
   * The UTF-16 code units of a term into `out` from 0, without making its string (what a pattern's
   * walk over the dictionary reads of every term: automaton/intersect.ts); returns the term's
   * length, and writes nothing when `out` is shorter than that (the caller grows it and asks again).
   */
  codeUnits(id: number, out: Uint16Array): number {
    const wide = this.isWide(id);
    const long = this.isLong(id);
    const n = long ? this.longLength(id) : this.starts[id + 1] - this.starts[id];
    const length = wide ? n >> 1 : n;
    if (length > out.length) return length; // (before a long term's rest is read)
    const bytes = long ? this.longBytes(id, TERM_BYTES) : this.chars;
    const from = long ? 0 : this.starts[id];
    if (wide) for (let i = 0; i < length; i++) out[i] = bytes[from + 2 * i] | (bytes[from + 2 * i + 1] << 8);
    else for (let i = 0; i < length; i++) out[i] = bytes[from + i];
    return length;
  }

  private isLong(id: number): boolean {
    return hasBit(this.long, id);
  }

  /** A long term's length in bytes. */
  private longLength(id: number): number {
    return this.chars.readUInt32LE(this.starts[id] + PREFIX);
  }

  /** A long term's bytes, whole, from the start of a buffer: `reused`'s, else a new one (its rest read from `tails`). */
  private longBytes(id: number, reused?: ReusedBuffer): Buffer {
    const at = this.starts[id] + PREFIX;
    const length = this.chars.readUInt32LE(at);
    const out = reused === undefined ? Buffer.allocUnsafe(length) : reused.atLeast(length);
    const chars = this.chars;
    for (let i = 0; i < PREFIX; i++) out[i] = chars[at - PREFIX + i];
    (this.tails as ByteChunks).copy(this.chars.readUInt32LE(at + 4), this.chars.readUInt32LE(at + 8), length - PREFIX, out, PREFIX);
    return out;
  }

  /** Every term by id (a copy: tests and small dictionaries). */
  list(): string[] {
    return Array.from({ length: this.count }, (_, id) => this.term(id));
  }

  /** Two terms in Lucene's order (UTF-8 bytes: strings.ts compareUtf8), without making their strings when both are one byte per character. */
  compare(a: number, b: number): number {
    if (this.isWide(a) || this.isWide(b)) return compareUtf8(this.term(a), this.term(b));
    const chars = this.chars;
    let i = this.starts[a];
    let j = this.starts[b];
    const aLong = this.isLong(a);
    const bLong = this.isLong(b);
    const aEnd = aLong ? i + PREFIX : this.starts[a + 1];
    const bEnd = bLong ? j + PREFIX : this.starts[b + 1];
    for (; i < aEnd && j < bEnd; i++, j++) if (chars[i] !== chars[j]) return chars[i] - chars[j];
    if (!aLong && !bLong) return aEnd - i - (bEnd - j);
    // the bytes in memory are the same: a short term that ended there is before a long one (longer
    // than LONG bytes); else the rest decides (latin1 bytes compare as their code points, UTF-8's order)
    if (!aLong && i === aEnd) return -1;
    if (!bLong && j === bEnd) return 1;
    const aBytes = aLong ? this.longBytes(a, COMPARE_A) : chars;
    const bBytes = bLong ? this.longBytes(b, COMPARE_B) : chars;
    const aFrom = aLong ? 0 : this.starts[a];
    const aTo = aLong ? this.longLength(a) : this.starts[a + 1];
    const bFrom = bLong ? 0 : this.starts[b];
    const bTo = bLong ? this.longLength(b) : this.starts[b + 1];
    return aBytes.compare(bBytes, bFrom, bTo, aFrom, aTo);
  }

  private isWide(id: number): boolean {
    return hasBit(this.wide, id);
  }

  get(term: string): number {
    return this.find(term, 0, term.length, false, false);
  }

  intern(term: string): number {
    return this.find(term, 0, term.length, false, true);
  }

  /** The id of text[start, end) (ASCII lower-cased when `fold`), or -1. */
  getSlice(text: string, start: number, end: number, fold: boolean): number {
    return this.find(text, start, end, fold, false);
  }

  /** The id of text[start, end) (ASCII lower-cased when `fold`), added when new. */
  internSlice(text: string, start: number, end: number, fold: boolean): number {
    return this.find(text, start, end, fold, true);
  }

  /** internSlice, given the slice's hash (hashSlice of it). */
  internHashed(text: string, start: number, end: number, fold: boolean, hash: number): number {
    return this.lookup(text, start, end, fold, true, hash);
  }

  private find(text: string, start: number, end: number, fold: boolean, add: boolean): number {
    return this.lookup(text, start, end, fold, add, hashSlice(text, start, end, fold));
  }

  /** Whether the term of `id` is text[start, end) (ASCII lower-cased when `fold`). */
  private same(id: number, text: string, start: number, end: number, fold: boolean): boolean {
    const long = this.isLong(id);
    const length = long ? this.longLength(id) : this.starts[id + 1] - this.starts[id];
    const n = end - start;
    if (length !== (this.isWide(id) ? 2 * n : n)) return false;
    const chars = long ? this.longBytes(id) : this.chars;
    const from = long ? 0 : this.starts[id];
    if (this.isWide(id)) {
      for (let i = 0; i < n; i++) {
        let c = text.charCodeAt(start + i);
        if (fold && c >= 65 && c <= 90) c += 32;
        if (c !== (chars[from + 2 * i] | (chars[from + 2 * i + 1] << 8))) return false;
      }
      return true;
    }
    for (let i = 0; i < n; i++) {
      let c = text.charCodeAt(start + i);
      if (fold && c >= 65 && c <= 90) c += 32;
      if (c !== chars[from + i]) return false;
    }
    return true;
  }

  private lookup(text: string, start: number, end: number, fold: boolean, add: boolean, h: number): number {
    if (this.table.length === 0) {
      if (!add) return -1;
      this.table = new Int32Array(16);
    }
    const table = this.table;
    const mask = table.length - 1;
    const tag = tagOf(h, mask);
    let slot = h & mask;
    for (;;) {
      const entry = table[slot];
      if (entry === 0) break;
      // no hash is kept per term (4 bytes each, as Lucene's BytesRefHash keeps none), but the slot
      // keeps the hash's bits it has room for (hashSlots.ts): a term of the same bits is compared
      // (its length first); a long term's whole hash is in its reference, so that its rest, on
      // disk, is read only for the same hash
      if ((entry & ~mask) === tag) {
        const id = entryId(entry, mask);
        if ((!this.isLong(id) || this.longHash(id) === h) && this.same(id, text, start, end, fold)) return id;
      }
      slot = (slot + 1) & mask;
    }
    if (!add) return -1;
    const id = this.count;
    this.append(text, start, end, fold, h);
    table[slot] = tag | (id + 1);
    if (this.count * 2 > table.length) this.rehash();
    return id;
  }

  /** Adds text[start, end) (ASCII lower-cased when `fold`) as the term of the next id. */
  private append(text: string, start: number, end: number, fold: boolean, hash: number): void {
    const id = this.count;
    const n = end - start;
    let wide = false;
    for (let i = start; i < end; i++) {
      if (text.charCodeAt(i) > 255) {
        wide = true;
        break;
      }
    }
    const length = wide ? 2 * n : n;
    const long = length > LONG;
    const at = this.starts[id];
    const need = at + (long ? PREFIX + REF : length);
    if (need > this.chars.length) {
      // 1.25x: the buffer is most of a large dictionary's memory, its room left over counts
      const chars = allocateBuffer(Math.max(need, 64, Math.floor(this.chars.length * 1.25)));
      this.chars.copy(chars, 0, 0, at);
      this.chars = chars;
    }
    if (long) {
      if (scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, 2 * scratch.length));
      encode(text, start, end, fold, wide, scratch, 0);
      scratch.copy(this.chars, at, 0, PREFIX);
      const tails = (this.tails ??= new ByteChunks(this.spill));
      tails.appendBytes(scratch.subarray(PREFIX, length));
      this.chars.writeUInt32LE(length, at + PREFIX);
      this.chars.writeUInt32LE(tails.lastChunk, at + PREFIX + 4);
      this.chars.writeUInt32LE(tails.lastStart, at + PREFIX + 8);
      this.chars.writeInt32LE(hash, at + PREFIX + 12);
      this.long = withBit(this.long, id);
    } else {
      encode(text, start, end, fold, wide, this.chars, at);
    }
    if (wide) this.wide = withBit(this.wide, id);
    if (id + 2 > this.starts.length) this.starts = grow(this.starts, id + 2);
    this.starts[id + 1] = need;
    this.count = id + 1;
  }

  /** For the index file (persist/): the characters, offsets and table as they are (no rehash when read, no string made), the tails of long terms read on demand. */
  writeState(w: StateWriter): void {
    const n = this.count;
    w.json(n);
    w.array(this.starts, n + 1);
    w.bytes(this.chars.subarray(0, this.starts[n]));
    w.array(this.wide, Math.min(this.wide.length, (n + 7) >> 3));
    w.array(this.long, Math.min(this.long.length, (n + 7) >> 3));
    w.array(this.table);
    w.json(this.tails !== null);
    this.tails?.writeState(w);
  }

  /** Takes the state `writeState` wrote (this dictionary must be new). */
  readState(r: StateReader): void {
    this.count = r.json<number>();
    this.starts = r.int32();
    this.chars = r.bytes();
    this.wide = r.uint8();
    this.long = r.uint8();
    this.table = r.int32();
    if (r.json<boolean>()) {
      this.tails = new ByteChunks(this.spill);
      this.tails.readState(r);
    }
  }

  /** Memory held, in bytes (for diagnostics). */
  bytes(): number {
    return this.chars.length + this.starts.byteLength + this.wide.byteLength + this.long.byteLength + this.table.byteLength + (this.tails?.bytes() ?? 0);
  }

  /** A long term's hash (hashSlice of its text), kept in its reference. */
  private longHash(id: number): number {
    return this.chars.readInt32LE(this.starts[id] + PREFIX + 12);
  }

  /** hashSlice of the term of `id`, from its characters (a long term's from its reference). */
  private hashOf(id: number): number {
    if (this.isLong(id)) return this.longHash(id);
    const chars = this.chars;
    const end = this.starts[id + 1];
    let h = 0x811c9dc5;
    if (this.isWide(id)) for (let i = this.starts[id]; i < end; i += 2) h = Math.imul(h ^ (chars[i] | (chars[i + 1] << 8)), 0x01000193);
    else for (let i = this.starts[id]; i < end; i++) h = Math.imul(h ^ chars[i], 0x01000193);
    return h | 0;
  }

  private rehash(): void {
    const table = allocate(Int32Array, this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.count; id++) {
      const h = this.hashOf(id);
      let slot = h & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = slotEntry(id, h, mask);
    }
    this.table = table;
  }
}

/** text[start, end) (ASCII lower-cased when `fold`) into `out` from `at`: latin1, or UTF-16LE when `wide`. */
function encode(text: string, start: number, end: number, fold: boolean, wide: boolean, out: Buffer, at: number): void {
  const n = end - start;
  if (wide) {
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(start + i);
      out[at + 2 * i] = c & 0xff;
      out[at + 2 * i + 1] = c >> 8;
    }
  } else if (!fold && n > 32 && start === 0 && end === text.length) {
    out.write(text, at, 'latin1');
  } else {
    for (let i = 0; i < n; i++) {
      let c = text.charCodeAt(start + i);
      if (fold && c >= 65 && c <= 90) c += 32;
      out[at + i] = c;
    }
  }
}
