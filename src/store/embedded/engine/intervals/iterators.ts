/**
 * Lucene 9's IntervalIterators (org.apache.lucene.queries.intervals), ported line for line so that
 * the intervals a query finds in a document, and so its matches and sloppy frequency, are Lucene's:
 * the minimizing ordered and unordered iterators, the block (phrase) iterator, the disjunction that
 * drops intervals containing the current one, the filtering (containing, contained by, overlapping)
 * and difference (not containing, not contained by, non overlapping) iterators, extensions, offsets
 * (before / after), repeats and the gaps filter. Written by hand: no library does Lucene's intervals.
 *
 * Lucene moves one iterator tree from document to document (nextDoc / advance, then each
 * iterator's reset); here `enter(doc)` does both for one document: it tells whether the iterator's
 * approximation is on the document (a conjunction: all its sub-iterators are; a disjunction: any)
 * and resets it there, before the first nextInterval.
 */

export const NO_MORE_INTERVALS = 2147483647;

/** The positions of a term in the document being read (null: the term is not in it). */
export interface DocPositions {
  positions(field: string, term: number): readonly number[] | null;
}

export abstract class IntervalIterator {
  abstract start(): number;
  abstract end(): number;
  abstract gaps(): number;
  width(): number {
    return this.end() - this.start() + 1;
  }
  abstract nextInterval(): number;
  /** Whether the iterator has the document (its approximation), after resetting itself there. */
  abstract enter(doc: DocPositions): boolean;
}

/** org.apache.lucene.util.PriorityQueue: a binary heap, 1-based, with its exact sift order. */
export class PriorityQueue<T> {
  private heap: (T | null)[] = [null];
  size = 0;
  constructor(private readonly lessThan: (a: T, b: T) => boolean) {}
  clear(): void {
    this.heap = [null];
    this.size = 0;
  }
  add(element: T): void {
    this.heap[++this.size] = element;
    this.upHeap(this.size);
  }
  top(): T {
    return this.heap[1] as T;
  }
  pop(): T | null {
    if (this.size === 0) return null;
    const result = this.heap[1];
    this.heap[1] = this.heap[this.size];
    this.heap[this.size--] = null;
    this.downHeap(1);
    return result;
  }
  private upHeap(origPos: number): void {
    let i = origPos;
    const node = this.heap[i] as T;
    let j = i >>> 1;
    while (j > 0 && this.lessThan(node, this.heap[j] as T)) {
      this.heap[i] = this.heap[j];
      i = j;
      j >>>= 1;
    }
    this.heap[i] = node;
  }
  private downHeap(at: number): void {
    let i = at;
    const node = this.heap[i];
    if (node === null || node === undefined) return;
    let j = i << 1;
    let k = j + 1;
    if (k <= this.size && this.lessThan(this.heap[k] as T, this.heap[j] as T)) j = k;
    while (j <= this.size && this.lessThan(this.heap[j] as T, node)) {
      this.heap[i] = this.heap[j];
      i = j;
      j = i << 1;
      k = j + 1;
      if (k <= this.size && this.lessThan(this.heap[k] as T, this.heap[j] as T)) j = k;
    }
    this.heap[i] = node;
  }
}

/** TermIntervalsSource's iterator: each position of the term, an interval of one position. */
export class TermIterator extends IntervalIterator {
  private positions: readonly number[] = [];
  private upto = 0;
  private pos = -1;
  constructor(
    private readonly field: string,
    private readonly term: number,
  ) {
    super();
  }
  enter(doc: DocPositions): boolean {
    const positions = doc.positions(this.field, this.term);
    if (positions === null || positions.length === 0) return false;
    this.positions = positions;
    this.upto = 0;
    this.pos = -1;
    return true;
  }
  start(): number {
    return this.pos;
  }
  end(): number {
    return this.pos;
  }
  gaps(): number {
    return 0;
  }
  nextInterval(): number {
    if (this.upto >= this.positions.length) return (this.pos = NO_MORE_INTERVALS);
    return (this.pos = this.positions[this.upto++]);
  }
}

