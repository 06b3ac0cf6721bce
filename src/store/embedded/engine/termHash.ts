/**
 * A string -> id dictionary (ids 0, 1, 2, ... in order of addition) with open addressing over an
 * Int32Array, that can look a term up from a slice of a longer text, lower-casing ASCII on the fly:
 * indexing finds the id of each token without first cutting it out of the text as a new string.
 */
import { EMPTY_INT32, grow } from './growable';
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

function sameSlice(term: string, text: string, start: number, end: number, fold: boolean): boolean {
  if (term.length !== end - start) return false;
  for (let i = 0; i < term.length; i++) {
    let c = text.charCodeAt(start + i);
    if (fold && c >= 65 && c <= 90) c += 32;
    if (c !== term.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * A flat copy of a string: V8 makes slices of 13 characters or more views into the string they
 * come from, which would keep a whole text value alive for one of its tokens.
 */
export function flatCopy(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

export class TermHash {
  /** Id -> term. */
  strings: string[] = [];

  /** @param copyTerms store new terms as flat copies (tokens cut from longer texts) */
  constructor(private readonly copyTerms = false) {}

  private hashes = EMPTY_INT32;
  /** Slot -> id + 1 (0: empty); allocated with the first term. */
  private table = EMPTY_INT32;

  get size(): number {
    return this.strings.length;
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
      if (this.hashes[id] === h && sameSlice(this.strings[id], text, start, end, fold)) return id;
      slot = (slot + 1) & mask;
    }
    if (!add) return -1;
    const id = this.strings.length;
    let term = start === 0 && end === text.length ? text : text.slice(start, end);
    if (fold) term = term.toLowerCase();
    else if (this.copyTerms) term = flatCopy(term);
    this.strings.push(term);
    if (id >= this.hashes.length) this.hashes = grow(this.hashes, id + 1);
    this.hashes[id] = h;
    table[slot] = id + 1;
    if (this.strings.length * 2 > table.length) this.rehash();
    return id;
  }

  /** For the index file (persist/): the terms, their hashes and the table as they are (no rehash when read). */
  writeState(w: StateWriter): void {
    w.strings(this.strings);
    w.array(this.hashes, this.strings.length);
    w.array(this.table);
  }

  /** Takes the state `writeState` wrote (this dictionary must be new: its strings array is replaced). */
  readState(r: StateReader): void {
    this.strings = r.strings();
    this.hashes = r.int32();
    this.table = r.int32();
  }

  private rehash(): void {
    const table = new Int32Array(this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.strings.length; id++) {
      let slot = this.hashes[id] & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.table = table;
  }
}
