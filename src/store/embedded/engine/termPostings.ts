/**
 * The terms of one field (strings, or numbers for the points of numeric fields) and their postings (document numbers in ascending order, with the term
 * frequency in each document for fields indexed with frequencies), in typed arrays:
 *
 * - a term dictionary (termHash.ts; numeric points: a Map): term -> term id and term id -> term;
 * - per term: live document frequency, number of stored postings, and where they are;
 * - small posting lists live in one shared arena (an Int32Array for documents, a Uint8Array for
 *   frequencies): each term owns a segment there, moved to the end of the arena with twice the room
 *   when full (the old segment becomes garbage, reclaimed when the arena grows); lists longer than
 *   BIG_LIST get their own arrays, grown by doubling.
 *
 * Postings are appended in increasing document order (documents are numbered in index order).
 * Removing a document leaves its postings in place (a tombstone: readers skip documents that are
 * no longer live) and only decrements the live document frequencies, so that statistics stay
 * exact; a compaction (searchIndex.ts) builds a new index of the live documents only.
 *
 * Frequencies above 254 are stored as 255 with the exact value on the side (a term 255 times in one
 * document is rare: one byte a posting instead of two for every other).
 *
 * A long list that is every document from 0 on, each once (a term every document has: the entity
 * type, the tenants `["*"]`, an author every entity of a bulk load shares) is a view of one array
 * shared by all such lists, IOTA (IOTA[i] = i), and its frequencies of ONES (all 1), as Lucene
 * codes a dense block of postings in a few bits: a dozen such fields took 4 or 5 bytes a document
 * each. Nothing is written into the shared arrays but the value they hold already: the first posting
 * that breaks the run (a document without the term before it, a frequency above 1) gives the list
 * its own arrays, copied from the view. Readers see an ordinary Int32Array either way.
 *
 * A term of one posting (an id, a slug, a name kept whole as a keyword: most terms of an index)
 * keeps it in the same arrays: document d is IOTA[d] (its frequency ONES[d]), so the term's
 * `docsArray` is IOTA from `docsStart` d, one long, and it takes no room in the arena, as Lucene's
 * block tree keeps a term of one document in its dictionary entry (Lucene84PostingsWriter's
 * singletonDocID) instead of writing it a postings block. Such a term is `cap` 0 and `at` its
 * document; a second posting or a frequency above 1 moves it into the arena. 4 bytes a unique
 * value, and none of the arena's room grown ahead of need.
 */
import type { TermIds } from './forwardIndex';
import { EMPTY_INT32, EMPTY_INT8, EMPTY_UINT16, EMPTY_UINT8, allocate, grow } from './growable';
import { StateError, joinedPieces, type StateReader, type StateWriter } from './persist/state';

const BIG_LIST = 256;
const FREQ_OVERFLOW = 255;

/** IOTA[i] = i and ONES[i] = 1, at least `n` long (grown by doubling; views of older ones stay valid). */
let IOTA = EMPTY_INT32;
let ONES = EMPTY_UINT8;
/** IOTA, at least `n` long (shared with forwardIndex.ts: a keyword field whose document d has term d). */
export function iota(n: number): Int32Array {
  if (IOTA.length < n) {
    const next = grow(IOTA, n);
    for (let i = IOTA.length; i < next.length; i++) next[i] = i;
    IOTA = next;
  }
  return IOTA;
}
function ones(n: number): Uint8Array {
  if (ONES.length < n) ONES = grow(ONES, n).fill(1);
  return ONES;
}

/** Term <-> id (ids 0, 1, 2, ... in order of addition). */
export interface Dictionary<K> {
  /** Id -> term. */
  term(t: number): K;
  readonly size: number;
  /** The id of a term, or -1. */
  get(term: K): number;
  /** The id of a term, added when new. */
  intern(term: K): number;
}

