/**
 * What evaluating a query gives: its matching live documents in ascending order with their scores,
 * in one of two forms:
 *
 * - a list: document numbers in an Int32Array, with per-document float scores (a Float32Array,
 *   exact since every score Lucene combines is a float) or one constant score for all;
 * - a bitset: the documents as bits (a Uint32Array, see bitset.ts), all scoring the constant.
 *
 * Matches are values: operations never modify their inputs (a bitset may be shared with a cache or
 * with the index's live documents).
 */
import { bitsToDocs, countBits, hasBit } from '../bitset';

export class Matches {
  private constructor(
    /** List form: documents, ascending (only the first `size` are meaningful). */
    readonly docs: Int32Array | null,
    /** List form: scores parallel to `docs`; null when every document scores `constant`. */
    readonly scores: Float32Array | null,
    /** Bitset form (when `docs` is null). */
    readonly bits: Uint32Array | null,
    readonly size: number,
    readonly constant: number,
  ) {}

  static list(docs: Int32Array, size: number, scores: Float32Array | null, constant = 0): Matches {
    return new Matches(docs, scores, null, size, constant);
  }

  static bits(bits: Uint32Array, size: number, constant = 0): Matches {
    return new Matches(null, null, bits, size, constant);
  }

  static bitsCounted(bits: Uint32Array, constant = 0): Matches {
    return new Matches(null, null, bits, countBits(bits), constant);
  }

  static readonly EMPTY = new Matches(new Int32Array(0), null, null, 0, 0);

  get isBits(): boolean {
    return this.docs === null;
  }

  /** The same documents, all scoring `constant`. */
  withConstant(constant: number): Matches {
    if (this.scores === null && this.constant === constant) return this;
    return new Matches(this.docs, null, this.bits, this.size, constant);
  }

  /** The list form (documents ascending). */
  toList(): Matches {
    if (this.docs !== null) return this;
    const docs = new Int32Array(this.size);
    bitsToDocs(this.bits as Uint32Array, docs);
    return new Matches(docs, null, null, this.size, this.constant);
  }

  /** The documents, ascending, as an exactly sized array (a copy for the list form). */
  docList(): Int32Array {
    const list = this.toList();
    return list === this ? (this.docs as Int32Array).slice(0, this.size) : (list.docs as Int32Array);
  }

  scoreAt(i: number): number {
    return this.scores === null ? this.constant : this.scores[i];
  }

  has(doc: number): boolean {
    if (this.bits !== null) return hasBit(this.bits, doc);
    const docs = this.docs as Int32Array;
    const at = advance(docs, 0, this.size, doc);
    return at < this.size && docs[at] === doc;
  }
}

/** First index in docs[from, to) whose document is >= target (galloping, then binary search). */
export function advance(docs: Int32Array, from: number, to: number, target: number): number {
  if (from >= to || docs[from] >= target) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < to && docs[hi] < target) {
    lo = hi;
    step <<= 1;
    hi = from + step;
  }
  if (hi > to) hi = to;
  // docs[lo] < target, and docs[hi] >= target or hi === to
  lo += 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
