/**
 * Building the document sets of constant-score leaves from posting lists: live documents numbered
 * `fromDoc` and up, as a sorted list or, when dense (more than one document in 32), a bitset.
 */
import { countBits, hasBit, wordsFor } from '../bitset';
import { Matches, advance } from './matches';

export interface DocSource {
  /** Live documents holding the field (postings may hold tombstones). */
  readonly present: { readonly words: Uint32Array };
  /** Removed documents whose postings remain (0: every posting is live). */
  readonly deleted: number;
}

/** The union of some ascending posting lists, restricted to live documents >= fromDoc. */
export function unionOfPostings(lists: readonly Int32Array[], source: DocSource, fromDoc: number, maxDoc: number): Matches {
  const present = source.present.words;
  const check = source.deleted > 0;
  let total = 0;
  for (const list of lists) total += list.length;
  if (total * 32 > maxDoc - fromDoc && lists.length > 1) {
    const bits = new Uint32Array(wordsFor(maxDoc));
    for (const list of lists) {
      for (let i = fromDoc > 0 ? advance(list, 0, list.length, fromDoc) : 0; i < list.length; i++) {
        const doc = list[i];
        if (!check || hasBit(present, doc)) bits[doc >>> 5] |= 1 << (doc & 31);
      }
    }
    return Matches.bits(bits, countBits(bits), 0);
  }
  const out = new Int32Array(total);
  let n = 0;
  for (const list of lists) {
    for (let i = fromDoc > 0 ? advance(list, 0, list.length, fromDoc) : 0; i < list.length; i++) {
      const doc = list[i];
      if (!check || hasBit(present, doc)) out[n++] = doc;
    }
  }
  return Matches.list(out, lists.length > 1 ? sortDistinct(out, n) : n, null, 0);
}

/** The union of some live posting lists (each its first `size` documents), ascending, without repeats. */
export function sortedUnion(lists: readonly { readonly docs: Int32Array; readonly size: number }[]): { docs: Int32Array; size: number } {
  let total = 0;
  for (const list of lists) total += list.size;
  const docs = new Int32Array(total);
  let n = 0;
  for (const list of lists) {
    docs.set(list.docs.subarray(0, list.size), n);
    n += list.size;
  }
  return { docs, size: sortDistinct(docs, n) };
}

/** Sort the first n documents in place and drop repeats; returns how many are left. */
export function sortDistinct(docs: Int32Array, n: number): number {
  const sorted = docs.subarray(0, n).sort();
  let m = 0;
  for (let i = 0; i < n; i++) if (m === 0 || sorted[m - 1] !== sorted[i]) sorted[m++] = sorted[i];
  return m;
}

/** Documents from any iterable (unsorted, repeated, possibly below fromDoc) as a sorted list. */
export function fromIterable(docs: Iterable<number>, fromDoc: number): Matches {
  const list: number[] = [];
  for (const doc of docs) if (doc >= fromDoc) list.push(doc);
  const out = Int32Array.from(list);
  return Matches.list(out, sortDistinct(out, out.length), null, 0);
}

/** Bits set from `fromDoc` on, copied from a bitset. */
export function bitsFrom(words: Uint32Array, fromDoc: number, maxDoc: number): Matches {
  const out = new Uint32Array(Math.min(words.length, wordsFor(maxDoc)));
  const first = fromDoc >>> 5;
  if (first < out.length) {
    out.set(words.subarray(first, out.length), first);
    out[first] &= 0xffffffff << (fromDoc & 31);
  }
  return Matches.bits(out, countBits(out), 0);
}