/** IntervalsBuilder's NO_INTERVALS (Elasticsearch): an iterator on no document. */
export class NoIntervals extends IntervalIterator {
  enter(): boolean {
    return false;
  }
  start(): number {
    return NO_MORE_INTERVALS;
  }
  end(): number {
    return NO_MORE_INTERVALS;
  }
  gaps(): number {
    return 0;
  }
  nextInterval(): number {
    return NO_MORE_INTERVALS;
  }
}

const EMPTY_START = -1;

/** DisjunctionIntervalsSource.DisjunctionIntervalIterator (also MultiTermIntervalsSource's). */
export class DisjunctionIterator extends IntervalIterator {
  private readonly queue = new PriorityQueue<IntervalIterator>((a, b) => a.end() < b.end() || (a.end() === b.end() && a.start() >= b.start()));
  /** null: EMPTY (before the first interval); undefined: EXHAUSTED. */
  private current: IntervalIterator | null | undefined = null;
  constructor(private readonly iterators: readonly IntervalIterator[]) {
    super();
  }
  enter(doc: DocPositions): boolean {
    const on: IntervalIterator[] = [];
    for (const it of this.iterators) if (it.enter(doc)) on.push(it);
    if (on.length === 0) return false;
    this.queue.clear();
    for (const it of on) {
      it.nextInterval();
      this.queue.add(it);
    }
    this.current = null;
    return true;
  }
  start(): number {
    return this.current === null ? EMPTY_START : this.current === undefined ? NO_MORE_INTERVALS : this.current.start();
  }
  end(): number {
    return this.current === null ? EMPTY_START : this.current === undefined ? NO_MORE_INTERVALS : this.current.end();
  }
  gaps(): number {
    return this.current ? this.current.gaps() : 0;
  }
  nextInterval(): number {
    if (this.current === null || this.current === undefined) {
      if (this.queue.size > 0) this.current = this.queue.top();
      return this.start();
    }
    const start = this.current.start();
    const end = this.current.end();
    while (this.queue.size > 0 && contains(this.queue.top(), start, end)) {
      const it = this.queue.pop();
      if (it !== null && it.nextInterval() !== NO_MORE_INTERVALS) this.queue.add(it);
    }
    if (this.queue.size === 0) {
      this.current = undefined;
      return NO_MORE_INTERVALS;
    }
    this.current = this.queue.top();
    return this.current.start();
  }
}

function contains(it: IntervalIterator, start: number, end: number): boolean {
  return start >= it.start() && start <= it.end() && end >= it.start() && end <= it.end();
}

/** ConjunctionIntervalIterator: on a document when every sub-iterator is, then reset. */
abstract class ConjunctionIterator extends IntervalIterator {
  constructor(protected readonly subs: readonly IntervalIterator[]) {
    super();
  }
  enter(doc: DocPositions): boolean {
    for (const it of this.subs) if (!it.enter(doc)) return false;
    this.reset();
    return true;
  }
  protected abstract reset(): void;
}

/** OrderedIntervalsSource.OrderedIntervalIterator (minimizing). */
export class OrderedIterator extends ConjunctionIterator {
  private s = -1;
  private e = -1;
  private slop = -1;
  private i = 1;
  start(): number {
    return this.s;
  }
  end(): number {
    return this.e;
  }
  gaps(): number {
    return this.slop;
  }
  protected reset(): void {
    this.subs[0].nextInterval();
    this.i = 1;
    this.s = this.e = this.slop = -1;
  }
  nextInterval(): number {
    const subs = this.subs;
    this.s = this.e = this.slop = NO_MORE_INTERVALS;
    let lastStart = 2147483647;
    let minimizing = false;
    this.i = 1;
    for (;;) {
      for (;;) {
        if (subs[this.i - 1].end() >= lastStart) return this.s;
        if (this.i === subs.length || (minimizing && subs[this.i].start() > subs[this.i - 1].end())) break;
        do {
          if (subs[this.i].end() >= lastStart || subs[this.i].nextInterval() === NO_MORE_INTERVALS) return this.s;
        } while (subs[this.i].start() <= subs[this.i - 1].end());
        this.i++;
      }
      this.s = subs[0].start();
      if (this.s === NO_MORE_INTERVALS) return (this.e = NO_MORE_INTERVALS);
      this.e = subs[subs.length - 1].end();
      this.slop = this.e - this.s + 1;
      for (const it of subs) this.slop -= it.width();
      lastStart = subs[subs.length - 1].start();
      this.i = 1;
      if (subs[0].nextInterval() === NO_MORE_INTERVALS) return this.s;
      minimizing = true;
    }
  }
}