/**
 * Per-term counts (`df`, `len`) as narrow as the largest count so far needs: one byte each while
 * every term has fewer than 128 postings (a field of ids, slugs, whole names: most of an index's
 * terms, one posting each), two below 32,768, four beyond; widened (copied once) when a count
 * passes the limit, as forwardIndex.ts widens term ids. Readers read `df[t]` as a number whatever
 * the width.
 */
export type Counts = TermIds;

const COUNT_LIMIT = { 1: 127, 2: 32_767, 4: 2 ** 31 - 1 } as const;

export class TermPostings<K extends string | number = string> {
  /** Live documents having the term (see Counts). */
  df: Counts = EMPTY_INT8;
  /** Stored postings, live or not (see Counts; never below `df`, so that its width is enough for both). */
  len: Counts = EMPTY_INT8;
  /** The largest count `df` and `len` can hold. */
  private countLimit: number = COUNT_LIMIT[1];
  /** Largest frequency ever stored (an upper bound for scores); fields with frequencies only (empty otherwise). */
  maxFreq = EMPTY_INT32;
  /**
   * Per term, where its postings are: >= 0, their start in the arena (or, `cap` 0 with a posting:
   * a term of one posting, its document, read from IOTA at that place); < 0, -(1 + the number of its
   * long list in bigDocs and bigFreqs). One array for both (a term is in one or the other) and no
   * JavaScript array of a slot per term: most terms of an index are terms of one posting (ids, slugs,
   * long keyword values), for which every byte per term counts.
   */
  private at = EMPTY_INT32;
  /** Per term in the arena: the room of its segment (at most BIG_LIST); 0 for a term of one posting (see `at`). */
  private cap = EMPTY_UINT16;
  private readonly bigDocs: Int32Array[] = [];
  private readonly bigFreqs: Uint8Array[] = [];
  /** Per long list: a view of IOTA (and ONES), see above. */
  private readonly bigShared: boolean[] = [];
  /** Terms given room (ensure). */
  private terms = 0;
  private pool = EMPTY_INT32;
  private freqPool: Uint8Array | null;
  private poolEnd = 0;
  private garbage = 0;
  private readonly overflow = new Map<string, number>();
  /** 1 + the largest document of a term of one posting kept in IOTA (IOTA must reach it). */
  private singleEnd = 0;

  constructor(
    readonly withFreqs: boolean,
    readonly dict: Dictionary<K>,
  ) {
    this.freqPool = withFreqs ? EMPTY_UINT8 : null;
  }

  /** Id -> term. */
  term(t: number): K {
    return this.dict.term(t);
  }

  get size(): number {
    return this.dict.size;
  }

  /** The id of a term, or -1 when the field never had it. */
  id(term: K): number {
    return this.dict.get(term);
  }

  /** The id of a term, added to the dictionary when new. */
  intern(term: K): number {
    const t = this.dict.intern(term);
    if (t >= this.terms) this.ensure(t);
    return t;
  }

  /** Make room for the postings of term id `t` (after adding it to the dictionary directly). */
  ensure(t: number): void {
    if (t < this.terms) return;
    if (t >= this.df.length) {
      const n = t + 1;
      this.df = grow(this.df, n);
      this.len = grow(this.len, n);
      if (this.withFreqs) this.maxFreq = grow(this.maxFreq, n);
      this.at = grow(this.at, n);
      this.cap = grow(this.cap, n);
    }
    this.terms = t + 1;
  }

  /**
   * Record one occurrence of term `t` in document `doc` (not lower than any document already added).
   * Returns true when it is the term's first occurrence in the document (a new posting).
   */
  add(t: number, doc: number): boolean {
    const len = this.len[t];
    if (len > 0) {
      const last = this.slotOf(t, len - 1);
      if (this.docsArray(t)[last] === doc) {
        if (this.withFreqs) this.bumpFreq(t, doc);
        return false;
      }
    }
    this.reserve(t, 1);
    this.push(t, doc);
    return true;
  }

