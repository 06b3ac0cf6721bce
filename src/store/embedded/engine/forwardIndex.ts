/**
 * Per-document lists of numbers for one field, in compressed-sparse-row form: the entries of all
 * documents in one growable typed array, document d's entries at [starts[d], starts[d + 1]).
 * Documents are added in increasing order (skipped documents have no entries). Used for what Lucene
 * keeps per document: the token stream of a text field (term ids in position order), the sorted
 * term ids of a keyword field (sorted-set doc values), the sorted values of a numeric field.
 *
 * As long as every document from 0 on has exactly one entry (a field every document has one value
 * of: ids, slugs, tenants, types, dates, ranks, one-word texts), document d's entry is entries[d] and
 * there is no `starts` array (`single`): 4 bytes a document less, for most fields of most entities.
 * The first document that breaks the rule (none, or more than one entry, or a document skipped)
 * makes `starts` as it would have been.
 *
 * Term ids (TermIds) are kept as narrow as the largest id written so far needs: one byte each while
 * ids stay below 128 (a field of a few distinct values: types, tenants, flags), two below 32,768 (a
 * text field's vocabulary of a few thousand words), four beyond; the array is widened (copied once)
 * when a larger id comes. GAP and HOLE (-1, -2) fit every width. Readers read `entries[i]` as a
 * number whatever the width.
 *
 * A keyword field whose document d has term d, one each, from document 0 on (a value unique to
 * each entity, first seen with it: an id, a slug, a description kept whole, as a bulk load of new
 * entities writes them) keeps no entries of its own (`identity`): they are a view of the array of
 * 0, 1, 2, ... that postings lists share (termPostings.ts IOTA), 4 bytes a document less; the first
 * entry that breaks the rule, or a write through `room`, copies them into an array of its own.
 */
import { EMPTY_INT32, allocate, grow } from './growable';
import type { StateReader, StateWriter } from './persist/state';
import { iota } from './termPostings';

/** A token stream's or a keyword field's term ids: as narrow as its largest id allows. */
export type TermIds = Int8Array | Int16Array | Int32Array;

/** The largest value an entries array holds. */
function limitOf(entries: TermIds | Float64Array): number {
  if (entries instanceof Int8Array) return 127;
  if (entries instanceof Int16Array) return 32_767;
  return Infinity;
}

export class ForwardIndex<A extends TermIds | Float64Array = Int32Array> {
  private starts = EMPTY_INT32;
  entries: A;
  /** The largest entry `entries` can hold (see TermIds). */
  private limit: number;
  /** Documents covered: starts[0..docs] are valid. */
  private docs = 0;
  private end = 0;
  /**
   * Every document before the last one begun has exactly one entry (entries[doc]), and the last one
   * has at most one: `starts` is not kept (see above).
   */
  private single = true;
  /** `entries` is a view of IOTA: entries[d] = d for every document (term ids only; see above). */
  private identity: boolean;

  constructor(entries: A) {
    this.entries = entries;
    this.limit = limitOf(entries);
    this.identity = !(entries instanceof Float64Array);
  }

  /** Leaves the `identity` form: the entries written so far copied into an array of their own, as narrow as they allow. */
  private ownEntries(): void {
    this.identity = false;
    const n = this.end;
    const capacity = Math.max(16, 2 * n);
    const own = n <= 128 ? allocate(Int8Array, capacity) : n <= 32_768 ? allocate(Int16Array, capacity) : allocate(Int32Array, capacity);
    own.set(this.entries.subarray(0, n));
    this.entries = own as A;
    this.limit = limitOf(own);
  }

  /**
   * Make `entries` wide enough for `max` (term ids: Int8Array, then Int16Array, then Int32Array).
   * Writers through `room` call it first with the largest entry they may write.
   */
  fit(max: number): void {
    if (this.identity) this.ownEntries();
    if (max <= this.limit) return;
    const from = this.entries as TermIds;
    const wider = max <= 32_767 ? allocate(Int16Array, from.length) : allocate(Int32Array, from.length);
    wider.set(from.subarray(0, this.end));
    this.entries = wider as A;
    this.limit = limitOf(wider);
  }

  /** Start the entries of `doc` (greater than every document begun before). */
  begin(doc: number): void {
    if (doc < this.docs) throw new Error(`ForwardIndex: document ${doc} added out of order`);
    if (this.single) {
      if (doc === this.docs && this.end === doc) {
        this.docs = doc + 1;
        return;
      }
      this.makeStarts();
    }
    this.starts = grow(this.starts, doc + 2);
    for (let d = this.docs + 1; d <= doc + 1; d++) this.starts[d] = this.end;
    this.docs = doc + 1;
  }