/** UnorderedIntervalsSource.UnorderedIntervalIterator (minimizing). */
export class UnorderedIterator extends ConjunctionIterator {
  private readonly queue = new PriorityQueue<IntervalIterator>((a, b) => a.start() < b.start() || (a.start() === b.start() && a.end() >= b.end()));
  private s = -1;
  private e = -1;
  private slop = 0;
  private queueEnd = -1;
  start(): number {
    return this.s;
  }
  end(): number {
    return this.e;
  }
  gaps(): number {
    return this.slop;
  }
  private updateRightExtreme(it: IntervalIterator): void {
    const itEnd = it.end();
    if (itEnd > this.queueEnd) this.queueEnd = itEnd;
  }
  protected reset(): void {
    this.queueEnd = this.s = this.e = -1;
    this.queue.clear();
    for (const it of this.subs) {
      if (it.nextInterval() === NO_MORE_INTERVALS) break;
      this.queue.add(it);
      this.updateRightExtreme(it);
    }
  }
  nextInterval(): number {
    const n = this.subs.length;
    while (this.queue.size === n && this.queue.top().start() === this.s) {
      const it = this.queue.pop();
      if (it !== null && it.nextInterval() !== NO_MORE_INTERVALS) {
        this.queue.add(it);
        this.updateRightExtreme(it);
      }
    }
    if (this.queue.size < n) return (this.s = this.e = NO_MORE_INTERVALS);
    do {
      this.s = this.queue.top().start();
      this.e = this.queueEnd;
      this.slop = this.width();
      for (const it of this.subs) this.slop -= it.width();
      if (this.queue.top().end() === this.e) return this.s;
      const it = this.queue.pop();
      if (it !== null && it.nextInterval() !== NO_MORE_INTERVALS) {
        this.queue.add(it);
        this.updateRightExtreme(it);
      }
    } while (this.queue.size === n && this.e === this.queueEnd);
    return this.s;
  }
}

/** BlockIntervalsSource.BlockIntervalIterator: the sub-intervals one right after the other (a phrase). */
export class BlockIterator extends ConjunctionIterator {
  private s = -1;
  private e = -1;
  start(): number {
    return this.s;
  }
  end(): number {
    return this.e;
  }
  gaps(): number {
    return 0;
  }
  protected reset(): void {
    this.s = this.e = -1;
  }
  nextInterval(): number {
    const subs = this.subs;
    if (subs[0].nextInterval() === NO_MORE_INTERVALS) return (this.s = this.e = NO_MORE_INTERVALS);
    let i = 1;
    while (i < subs.length) {
      while (subs[i].start() <= subs[i - 1].end()) {
        if (subs[i].nextInterval() === NO_MORE_INTERVALS) return (this.s = this.e = NO_MORE_INTERVALS);
      }
      if (subs[i].start() === subs[i - 1].end() + 1) {
        i = i + 1;
      } else {
        if (subs[0].nextInterval() === NO_MORE_INTERVALS) return (this.s = this.e = NO_MORE_INTERVALS);
        i = 1;
      }
    }
    this.s = subs[0].start();
    this.e = subs[subs.length - 1].end();
    return this.s;
  }
}

export type FilterKind = 'containing' | 'containedBy' | 'overlapping';

