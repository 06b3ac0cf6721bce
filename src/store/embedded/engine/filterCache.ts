/**
 * The document sets of constant-score leaf queries (terms, ranges, exists, ids, prefix, ...), cached
 * per index as Lucene's query cache caches filters per segment: the tenant filter the gateway adds
 * to every search is computed once, then costs a lookup.
 *
 * Whether a document matches such a query depends on that document alone, and a document number is
 * never given to another document (a replace gets a new number; a compaction builds a new index
 * with a new cache). So a cached set stays exact with two cheap updates:
 * - documents added since: the query is evaluated on the new numbers only and appended;
 * - documents removed since: dropped from the set (intersected with the live documents).
 *
 * Sets are kept as sorted lists, or as bitsets once denser than one document in 32. The cache holds
 * at most MAX_ENTRIES sets (least recently used first out) and MAX_BYTES of them.
 */
import { countBits, hasBit, wordsFor } from './bitset';
import { grow } from './growable';
import { Matches } from './lucene/matches';

const MAX_ENTRIES = 64;
const MAX_BYTES = 64 * 1024 * 1024;

/** What the cache needs of an index. */
export interface CachedIndex {
  readonly maxDoc: number;
  readonly deletes: number;
  readonly live: { readonly words: Uint32Array };
}

/** Evaluates a leaf on the documents numbered `fromDoc` and up (live ones). */
export type ComputeDocs = (fromDoc: number) => Matches;

class Entry {
  docs: Int32Array | null = null;
  bits: Uint32Array | null = null;
  size = 0;
  coveredTo = 0;
  deletes = 0;

  bytes(): number {
    return this.bits !== null ? this.bits.byteLength : (this.docs as Int32Array).byteLength;
  }

  /** Keep a copy of `m` (its arrays may be views of the index). */
  set(m: Matches, maxDoc: number): void {
    this.size = m.size;
    if (m.bits !== null) {
      this.bits = m.bits.slice();
      this.docs = null;
    } else {
      this.docs = m.docList();
      this.bits = null;
      if (this.size * 32 > maxDoc) this.toBits(maxDoc);
    }
  }

  matches(): Matches {
    return this.bits !== null ? Matches.bits(this.bits, this.size, 0) : Matches.list(this.docs as Int32Array, this.size, null, 0);
  }

  append(m: Matches, maxDoc: number): void {
    if (m.size === 0) return;
    if (this.bits === null && (this.size + m.size) * 32 > maxDoc) this.toBits(maxDoc);
    if (this.bits !== null) {
      const bits = (this.bits = grow(this.bits, wordsFor(maxDoc)));
      if (m.bits !== null) {
        for (let w = 0; w < m.bits.length; w++) bits[w] |= m.bits[w];
      } else {
        const docs = m.docs as Int32Array;
        for (let i = 0; i < m.size; i++) bits[docs[i] >>> 5] |= 1 << (docs[i] & 31);
      }
      this.size = countBits(bits);
      return;
    }
    const added = m.docList();
    const docs = (this.docs = grow(this.docs as Int32Array, this.size + added.length));
    docs.set(added, this.size);
    this.size += added.length;
  }

  toBits(maxDoc: number): void {
    const bits = new Uint32Array(wordsFor(maxDoc));
    const docs = this.docs as Int32Array;
    for (let i = 0; i < this.size; i++) bits[docs[i] >>> 5] |= 1 << (docs[i] & 31);
    this.bits = bits;
    this.docs = null;
  }

  prune(live: Uint32Array): void {
    if (this.bits !== null) {
      const bits = this.bits;
      for (let w = 0; w < bits.length; w++) bits[w] &= w < live.length ? live[w] : 0;
      this.size = countBits(bits);
      return;
    }
    const docs = this.docs as Int32Array;
    let n = 0;
    for (let i = 0; i < this.size; i++) if (hasBit(live, docs[i])) docs[n++] = docs[i];
    this.size = n;
  }
}

export class FilterCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  get(key: string, index: CachedIndex, compute: ComputeDocs): Matches {
    let entry = this.entries.get(key);
    if (entry === undefined) {
      this.misses++;
      entry = new Entry();
      entry.set(compute(0), index.maxDoc);
      entry.coveredTo = index.maxDoc;
      entry.deletes = index.deletes;
      this.entries.set(key, entry);
      this.bytes += entry.bytes();
      this.evict();
      return entry.matches();
    }
    this.hits++;
    this.entries.delete(key); // most recently used last
    this.entries.set(key, entry);
    const before = entry.bytes();
    if (entry.coveredTo < index.maxDoc) {
      entry.append(compute(entry.coveredTo), index.maxDoc);
      entry.coveredTo = index.maxDoc;
    }
    if (entry.deletes !== index.deletes) {
      entry.prune(index.live.words);
      entry.deletes = index.deletes;
    }
    this.bytes += entry.bytes() - before;
    this.evict();
    return entry.matches();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether a set is kept under `key` (it may still need the documents added since). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private evict(): void {
    while (this.entries.size > 1 && (this.entries.size > MAX_ENTRIES || this.bytes > MAX_BYTES)) {
      const [key, entry] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(key);
      this.bytes -= entry.bytes();
    }
  }
}

