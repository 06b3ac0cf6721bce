/**
 * A string -> id dictionary (ids 0, 1, 2, ... in order of addition) with open addressing over an
 * Int32Array, that can look a term up from a slice of a longer text, lower-casing ASCII on the fly:
 * indexing finds the id of each token without first cutting it out of the text as a new string.
 */
import { EMPTY_INT32, EMPTY_UINT8, grow } from './growable';
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

/**
 * The dictionary keeps no JavaScript string per term: the terms' characters are end to end in one
 * byte buffer (`chars`: one byte per character, or two, UTF-16LE, for a term with a code unit above
 * 255), found through their start offsets (`starts`, one Int32 per term). A million unique keyword
 * values (ids, slugs, names) took a string each on the JavaScript heap (16 to 24 bytes of header
 * and a pointer besides their characters, and work for every garbage collection); here they take
 * their characters and 4 bytes, out of the heap, and are written to and read from the index file
 * as they are (no string made when an index file is read). `term(id)` makes the string when asked.
 */
export class TermHash {
  private chars: Buffer = EMPTY_CHARS;
  /** Id -> start of its characters in `chars`; starts[size] is where the next term goes. */
  private starts = Int32Array.of(0);
  /** A bit per id: its characters are two bytes each. */
  private wide = EMPTY_UINT8;
  private count = 0;
  private hashes = EMPTY_INT32;
  /** Slot -> id + 1 (0: empty); allocated with the first term. */
  private table = EMPTY_INT32;

  get size(): number {
    return this.count;
  }

  /** The term of an id (a new string). */
  term(id: number): string {
    return this.chars.toString(this.isWide(id) ? 'utf16le' : 'latin1', this.starts[id], this.starts[id + 1]);
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
    const aEnd = this.starts[a + 1];
    const bEnd = this.starts[b + 1];
    for (; i < aEnd && j < bEnd; i++, j++) if (chars[i] !== chars[j]) return chars[i] - chars[j];
    return aEnd - i - (bEnd - j);
  }

  private isWide(id: number): boolean {
    return (this.wide[id >> 3] & (1 << (id & 7))) !== 0;
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
    const chars = this.chars;
    const from = this.starts[id];
    const n = end - start;
    if (this.isWide(id)) {
      if (this.starts[id + 1] - from !== 2 * n) return false;
      for (let i = 0; i < n; i++) {
        let c = text.charCodeAt(start + i);
        if (fold && c >= 65 && c <= 90) c += 32;
        if (c !== (chars[from + 2 * i] | (chars[from + 2 * i + 1] << 8))) return false;
      }
      return true;
    }
    if (this.starts[id + 1] - from !== n) return false;
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
    let slot = h & mask;
    for (;;) {
      const entry = table[slot];
      if (entry === 0) break;
      const id = entry - 1;
      if (this.hashes[id] === h && this.same(id, text, start, end, fold)) return id;
      slot = (slot + 1) & mask;
    }
    if (!add) return -1;
    const id = this.count;
    this.append(text, start, end, fold);
    if (id >= this.hashes.length) this.hashes = grow(this.hashes, id + 1);
    this.hashes[id] = h;
    table[slot] = id + 1;
    if (this.count * 2 > table.length) this.rehash();
    return id;
  }

  /** Adds text[start, end) (ASCII lower-cased when `fold`) as the term of the next id. */
  private append(text: string, start: number, end: number, fold: boolean): void {
    const id = this.count;
    const n = end - start;
    let wide = false;
    for (let i = start; i < end; i++) {
      if (text.charCodeAt(i) > 255) {
        wide = true;
        break;
      }
    }
    const at = this.starts[id];
    const need = at + (wide ? 2 * n : n);
    if (need > this.chars.length) {
      // 1.25x: the buffer is most of a large dictionary's memory, its room left over counts
      const chars = Buffer.allocUnsafeSlow(Math.max(need, 64, Math.floor(this.chars.length * 1.25)));
      this.chars.copy(chars, 0, 0, at);
      this.chars = chars;
    }
    const chars = this.chars;
    if (wide) {
      for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(start + i);
        chars[at + 2 * i] = c & 0xff;
        chars[at + 2 * i + 1] = c >> 8;
      }
      if (id >> 3 >= this.wide.length) this.wide = grow(this.wide, (id >> 3) + 1);
      this.wide[id >> 3] |= 1 << (id & 7);
    } else if (!fold && n > 32 && start === 0 && end === text.length) {
      chars.write(text, at, "latin1");
    } else {
      for (let i = 0; i < n; i++) {
        let c = text.charCodeAt(start + i);
        if (fold && c >= 65 && c <= 90) c += 32;
        chars[at + i] = c;
      }
    }
    if (id + 2 > this.starts.length) this.starts = grow(this.starts, id + 2);
    this.starts[id + 1] = need;
    this.count = id + 1;
  }

  /** For the index file (persist/): the characters, offsets, hashes and table as they are (no rehash when read, no string made). */
  writeState(w: StateWriter): void {
    const n = this.count;
    w.json(n);
    w.array(this.starts, n + 1);
    w.bytes(this.chars.subarray(0, this.starts[n]));
    w.array(this.wide, Math.min(this.wide.length, (n + 7) >> 3));
    w.array(this.hashes, n);
    w.array(this.table);
  }

  /** Takes the state `writeState` wrote (this dictionary must be new). */
  readState(r: StateReader): void {
    this.count = r.json<number>();
    this.starts = r.int32();
    this.chars = r.bytes();
    this.wide = r.uint8();
    this.hashes = r.int32();
    this.table = r.int32();
  }

  /** Memory held, in bytes (for diagnostics). */
  bytes(): number {
    return this.chars.length + this.starts.byteLength + this.wide.byteLength + this.hashes.byteLength + this.table.byteLength;
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = this.hashes[id] & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.table = table;
  }
}