  /** Make room for `extra` more postings of term `t` (then `push` them). */
  reserve(t: number, extra: number): void {
    const need = this.len[t] + extra;
    const at = this.at[t];
    if (at < 0) {
      const b = -1 - at;
      const big = this.bigDocs[b];
      if (need > big.length) {
        const length = Math.max(need, big.length + (big.length >> 1));
        if (this.bigShared[b]) {
          this.bigDocs[b] = iota(length).subarray(0, length);
          if (this.withFreqs) this.bigFreqs[b] = ones(length).subarray(0, length);
          return;
        }
        this.bigDocs[b] = resized(big, length, this.len[t]);
        if (this.withFreqs) this.bigFreqs[b] = resized(this.bigFreqs[b], length, this.len[t]);
      }
      return;
    }
    if (need > this.cap[t] && !(need === 1 && this.len[t] === 0)) this.makeRoom(t, need);
  }

  /** Whether term `t` is a term of one posting kept in IOTA (see above). */
  private single(t: number): boolean {
    return this.cap[t] === 0 && this.at[t] >= 0 && this.len[t] > 0;
  }

  /** Append a posting (room reserved). */
  push(t: number, doc: number): void {
    const len = this.len[t];
    const at = this.at[t];
    if (len === this.countLimit) this.widenCounts();
    if (len === 0 && at >= 0 && this.cap[t] === 0) {
      // a new term's first posting: IOTA[doc]
      iota(doc + 1);
      if (doc >= this.singleEnd) this.singleEnd = doc + 1;
      this.at[t] = doc;
      if (this.withFreqs) {
        ones(doc + 1);
        if (this.maxFreq[t] === 0) this.maxFreq[t] = 1;
      }
      this.len[t] = 1;
      this.df[t]++;
      return;
    }
    if (at < 0 && doc !== len && this.bigShared[-1 - at]) this.unshare(-1 - at, len);
    const slot = this.slotOf(t, len);
    this.docsArray(t)[slot] = doc;
    if (this.withFreqs) {
      this.freqsArray(t)[slot] = 1;
      if (this.maxFreq[t] === 0) this.maxFreq[t] = 1;
    }
    this.len[t] = len + 1;
    this.df[t]++;
  }

  /** `df` and `len` one width wider (a count reached the limit of theirs). */
  private widenCounts(): void {
    const wider = (counts: Counts): Counts => {
      const out = this.countLimit === COUNT_LIMIT[1] ? allocate(Int16Array, counts.length) : allocate(Int32Array, counts.length);
      out.set(counts);
      return out;
    };
    this.df = wider(this.df);
    this.len = wider(this.len);
    this.countLimit = COUNT_LIMIT[this.len.BYTES_PER_ELEMENT as 2 | 4];
  }

  /** One more occurrence of term `t` in document `doc`, its last posting. */
  bumpFreq(t: number, doc: number): void {
    // a term of one posting in IOTA gets a segment of its own: ONES holds 1s only
    if (this.single(t)) this.makeRoom(t, 1);
    const slot = this.slotOf(t, this.len[t] - 1);
    const at = this.at[t];
    if (at < 0 && this.bigShared[-1 - at]) this.unshare(-1 - at, this.len[t]);
    const freqs = this.freqsArray(t);
    let freq: number;
    if (freqs[slot] < FREQ_OVERFLOW - 1) {
      freq = ++freqs[slot];
    } else {
      const key = `${t}:${doc}`;
      freq = (this.overflow.get(key) ?? freqs[slot]) + 1;
      freqs[slot] = FREQ_OVERFLOW;
      this.overflow.set(key, freq);
    }
    if (freq > this.maxFreq[t]) this.maxFreq[t] = freq;
  }

