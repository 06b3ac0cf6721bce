/**
 * Sets of document numbers as bits in a Uint32Array (bit i of word i >>> 5). The free functions
 * work on raw word arrays of any length (bits past the end are 0); `Bitset` is a growable set that
 * keeps its count, used for live documents and for the documents holding a field.
 */
import { grow } from './growable';
import type { StateReader, StateWriter } from './persist/state';

const EMPTY_UINT32 = new Uint32Array(0);

/** Number of set bits of a 32-bit word. */
export function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

export function hasBit(words: Uint32Array, i: number): boolean {
  const w = i >>> 5;
  return w < words.length && (words[w] & (1 << (i & 31))) !== 0;
}

export function countBits(words: Uint32Array, nwords = words.length): number {
  let count = 0;
  for (let w = 0; w < nwords; w++) if (words[w] !== 0) count += popcount(words[w]);
  return count;
}

/** Words needed for `bits` bits. */
export function wordsFor(bits: number): number {
  return (bits + 31) >>> 5;
}

/** The set bits in ascending order, written into `out` from index 0; returns how many. */
export function bitsToDocs(words: Uint32Array, out: Int32Array): number {
  let n = 0;
  for (let w = 0; w < words.length; w++) {
    let word = words[w];
    while (word !== 0) {
      const t = word & -word;
      out[n++] = (w << 5) + 31 - Math.clz32(t);
      word ^= t;
    }
  }
  return n;
}

/** The first set bit at or after `from`, or -1. */
export function nextSetBit(words: Uint32Array, from: number): number {
  let w = from >>> 5;
  if (w >= words.length) return -1;
  let word = words[w] & (0xffffffff << (from & 31));
  for (;;) {
    if (word !== 0) return (w << 5) + 31 - Math.clz32(word & -word);
    if (++w >= words.length) return -1;
    word = words[w];
  }
}

export class Bitset {
  words: Uint32Array;
  /** Number of set bits. */
  size = 0;

  /** @param capacity bits to allocate now (0: none until the first add) */
  constructor(capacity = 64) {
    this.words = capacity === 0 ? EMPTY_UINT32 : new Uint32Array(wordsFor(capacity));
  }

  has(i: number): boolean {
    return hasBit(this.words, i);
  }

  add(i: number): void {
    const w = i >>> 5;
    if (w >= this.words.length) this.words = grow(this.words, w + 1);
    const mask = 1 << (i & 31);
    if ((this.words[w] & mask) === 0) {
      this.words[w] |= mask;
      this.size++;
    }
  }

  delete(i: number): boolean {
    const w = i >>> 5;
    if (w >= this.words.length) return false;
    const mask = 1 << (i & 31);
    if ((this.words[w] & mask) === 0) return false;
    this.words[w] &= ~mask;
    this.size--;
    return true;
  }

  /** For the index file (persist/). */
  writeState(w: StateWriter): void {
    w.json(this.size);
    w.array(this.words);
  }

  /** Takes the state `writeState` wrote (replacing this set's). */
  readState(r: StateReader): void {
    this.size = r.json<number>();
    this.words = r.uint32();
  }

  *[Symbol.iterator](): IterableIterator<number> {
    for (let i = nextSetBit(this.words, 0); i !== -1; i = nextSetBit(this.words, i + 1)) yield i;
  }
}
