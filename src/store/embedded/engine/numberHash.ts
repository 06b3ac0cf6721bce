/**
 * The dictionary of a numeric field's points: value -> id (ids 0, 1, 2, ... in order of addition)
 * and id -> value, in typed arrays: the values in a Float64Array, open addressing over an
 * Int32Array of slots. A Map of numbers kept an entry of about 40 bytes per distinct value on the
 * JavaScript heap, plus a heap number of 16 bytes for each value that is not a small integer (dates,
 * floats): a field of timestamps has about one distinct value per document. Here a value takes 8
 * bytes and 8 to 16 of table, and an index file gives the values back as they were written.
 *
 * Values compare as a Map compares keys (SameValueZero): -0 and 0 are one value (the first one
 * added is kept), every NaN is one value.
 */
import { EMPTY_FLOAT64, EMPTY_INT32, allocate, grow } from './growable';
import { entryId, slotEntry, tagOf } from './hashSlots';
import type { StateReader, StateWriter } from './persist/state';
import type { Dictionary } from './termPostings';

const BITS = new Float64Array(1);
const WORDS = new Int32Array(BITS.buffer);

function hashOf(value: number): number {
  BITS[0] = value === 0 ? 0 : value !== value ? NaN : value; // -0 as 0, one NaN
  let h = Math.imul(WORDS[0] ^ Math.imul(WORDS[1], 0x9e3779b1), 0x85ebca6b);
  h ^= h >>> 15;
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 13);
}

export class NumberHash implements Dictionary<number> {
  private values = EMPTY_FLOAT64;
  private count = 0;
  /** Slot -> id + 1 and hash bits (hashSlots.ts; 0: empty). */
  private table = EMPTY_INT32;

  get size(): number {
    return this.count;
  }

  term(t: number): number {
    return this.values[t];
  }

  get(value: number): number {
    return this.lookup(value, false);
  }

  intern(value: number): number {
    return this.lookup(value, true);
  }

  private lookup(value: number, add: boolean): number {
    if (this.table.length === 0) {
      if (!add) return -1;
      this.table = new Int32Array(16);
    }
    const table = this.table;
    const mask = table.length - 1;
    const h = hashOf(value);
    const tag = tagOf(h, mask);
    let slot = h & mask;
    for (;;) {
      const entry = table[slot];
      if (entry === 0) break;
      // (the value is read only for an entry of the same hash bits: hashSlots.ts)
      if ((entry & ~mask) === tag) {
        const id = entryId(entry, mask);
        const known = this.values[id];
        if (known === value || (known !== known && value !== value)) return id;
      }
      slot = (slot + 1) & mask;
    }
    if (!add) return -1;
    const id = this.count;
    if (id >= this.values.length) this.values = grow(this.values, id + 1);
    this.values[id] = value;
    this.count = id + 1;
    table[slot] = tag | (id + 1);
    if (this.count * 2 > table.length) this.rehash();
    return id;
  }

  private rehash(): void {
    const table = allocate(Int32Array, this.table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.count; id++) {
      const h = hashOf(this.values[id]);
      let slot = h & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = slotEntry(id, h, mask);
    }
    this.table = table;
  }

  /** For the index file (persist/): the values and the table as they are. */
  writeState(w: StateWriter): void {
    w.array(this.values, this.count);
    w.array(this.table);
  }

  /** Takes the state `writeState` wrote (this dictionary must be new). */
  readState(r: StateReader): void {
    this.values = r.float64();
    this.count = this.values.length;
    this.table = r.int32();
  }

  /** Memory held, in bytes (for diagnostics). */
  bytes(): number {
    return this.values.byteLength + this.table.byteLength;
  }
}
