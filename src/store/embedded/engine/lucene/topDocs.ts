/**
 * The first `k` hits of a result without sorting it all (TopScoreDocCollector, TopFieldCollector):
 * a binary heap of the k best so far, its root the worst of them, which every new document must beat.
 * Documents arrive in index order, so one that only equals the root (same score or same sort keys)
 * loses the tie (index order breaks ties) and is skipped.
 *
 * Collectors take the matches a chunk at a time (`collectSteps`), checking the search's budget
 * between chunks: past its deadline the search answers the best of what was collected so far, with
 * the number collected as its total, as Elasticsearch's timed-out collectors do.
 */
import { Budget, CHECK_EVERY, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { nextSetBit } from '../bitset';
import { Matches } from './matches';

export interface TopHit<K> {
  doc: number;
  score: number;
  keys: K[];
}

/** What collects hits: `add` takes positions [from, to) of a list-form Matches. */
export interface Collector<K> {
  /** Documents collected so far. */
  readonly collected: number;
  /** Documents taken between two looks at the clock (CHECK_EVERY + 1 when not given). */
  readonly chunk?: number;
  add(matches: Matches, from: number, to: number): void;
  /** The hits kept, best first. */
  top(): TopHit<K>[];
  /** The same, ordered a part at a time within the budget's slices (never past: see Budget.sliceOver); the collector is used up. */
  topSteps(budget: Budget): Steps<TopHit<K>[]>;
}

/** Hits ordered between two looks at the clock while a page is put in order. */
const ORDER_CHECK_EVERY = 255;

/** Feed every match to a collector, a chunk at a time, pausing when the budget says so. */
export function* collectSteps<K>(collector: Collector<K>, matches: Matches, budget: Budget): Steps<void> {
  const list = matches.toList();
  const chunk = collector.chunk ?? CHECK_EVERY + 1;
  for (let from = 0; from < list.size; from += chunk) {
    collector.add(list, from, Math.min(list.size, from + chunk));
    if (from + chunk < list.size && budget.due()) yield;
  }
}

/** The best k documents by score (descending), ties by index order, best first. */
export function topByScore(matches: Matches, k: number): TopHit<never>[] {
  k = Math.min(k, matches.size);
  if (k <= 0) return [];
  if (matches.scores === null) return firstDocs(matches, k);
  const collector = new TopScoreCollector(k);
  runToEnd(collectSteps(collector, matches, UNLIMITED));
  return collector.top();
}

/** The best k by score; the heap lives in typed arrays. */
export class TopScoreCollector implements Collector<never> {
  private readonly heapDocs: Int32Array;
  private readonly heapScores: Float64Array;
  private n = 0;
  collected = 0;

  constructor(private readonly k: number) {
    this.heapDocs = new Int32Array(k);
    this.heapScores = new Float64Array(k);
  }

  add(matches: Matches, from: number, to: number): void {
    const { k, heapDocs, heapScores } = this;
    this.collected += to - from;
    if (k === 0) return;
    const docs = matches.docs as Int32Array;
    let n = this.n;
    // worse(a, b): lower score, or same score and later document
    for (let i = from; i < to; i++) {
      const score = matches.scoreAt(i);
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
    this.n = n;
  }

  top(): TopHit<never>[] {
    const out: TopHit<never>[] = [];
    for (let i = 0; i < this.n; i++) out.push({ doc: this.heapDocs[i], score: this.heapScores[i], keys: [] });
    return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }

  /** (sorting numbers: 10,000 of them take about a millisecond, no slice needed) */
  // eslint-disable-next-line require-yield
  *topSteps(): Steps<TopHit<never>[]> {
    return this.top();
  }
}

function worse(scoreA: number, docA: number, scoreB: number, docB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && docA > docB);
}

/** The first k documents in index order (every score equal). */
export function firstDocs(matches: Matches, k: number): TopHit<never>[] {
  const out: TopHit<never>[] = [];
  if (matches.bits !== null) {
    for (let doc = nextSetBit(matches.bits, 0); doc !== -1 && out.length < k; doc = nextSetBit(matches.bits, doc + 1)) out.push({ doc, score: matches.constant, keys: [] });
    return out;
  }
  const docs = matches.docs as Int32Array;
  for (let i = 0; i < Math.min(k, matches.size); i++) out.push({ doc: docs[i], score: matches.constant, keys: [] });
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
  const collector = new TopSortedCollector(k, width, keysOf, compare, accept);
  runToEnd(collectSteps(collector, matches, UNLIMITED));
  return collector.top();
}

/**
 * Documents a sorted collector takes between two looks at the clock: each costs its sort keys and,
 * when it enters the page, a sift through a heap of up to 10,000 hits on several keys (up to a few
 * microseconds), so that 1,024 of them made slices of 3 to 10 ms under bench:abuse's sorted pages.
 */
export const SORTED_CHUNK = 128;

/** A sort's keys one at a time: key `j` of a document, and the order of two keys of clause `j`. */
export interface SortKeys<K> {
  key(j: number, doc: number, score: number): K;
  compare(j: number, a: K, b: K): number;
}

export class TopSortedCollector<K> implements Collector<K> {
  readonly chunk = SORTED_CHUNK;
  private readonly heap: TopHit<K>[] = [];
  private scratch: K[];
  collected = 0;

  /**
   * @param byKey when given, a full page (without `accept`) compares a document with its worst hit
   * key by key, each key read only when the ones before it tie (Lucene's TopFieldCollector and its
   * comparators' compareBottom): most documents lose on their first key, and the others are never
   * read (decoding keyword keys made most of the garbage of a sorted page of 10,000 hits). It must
   * agree with `keysOf` and `compare`.
   */
  constructor(
    private readonly k: number,
    private readonly width: number,
    private readonly keysOf: (doc: number, score: number, out: K[]) => void,
    private readonly compare: (a: K[], b: K[]) => number,
    private readonly accept: ((keys: K[]) => boolean) | null,
    private readonly byKey: SortKeys<K> | null = null,
  ) {
    this.scratch = new Array<K>(width);
  }

  // worse(a, b): after b in the output order
  private worse(a: TopHit<K>, b: TopHit<K>): boolean {
    const c = this.compare(a.keys, b.keys);
    return c > 0 || (c === 0 && a.doc > b.doc);
  }

  private siftDown(at: number): void {
    const heap = this.heap;
    const item = heap[at];
    for (;;) {
      let child = 2 * at + 1;
      if (child >= heap.length) break;
      if (child + 1 < heap.length && this.worse(heap[child + 1], heap[child])) child++;
      if (!this.worse(heap[child], item)) break;
      heap[at] = heap[child];
      at = child;
    }
    heap[at] = item;
  }

  /** One document, counted as collected. */
  offer(doc: number, score: number): void {
    this.collected++;
    this.visit(doc, score);
  }

  /** The page holds `k` hits. */
  get full(): boolean {
    return this.heap.length >= this.k;
  }

  /**
   * The page is full and `scratch` holds the keys of a better hit: it takes the worst hit's place,
   * in the worst hit's object (whose keys array becomes the scratch). No object is made per hit
   * that enters a full page: a sorted page of 10,000 replaced tens of thousands, each kept until
   * replaced in turn, so that young-generation collections copied them (bench:abuse).
   */
  private replaceWorst(doc: number, score: number): void {
    const worst = this.heap[0];
    const keys = worst.keys;
    worst.doc = doc;
    worst.score = score;
    worst.keys = this.scratch;
    this.scratch = keys;
    this.siftDown(0);
  }

  private visit(doc: number, score: number): void {
    const { heap, k } = this;
    const scratch = this.scratch;
    const byKey = this.byKey;
    if (byKey !== null && heap.length === k && k > 0 && this.accept === null) {
      const worst = heap[0].keys;
      let c = 0;
      let j = 0;
      for (; j < this.width; j++) {
        scratch[j] = byKey.key(j, doc, score);
        c = byKey.compare(j, scratch[j], worst[j]);
        if (c !== 0) break;
      }
      if (c >= 0) return; // not better than the worst kept (a tie loses: index order)
      for (j++; j < this.width; j++) scratch[j] = byKey.key(j, doc, score);
      this.replaceWorst(doc, score);
      return;
    }
    this.keysOf(doc, score, scratch);
    if (this.accept !== null && !this.accept(scratch)) return;
    if (heap.length === k) {
      if (this.compare(scratch, heap[0].keys) < 0) this.replaceWorst(doc, score); // else not better than the worst kept
      return;
    }
    const item: TopHit<K> = { doc, score, keys: scratch };
    this.scratch = new Array<K>(this.width);
    let at = heap.length;
    heap.push(item);
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.worse(item, heap[parent])) break;
      heap[at] = heap[parent];
      at = parent;
    }
    heap[at] = item;
  }

  add(matches: Matches, from: number, to: number): void {
    this.collected += to - from;
    if (this.k <= 0) return;
    const docs = matches.docs as Int32Array;
    for (let i = from; i < to; i++) this.visit(docs[i], matches.scoreAt(i));
  }

  top(): TopHit<K>[] {
    return this.heap.slice().sort((a, b) => this.compare(a.keys, b.keys) || a.doc - b.doc);
  }

  /**
   * The heap emptied root first (the worst kept), filling the page from its end: sorting 10,000
   * hits on five keys at once held the event loop for about 40 ms.
   */
  *topSteps(budget: Budget): Steps<TopHit<K>[]> {
    const heap = this.heap;
    const out = new Array<TopHit<K>>(heap.length);
    for (let i = heap.length - 1; i >= 0; i--) {
      out[i] = heap[0];
      const last = heap.pop()!;
      if (i > 0) {
        heap[0] = last;
        this.siftDown(0);
      }
      if ((i & ORDER_CHECK_EVERY) === 0 && i > 0 && budget.sliceOver()) yield;
    }
    return out;
  }
}