/** FilteringIntervalIterator: a's intervals that contain / are contained by / overlap one of b's. */
export class FilteringIterator extends ConjunctionIterator {
  private bpos = false;
  constructor(
    private readonly a: IntervalIterator,
    private readonly b: IntervalIterator,
    private readonly kind: FilterKind,
  ) {
    super([a, b]);
  }
  start(): number {
    return this.bpos ? this.a.start() : NO_MORE_INTERVALS;
  }
  end(): number {
    return this.bpos ? this.a.end() : NO_MORE_INTERVALS;
  }
  gaps(): number {
    return this.a.gaps();
  }
  protected reset(): void {
    this.bpos = this.b.nextInterval() !== NO_MORE_INTERVALS;
  }
  nextInterval(): number {
    const { a, b } = this;
    if (!this.bpos) return NO_MORE_INTERVALS;
    switch (this.kind) {
      case 'containing':
        // ContainingIntervalsSource
        while (a.nextInterval() !== NO_MORE_INTERVALS) {
          while (b.start() < a.start() && b.end() < a.end()) {
            if (b.nextInterval() === NO_MORE_INTERVALS) return NO_MORE_INTERVALS;
          }
          if (a.start() <= b.start() && a.end() >= b.end()) return a.start();
        }
        return NO_MORE_INTERVALS;
      case 'containedBy':
        // ContainedByIntervalsSource
        while (a.nextInterval() !== NO_MORE_INTERVALS) {
          while (b.end() < a.end()) {
            if (b.nextInterval() === NO_MORE_INTERVALS) {
              this.bpos = false;
              return NO_MORE_INTERVALS;
            }
          }
          if (b.start() <= a.start()) return a.start();
        }
        this.bpos = false;
        return NO_MORE_INTERVALS;
      case 'overlapping':
        // OverlappingIntervalsSource
        while (a.nextInterval() !== NO_MORE_INTERVALS) {
          while (b.end() < a.start()) {
            if (b.nextInterval() === NO_MORE_INTERVALS) {
              this.bpos = false;
              return NO_MORE_INTERVALS;
            }
          }
          if (b.start() <= a.end()) return a.start();
        }
        this.bpos = false;
        return NO_MORE_INTERVALS;
    }
  }
}

export type DifferenceKind = 'notContaining' | 'notContainedBy' | 'nonOverlapping';

/** RelativeIterator and its difference iterators: the minuend's intervals that the subtrahend's do not touch so. */
export class DifferenceIterator extends IntervalIterator {
  private bpos = false;
  constructor(
    private readonly a: IntervalIterator,
    private readonly b: IntervalIterator,
    private readonly kind: DifferenceKind,
  ) {
    super();
  }
  enter(doc: DocPositions): boolean {
    if (!this.a.enter(doc)) return false;
    this.bpos = this.b.enter(doc);
    return true;
  }
  start(): number {
    return this.a.start();
  }
  end(): number {
    return this.a.end();
  }
  gaps(): number {
    return this.a.gaps();
  }
  nextInterval(): number {
    const { a, b } = this;
    if (!this.bpos) return a.nextInterval();
    switch (this.kind) {
      case 'notContaining':
        while (a.nextInterval() !== NO_MORE_INTERVALS) {
          while (b.start() < a.start() && b.end() < a.end()) {
            if (b.nextInterval() === NO_MORE_INTERVALS) {
              this.bpos = false;
              return a.start();
            }
          }
          if (b.start() > a.end()) return a.start();
        }
        return NO_MORE_INTERVALS;
      case 'notContainedBy':
        while (a.nextInterval() !== NO_MORE_INTERVALS) {
          while (b.end() < a.end()) {
            if (b.nextInterval() === NO_MORE_INTERVALS) return a.start();
          }
          if (a.start() < b.start()) return a.start();
        }
        return NO_MORE_INTERVALS;
      case 'nonOverlapping':
        while (a.nextInterval() !== NO_MORE_INTERVALS) {
          while (b.end() < a.start()) {
            if (b.nextInterval() === NO_MORE_INTERVALS) {
              this.bpos = false;
              return a.start();
            }
          }
          if (b.start() > a.end()) return a.start();
        }
        return NO_MORE_INTERVALS;
    }
  }
}

/** An iterator over another one, passing its document, interval and gaps through unless it says otherwise. */
abstract class WrappingIterator extends IntervalIterator {
  constructor(protected readonly inner: IntervalIterator) {
    super();
  }
  enter(doc: DocPositions): boolean {
    return this.inner.enter(doc);
  }
  start(): number {
    return this.inner.start();
  }
  end(): number {
    return this.inner.end();
  }
  gaps(): number {
    return this.inner.gaps();
  }
}

