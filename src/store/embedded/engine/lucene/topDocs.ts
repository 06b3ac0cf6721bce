/**
 * The first `k` hits of a result without sorting it all (TopScoreDocCollector, TopFieldCollector):
 * a binary heap of the k best so far, its root the worst of them, which every new document must beat.
 * Documents arrive in index order, so one that only equals the root (same score or same sort keys)
 * loses the tie (index order breaks ties) and is skipped.
 */
import { nextSetBit } from '../bitset';
import { Matches } from './matches';

export interface TopHit<K> {
  doc: number;
  score: number;
  keys: K[];
}

/** The best k documents by score (descending), ties by index order, best first. */
export function topByScore(matches: Matches, k: number): TopHit<never>[] {
  k = Math.min(k, matches.size);
  if (k <= 0) return [];
  if (matches.scores === null) return firstDocs(matches, k);
  const docs = matches.docs as Int32Array;
  const scores = matches.scores;
  const heapDocs = new Int32Array(k);
  const heapScores = new Float64Array(k);
  let n = 0;
  // worse(a, b): lower score, or same score and later document
  for (let i = 0; i < matches.size; i++) {
    const score = scores[i];
    if (n === k) {
      if (score <= heapScores[0]) continue;
      // replace the root and sift it down
      let at = 0;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= k) break;
        if (child + 1 < k && worse(heapScores[child + 1], heapDocs[child + 1], heapScores[child], heapDocs[child])) child++;
        if (!worse(heapScores[child], heapDocs[child], score, docs[i])) break;
        heapScores[at] = heapScores[child];
        heapDocs[at] = heapDocs[child];
        at = child;
      }
      heapScores[at] = score;
      heapDocs[at] = docs[i];
      continue;
    }
    // sift up
    let at = n++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!worse(score, docs[i], heapScores[parent], heapDocs[parent])) break;
      heapScores[at] = heapScores[parent];
      heapDocs[at] = heapDocs[parent];
      at = parent;
    }
    heapScores[at] = score;
    heapDocs[at] = docs[i];
  }
  const out: TopHit<never>[] = [];
  for (let i = 0; i < n; i++) out.push({ doc: heapDocs[i], score: heapScores[i], keys: [] });
  return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
}

function worse(scoreA: number, docA: number, scoreB: number, docB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && docA > docB);
}

/** The first k documents in index order (every score equal). */
function firstDocs(matches: Matches, k: number): TopHit<never>[] {
  const out: TopHit<never>[] = [];
  if (matches.bits !== null) {
    for (let doc = nextSetBit(matches.bits, 0); doc !== -1 && out.length < k; doc = nextSetBit(matches.bits, doc + 1)) out.push({ doc, score: matches.constant, keys: [] });
    return out;
  }
  const docs = matches.docs as Int32Array;
  for (let i = 0; i < k; i++) out.push({ doc: docs[i], score: matches.constant, keys: [] });
  return out;
}

/**
 * The first k documents in the order of `compare` over their sort keys (then index order), among
 * those `accept` lets through (search_after). `keysOf` fills the keys of a document.
 */
export function topSorted<K>(
  matches: Matches,
  k: number,
  width: number,
  keysOf: (doc: number, score: number, out: K[]) => void,
  compare: (a: K[], b: K[]) => number,
  accept: ((keys: K[]) => boolean) | null,
): TopHit<K>[] {
  if (k <= 0 || matches.size === 0) return [];
  const heap: TopHit<K>[] = [];
  let scratch: K[] = new Array<K>(width);
  // worse(a, b): after b in the output order
  const worse = (a: TopHit<K>, b: TopHit<K>) => {
    const c = compare(a.keys, b.keys);
    return c > 0 || (c === 0 && a.doc > b.doc);
  };
  const siftDown = (at: number) => {
    const item = heap[at];
    for (;;) {
      let child = 2 * at + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && worse(heap[child + 1], heap[child])) child++;
      if (!worse(heap[child], item)) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = item;
  };
  const visit = (doc: number, score: number) => {
    keysOf(doc, score, scratch);
    if (accept !== null && !accept(scratch)) return;
    if (heap.length === k) {
      if (compare(scratch, heap[0].keys) >= 0) return; // not better than the worst kept
      const evicted = heap[0];
      heap[0] = { doc, score, keys: scratch };
      scratch = evicted.keys;
      siftDown(0);
      return;
    }
    const item: TopHit<K> = { doc, score, keys: scratch };
    scratch = new Array<K>(width);
    let at = heap.length;
    heap.push(item);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!worse(item, heap[parent])) break;
      heap[at] = heap[parent];
      at = parent;
    }
    heap[at] = item;
  };
  if (matches.bits !== null) {
    for (let doc = nextSetBit(matches.bits, 0); doc !== -1; doc = nextSetBit(matches.bits, doc + 1)) visit(doc, matches.constant);
  } else {
    const docs = matches.docs as Int32Array;
    for (let i = 0; i < matches.size; i++) visit(docs[i], matches.scoreAt(i));
  }
  return heap.sort((a, b) => compare(a.keys, b.keys) || a.doc - b.doc);
}