  /** Long list `b` (a view of IOTA and ONES, `len` postings) gets arrays of its own. */
  private unshare(b: number, len: number): void {
    this.bigDocs[b] = resized(this.bigDocs[b], this.bigDocs[b].length, len);
    if (this.withFreqs) this.bigFreqs[b] = resized(this.bigFreqs[b], this.bigFreqs[b].length, len);
    this.bigShared[b] = false;
  }

  /** Whether the `len` postings from `start` of the arena are documents 0, 1, 2, ... each once. */
  private isRun(start: number, len: number): boolean {
    const pool = this.pool;
    for (let i = 0; i < len; i++) if (pool[start + i] !== i) return false;
    const freqs = this.freqPool;
    if (freqs !== null) for (let i = 0; i < len; i++) if (freqs[start + i] !== 1) return false;
    return true;
  }

  private slotOf(t: number, i: number): number {
    const at = this.at[t];
    return at >= 0 ? at + i : i;
  }

  /** The array holding the frequencies of term `t` (fields with frequencies). */
  private freqsArray(t: number): Uint8Array {
    const at = this.at[t];
    return at >= 0 ? (this.cap[t] === 0 ? ONES : (this.freqPool as Uint8Array)) : this.bigFreqs[-1 - at];
  }

  /** Exact frequency of term `t` in document `doc` when the stored value is 255. */
  overflowFreq(t: number, doc: number): number {
    return this.overflow.get(`${t}:${doc}`) ?? FREQ_OVERFLOW;
  }

  /** Room for `need` postings of a small term: a larger segment at the end of the arena, or its own arrays. */
  private makeRoom(t: number, need: number): void {
    if (this.single(t)) {
      this.unsingle(t, need);
      return;
    }
    const len = this.len[t];
    const cap = this.cap[t];
    const start = this.at[t];
    const newCap = Math.max(need, cap === 0 ? 1 : cap * 2);
    if (newCap > BIG_LIST) {
      this.toLongList(t, newCap, this.isRun(start, len), this.pool.subarray(start, start + len), this.freqPool?.subarray(start, start + len) ?? null);
      this.garbage += cap;
      this.cap[t] = 0;
      return;
    }
    if (len > 0 && start + cap === this.poolEnd && this.poolEnd + newCap - cap <= this.pool.length) {
      // the segment ends the arena: extend it in place
      this.poolEnd += newCap - cap;
      this.cap[t] = newCap;
      return;
    }
    this.makeSpace(newCap);
    const at = this.poolEnd;
    const from = this.at[t]; // (moved if the arena was repacked)
    this.pool.copyWithin(at, from, from + len);
    if (this.freqPool !== null) this.freqPool.copyWithin(at, from, from + len);
    this.garbage += cap;
    this.at[t] = at;
    this.cap[t] = newCap;
    this.poolEnd += newCap;
  }

  /**
   * Term `t`, whose postings are `docs` and `freqs`, becomes a long list of room `cap`: a view of the
   * shared arrays when they are a run (`shared`: documents 0, 1, ... each once), else arrays of its own.
   */
  private toLongList(t: number, cap: number, shared: boolean, docs: Int32Array, freqs: Uint8Array | null): void {
    this.bigShared.push(shared);
    if (shared) {
      this.bigDocs.push(iota(cap).subarray(0, cap));
      if (freqs !== null) this.bigFreqs.push(ones(cap).subarray(0, cap));
    } else {
      this.bigDocs.push(resized(docs, cap, docs.length));
      if (freqs !== null) this.bigFreqs.push(resized(freqs, cap, freqs.length));
    }
    this.at[t] = -this.bigDocs.length;
  }

  /** A term of one posting in IOTA gets room for `need` postings, the first its document: in the arena, or arrays of its own. */
  private unsingle(t: number, need: number): void {
    const doc = this.at[t];
    if (need > BIG_LIST) {
      // its one posting at document 0 (frequency 1) begins the run of a term every document has: a
      // view of the shared arrays, as makeRoom gives a run (one entity, a search, then a bulk load)
      this.toLongList(t, need, doc === 0, IOTA.subarray(doc, doc + 1), this.freqPool === null ? null : ONES.subarray(doc, doc + 1));
      return;
    }
    this.makeSpace(need);
    const at = this.poolEnd;
    this.pool[at] = doc;
    if (this.freqPool !== null) this.freqPool[at] = 1;
    this.at[t] = at;
    this.cap[t] = need;
    this.poolEnd += need;
  }

