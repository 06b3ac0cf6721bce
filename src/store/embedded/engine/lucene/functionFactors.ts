/**
 * The factors of a score function kept per document, as doc values are: a frontend ranks by the
 * same popularity or recency function search after search, and reading a factor from an array is
 * cheaper than computing it from the field's values (a logarithm, an exponential) for every match.
 *
 * A function is cached from its second use within the cache (its `key` names its parameters, an
 * origin of `now` resolved: such a key changes with the clock and is never cached), for the live
 * documents of the index; a document's factor never changes (a replace gives the entity a new
 * number), so a kept array stays exact and is only extended to the documents added since. At most
 * MAX_BYTES of arrays per index, the least recently used dropped first.
 *
 * Only for functions whose factor does not depend on the sub-query's score and that never refuse a
 * live document (ScoreFunction.maxFactor's contract).
 */
import { hasBit } from '../bitset';
import { InvertedIndex } from '../invertedIndex';
import { ScoreFunction } from './query';

const MAX_BYTES = 16 * 1024 * 1024;
/** The largest code of a factor's upper bound (a byte per document). */
const TOP_CODE = 255;

interface Entry {
  values: Float64Array | null;
  /** Per document, the code of an upper bound of its factor (`levels`): a byte, read before the factor. */
  codes: Uint8Array | null;
  /** The bound each code stands for: levels[c] = top * c / TOP_CODE, levels[TOP_CODE] = top, the largest factor. */
  levels: Float64Array;
  coveredTo: number;
}

const caches = new WeakMap<InvertedIndex, Map<string, Entry>>();

/**
 * The function's factors of the live documents of `index` (the caller's matches are live): an array
 * by document with, per document, a byte coding an upper bound of its factor (`levels[codes[doc]]`
 * is at least `array[doc]`); or (first use) a function computing them.
 *
 * The codes are what a top-k search reads first: 8 times smaller than the factors, they stay in the
 * processor's caches where the factors of 100,000 documents and more do not, and a document whose
 * bound cannot make the page is passed over without its factor being read (most documents, under a
 * decay far from its origin).
 */
export type Factors =
  | { readonly array: Float64Array; readonly codes: Uint8Array; readonly levels: Float64Array; readonly compute: null }
  | { readonly array: null; readonly codes: null; readonly levels: null; readonly compute: (doc: number) => number };

export function functionFactors(fn: ScoreFunction, index: InvertedIndex): Factors {
  let cache = caches.get(index);
  if (cache === undefined) caches.set(index, (cache = new Map()));
  const entry = cache.get(fn.key);
  if (entry === undefined) {
    // first use: computed document by document, and remembered
    cache.set(fn.key, { values: null, codes: null, levels: new Float64Array(TOP_CODE + 1), coveredTo: 0 });
    const bound = fn.bind(index);
    return { array: null, codes: null, levels: null, compute: (doc) => bound(doc, Number.NaN) };
  }
  cache.delete(fn.key);
  cache.set(fn.key, entry); // most recently used last
  const maxDoc = index.maxDoc;
  if (entry.values === null || entry.values.length < maxDoc) {
    const length = Math.max(maxDoc, Math.ceil((entry.values?.length ?? 0) * 1.25));
    const grown = new Float64Array(length);
    const codes = new Uint8Array(length);
    if (entry.values !== null) grown.set(entry.values);
    if (entry.codes !== null) codes.set(entry.codes);
    entry.values = grown;
    entry.codes = codes;
  }
  if (entry.coveredTo < maxDoc) extend(entry, fn, index, maxDoc);
  evict(cache);
  return { array: entry.values, codes: entry.codes as Uint8Array, levels: entry.levels, compute: null };
}

/** Computes the factors of the documents added since, and their codes (all of them again when the largest factor grew). */
function extend(entry: Entry, fn: ScoreFunction, index: InvertedIndex, maxDoc: number): void {
  const bound = fn.bind(index);
  const live = index.live.words;
  const values = entry.values as Float64Array;
  const from = entry.coveredTo;
  let top = entry.levels[TOP_CODE];
  for (let doc = from; doc < maxDoc; doc++) {
    // (a dead document's factor is never read: NaN)
    const factor = hasBit(live, doc) ? bound(doc, Number.NaN) : Number.NaN;
    values[doc] = factor;
    if (factor > top) top = factor;
  }
  const levels = entry.levels;
  const recode = top !== levels[TOP_CODE];
  if (recode) {
    // (an infinite factor, which maxFactor's contract rules out, would leave every bound infinite)
    if (Number.isFinite(top)) for (let c = 0; c < TOP_CODE; c++) levels[c] = (top * c) / TOP_CODE;
    else levels.fill(Infinity);
    levels[TOP_CODE] = top;
  }
  const codes = entry.codes as Uint8Array;
  for (let doc = recode ? 0 : from; doc < maxDoc; doc++) codes[doc] = codeOf(values[doc], levels);
  entry.coveredTo = maxDoc;
}

/** The smallest code whose level is at least `factor` (NaN, a dead document: the top). */
export function codeOf(factor: number, levels: Float64Array): number {
  const top = levels[TOP_CODE];
  if (!(factor < top)) return TOP_CODE;
  let c = Math.ceil((factor / top) * TOP_CODE);
  if (c > TOP_CODE) c = TOP_CODE;
  // (the division and the levels round: step to the exact code)
  while (c > 0 && levels[c - 1] >= factor) c--;
  while (levels[c] < factor) c++;
  return c;
}

function evict(cache: Map<string, Entry>): void {
  const bytesOf = (e: Entry) => (e.values?.byteLength ?? 0) + (e.codes?.byteLength ?? 0);
  let bytes = 0;
  for (const e of cache.values()) bytes += bytesOf(e);
  for (const [key, e] of cache) {
    if (bytes <= MAX_BYTES && cache.size <= 64) return;
    bytes -= bytesOf(e);
    cache.delete(key);
  }
}