  /** Append an entry to the document begun last. */
  push(value: number): void {
    if (this.identity) {
      if (value === this.end && this.single && this.end === this.docs - 1) {
        this.entries = iota(this.end + 1) as A;
        this.end++;
        return;
      }
      this.ownEntries();
    }
    if (value > this.limit) this.fit(value);
    if (this.single && this.end === this.docs) this.makeStarts(); // (a second entry)
    if (this.end === this.entries.length) this.entries = grow(this.entries, this.end + 1);
    this.entries[this.end++] = value;
    if (!this.single) this.starts[this.docs] = this.end;
  }

  /** Leaves the one-entry form: `starts` as it would have been (entries before `end` one a document). */
  private makeStarts(): void {
    this.single = false;
    const starts = allocate(Int32Array, Math.max(16, this.docs + 2));
    for (let d = 0; d < this.docs; d++) starts[d] = d;
    starts[this.docs] = this.end;
    this.starts = starts;
  }

  /** Documents covered (one past the last begun). */
  get size(): number {
    return this.docs;
  }

  /** Bulk append: room for `n` more entries of the document begun last; write them from `length`, then `commit` (entries above the width: `fit` first). */
  room(n: number): A {
    if (this.identity) this.ownEntries();
    if (this.end + n > this.entries.length) this.entries = grow(this.entries, this.end + n);
    return this.entries;
  }

  /** Entries written so far (all documents). */
  get length(): number {
    return this.end;
  }

  commit(length: number): void {
    if (this.single && length > this.docs) this.makeStarts(); // (more than one entry)
    this.end = length;
    if (!this.single) this.starts[this.docs] = length;
  }

  from(doc: number): number {
    if (doc >= this.docs) return 0;
    return this.single ? doc : this.starts[doc];
  }

  to(doc: number): number {
    if (doc >= this.docs) return 0;
    return this.single ? Math.min(doc + 1, this.end) : this.starts[doc + 1];
  }

  /**
   * Adds 1 to `counts[entry]` for every entry of each document docs[at..end) (a keyword field's
   * term ids: a terms aggregation's counts); returns how many of those documents have no entry.
   * One loop over the arrays, for the aggregations that read every match.
   */
  countEntries(docs: Int32Array, at: number, end: number, counts: Int32Array): number {
    const starts = this.starts;
    const entries = this.entries;
    const covered = this.docs;
    let missing = 0;
    if (this.single) {
      const filled = this.end;
      for (let i = at; i < end; i++) {
        const doc = docs[i];
        if (doc < filled) counts[entries[doc]]++;
        else missing++;
      }
      return missing;
    }
    for (let i = at; i < end; i++) {
      const doc = docs[i];
      if (doc >= covered) {
        missing++;
        continue;
      }
      const to = starts[doc + 1];
      let j = starts[doc];
      if (j === to) missing++;
      for (; j < to; j++) counts[entries[j]]++;
    }
    return missing;
  }

  count(doc: number): number {
    return this.to(doc) - this.from(doc);
  }

  /** A copy of one document's entries. */
  list(doc: number): number[] {
    const out: number[] = [];
    for (let i = this.from(doc), end = this.to(doc); i < end; i++) out.push(this.entries[i]);
    return out;
  }

  /** For the index file (persist/). */
  writeState(w: StateWriter): void {
    w.json([this.docs, this.end, this.single]);
    w.array(this.starts, this.single || this.docs === 0 ? 0 : this.docs + 1);
    w.array(this.entries, this.end);
  }

  /** Takes the state `writeState` wrote. */
  readState(r: StateReader): void {
    [this.docs, this.end, this.single] = r.json<[number, number, boolean]>();
    this.starts = r.int32();
    const values = this.entries instanceof Float64Array;
    this.entries = (values ? r.float64() : r.termIds()) as A;
    this.limit = limitOf(this.entries);
    // (a field whose document d had term d keeps no entries again, see above)
    const entries = this.entries;
    let identity = !values && this.single && this.end === this.docs;
    for (let i = 0; i < this.end && identity; i++) identity = entries[i] === i;
    this.identity = identity;
    if (identity) this.entries = iota(this.end) as A;
  }

  bytes(): number {
    // (IOTA is shared: not counted)
    return this.starts.byteLength + (this.identity ? 0 : this.entries.byteLength);
  }
}