  /** Make room for `n` more slots at the end of the arena, reclaiming garbage when it is most of it. */
  private makeSpace(n: number): void {
    if (this.poolEnd + n <= this.pool.length) return;
    if (this.garbage > this.poolEnd / 2) this.repack(this.poolEnd - this.garbage + n);
    if (this.poolEnd + n > this.pool.length) {
      this.pool = grow(this.pool, this.poolEnd + n);
      if (this.freqPool !== null) this.freqPool = grow(this.freqPool, this.pool.length);
    }
  }

  /** Copy every small segment, in term order, to fresh arrays without garbage. */
  private repack(minLength: number): void {
    let size = 1024;
    while (size < minLength * 1.5) size *= 2;
    const pool = allocate(Int32Array, size);
    const freqPool = this.freqPool === null ? null : allocate(Uint8Array, size);
    let end = 0;
    for (let t = 0; t < this.terms; t++) {
      const s = this.at[t];
      if (s < 0 || this.cap[t] === 0) continue;
      pool.set(this.pool.subarray(s, s + this.len[t]), end);
      if (freqPool !== null) freqPool.set((this.freqPool as Uint8Array).subarray(s, s + this.len[t]), end);
      this.at[t] = end;
      end += this.cap[t];
    }
    this.pool = pool;
    this.freqPool = freqPool;
    this.poolEnd = end;
    this.garbage = 0;
  }

  /** A document no longer has term `t` (its posting stays, as a tombstone). */
  removeOne(t: number): void {
    this.df[t]--;
  }

  /**
   * The same without a view (a loop over thousands of small lists spent most of its time making
   * views): the array holding them, from `docsStart(t)`, `len[t]` of them.
   */
  docsArray(t: number): Int32Array {
    const at = this.at[t];
    return at >= 0 ? (this.cap[t] === 0 ? IOTA : this.pool) : this.bigDocs[-1 - at];
  }

  docsStart(t: number): number {
    return this.slotOf(t, 0);
  }

  /** The stored postings of a term (documents ascending; some may be dead). A view: valid until the next write. */
  docs(t: number): Int32Array {
    const at = this.at[t];
    if (at < 0) return this.bigDocs[-1 - at].subarray(0, this.len[t]);
    return this.docsArray(t).subarray(at, at + this.len[t]);
  }

  /** Frequencies parallel to `docs(t)` (255: look up `overflowFreq`). Fields without frequencies: null. */
  freqs(t: number): Uint8Array | null {
    if (!this.withFreqs) return null;
    const at = this.at[t];
    if (at < 0) return this.bigFreqs[-1 - at].subarray(0, this.len[t]);
    return this.freqsArray(t).subarray(at, at + this.len[t]);
  }

