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

interface Entry {
  values: Float64Array | null;
  coveredTo: number;
}

const caches = new WeakMap<InvertedIndex, Map<string, Entry>>();

/**
 * The function's factors of the live documents of `index` (the caller's matches are live): an array
 * by document, or (first use) a function computing them.
 */
export type Factors = { readonly array: Float64Array; readonly compute: null } | { readonly array: null; readonly compute: (doc: number) => number };

export function functionFactors(fn: ScoreFunction, index: InvertedIndex): Factors {
  let cache = caches.get(index);
  if (cache === undefined) caches.set(index, (cache = new Map()));
  const entry = cache.get(fn.key);
  if (entry === undefined) {
    // first use: computed document by document, and remembered
    cache.set(fn.key, { values: null, coveredTo: 0 });
    const bound = fn.bind(index);
    return { array: null, compute: (doc) => bound(doc, Number.NaN) };
  }
  cache.delete(fn.key);
  cache.set(fn.key, entry); // most recently used last
  const maxDoc = index.maxDoc;
  if (entry.values === null || entry.values.length < maxDoc) {
    const grown = new Float64Array(Math.max(maxDoc, Math.ceil((entry.values?.length ?? 0) * 1.25)));
    if (entry.values !== null) grown.set(entry.values);
    entry.values = grown;
  }
  if (entry.coveredTo < maxDoc) {
    const bound = fn.bind(index);
    const live = index.live.words;
    const values = entry.values;
    for (let doc = entry.coveredTo; doc < maxDoc; doc++) values[doc] = hasBit(live, doc) ? bound(doc, Number.NaN) : Number.NaN;
    entry.coveredTo = maxDoc;
  }
  evict(cache);
  return { array: entry.values, compute: null };
}

function evict(cache: Map<string, Entry>): void {
  let bytes = 0;
  for (const e of cache.values()) bytes += e.values?.byteLength ?? 0;
  for (const [key, e] of cache) {
    if (bytes <= MAX_BYTES && cache.size <= 64) return;
    bytes -= e.values?.byteLength ?? 0;
    cache.delete(key);
  }
}