/** ExtendedIntervalIterator: each interval widened by `before` and `after` positions. */
export class ExtendedIterator extends WrappingIterator {
  private positioned = false;
  constructor(
    inner: IntervalIterator,
    private readonly before: number,
    private readonly after: number,
  ) {
    super(inner);
  }
  override enter(doc: DocPositions): boolean {
    this.positioned = false;
    return this.inner.enter(doc);
  }
  override start(): number {
    if (!this.positioned) return -1;
    const start = this.inner.start();
    if (start === NO_MORE_INTERVALS) return NO_MORE_INTERVALS;
    return Math.max(0, start - this.before);
  }
  override end(): number {
    if (!this.positioned) return -1;
    let end = this.inner.end();
    if (end === NO_MORE_INTERVALS) return NO_MORE_INTERVALS;
    end = (end + this.after) | 0;
    if (end < 0 || end === NO_MORE_INTERVALS) end = NO_MORE_INTERVALS - 1; // overflow
    return end;
  }
  nextInterval(): number {
    this.positioned = true;
    this.inner.nextInterval();
    return this.start();
  }
}

/** OffsetIntervalsSource's iterator: the position just before (or just after) each interval. */
export class OffsetIterator extends WrappingIterator {
  constructor(
    inner: IntervalIterator,
    private readonly before: boolean,
  ) {
    super(inner);
  }
  override start(): number {
    if (this.before) {
      const pos = this.inner.start();
      if (pos === -1) return -1;
      if (pos === NO_MORE_INTERVALS) return NO_MORE_INTERVALS;
      return Math.max(0, pos - 1);
    }
    const end = this.inner.end();
    if (end === -1) return -1;
    if (end === NO_MORE_INTERVALS) return NO_MORE_INTERVALS;
    return end + 1;
  }
  override end(): number {
    return this.start();
  }
  override gaps(): number {
    return 0;
  }
  nextInterval(): number {
    this.inner.nextInterval();
    return this.start();
  }
}

/** FilteredIntervalsSource.MaxGaps over IntervalFilter: the intervals of at most `maxGaps` gaps. */
export class MaxGapsIterator extends WrappingIterator {
  constructor(
    inner: IntervalIterator,
    private readonly maxGaps: number,
  ) {
    super(inner);
  }
  nextInterval(): number {
    let next: number;
    do {
      next = this.inner.nextInterval();
    } while (next !== NO_MORE_INTERVALS && !(this.inner.gaps() <= this.maxGaps));
    return next;
  }
}

/** RepeatingIntervalsSource.DuplicateIntervalIterator: `copies` successive intervals of one source, as one. */
export class DuplicateIterator extends IntervalIterator {
  private readonly cache: Int32Array;
  private cacheBase = 0;
  private started = false;
  private exhausted = false;
  constructor(
    private readonly inner: IntervalIterator,
    private readonly copies: number,
  ) {
    super();
    this.cache = new Int32Array(copies * 2);
  }
  enter(doc: DocPositions): boolean {
    this.started = this.exhausted = false;
    this.cache.fill(-1);
    return this.inner.enter(doc);
  }
  start(): number {
    return this.exhausted ? NO_MORE_INTERVALS : this.cache[(this.cacheBase % this.copies) * 2];
  }
  end(): number {
    return this.exhausted ? NO_MORE_INTERVALS : this.cache[((this.cacheBase + this.copies - 1) % this.copies) * 2 + 1];
  }
  override width(): number {
    // as Lucene writes it (start - end + 1 per copy)
    let width = 0;
    for (let i = 0; i < this.copies; i++) {
      const pos = (this.cacheBase + i) % this.copies;
      width += this.cache[pos * 2] - this.cache[pos * 2 + 1] + 1;
    }
    return width;
  }
  gaps(): number {
    return super.width() - this.width();
  }
  nextInterval(): number {
    if (this.exhausted) return NO_MORE_INTERVALS;
    if (!this.started) {
      for (let i = 0; i < this.copies; i++) if (this.cacheNextInterval(i) === NO_MORE_INTERVALS) return NO_MORE_INTERVALS;
      this.cacheBase = 0;
      this.started = true;
      return this.start();
    }
    const insert = (this.cacheBase + this.copies) % this.copies;
    this.cacheBase = (this.cacheBase + 1) % this.copies;
    return this.cacheNextInterval(insert);
  }
  private cacheNextInterval(linePos: number): number {
    if (this.inner.nextInterval() === NO_MORE_INTERVALS) {
      this.exhausted = true;
      return NO_MORE_INTERVALS;
    }
    this.cache[linePos * 2] = this.inner.start();
    this.cache[linePos * 2 + 1] = this.inner.end();
    return this.start();
  }
}