  /**
   * For the index file (persist/): the per-term arrays, the arena up to its end, and the long
   * lists end to end (each as long as its postings: the next one added to it makes room anew).
   * The dictionary is written by its owner.
   */
  writeState(w: StateWriter): void {
    const n = this.terms;
    w.json([n, this.poolEnd, this.garbage, [...this.overflow], this.singleEnd]);
    w.array(this.df, n);
    w.array(this.len, n);
    if (this.withFreqs) w.array(this.maxFreq, n);
    w.array(this.at, n);
    w.array(this.cap, n);
    w.array(this.pool, this.poolEnd);
    if (this.freqPool !== null) w.array(this.freqPool, this.poolEnd);
    // long lists, in the order of their numbers (at = -(1 + number)), end to end; their lengths are
    // found when written (a look at every term: at capture, all fields' looks added up to tens of ms);
    // those that are views of IOTA and ONES by their length alone
    const { at, len, bigDocs, bigFreqs } = this;
    const shared = Uint8Array.from(this.bigShared, Number);
    let found: Int32Array | null = null;
    const lens = (): Int32Array => {
      if (found !== null) return found;
      found = new Int32Array(bigDocs.length);
      for (let t = 0; t < n; t++) if (at[t] < 0) found[-1 - at[t]] = len[t];
      return found;
    };
    let owned: Int32Array | null = null;
    const own = (): Int32Array => (owned ??= lens().map((length, b) => (shared[b] === 1 ? 0 : length)));
    w.int32Made(lens);
    w.array(shared);
    // (in pieces: the lists of a million documents are a hundred megabytes)
    w.bytes(() => joinedPieces(bigDocs, own()));
    if (this.withFreqs) w.bytes(() => joinedPieces(bigFreqs, own()));
  }

  /** Takes the state `writeState` wrote (its dictionary read by the owner). */
  readState(r: StateReader): void {
    const [n, poolEnd, garbage, overflow, singleEnd] = r.json<[number, number, number, [string, number][], number]>();
    this.poolEnd = poolEnd;
    this.singleEnd = singleEnd;
    iota(singleEnd);
    if (this.withFreqs) ones(singleEnd);
    this.garbage = garbage;
    for (const [key, freq] of overflow) this.overflow.set(key, freq);
    this.df = r.termIds();
    this.len = r.termIds();
    this.countLimit = COUNT_LIMIT[this.len.BYTES_PER_ELEMENT as 1 | 2 | 4];
    if (this.df.BYTES_PER_ELEMENT !== this.len.BYTES_PER_ELEMENT) throw new StateError('index file: term counts of two widths');
    if (this.withFreqs) this.maxFreq = r.int32();
    this.at = r.int32();
    this.cap = r.uint16();
    this.pool = r.int32();
    if (this.withFreqs) this.freqPool = r.uint8();
    const lens = r.int32();
    const shared = r.uint8();
    const docs = r.bytes();
    const freqs = this.withFreqs ? r.bytes() : null;
    this.terms = n;
    this.bigDocs.length = 0;
    this.bigFreqs.length = 0;
    this.bigShared.length = 0;
    let at = 0;
    for (let b = 0; b < lens.length; b++) {
      const len = lens[b];
      this.bigShared.push(shared[b] === 1);
      if (shared[b] === 1) {
        this.bigDocs.push(iota(len).subarray(0, len));
        if (freqs !== null) this.bigFreqs.push(ones(len).subarray(0, len));
        continue;
      }
      this.bigDocs.push(new Int32Array(docs.buffer, docs.byteOffset + 4 * at, len));
      if (freqs !== null) this.bigFreqs.push(new Uint8Array(freqs.buffer, freqs.byteOffset + at, len));
      at += len;
    }
  }

  /** Memory held by the typed arrays, in bytes (for diagnostics). */
  bytes(): number {
    let n = this.pool.byteLength + (this.freqPool?.byteLength ?? 0) + this.df.byteLength + this.len.byteLength + this.maxFreq.byteLength + this.at.byteLength + this.cap.byteLength;
    // (views of IOTA and ONES are shared: not counted)
    for (let b = 0; b < this.bigDocs.length; b++) {
      if (this.bigShared[b]) continue;
      n += this.bigDocs[b].byteLength + (this.bigFreqs[b]?.byteLength ?? 0);
    }
    return n;
  }
}

export const FREQ_OVERFLOW_MARK = FREQ_OVERFLOW;

/** A new array of `length` elements starting with the first `used` ones of `from`. */
function resized<T extends Int32Array | Uint8Array>(from: T, length: number, used: number): T {
  const out = allocate(from.constructor as never, length) as T;
  out.set(from.subarray(0, used) as never);
  return out;
}
