/**
 * The distinct numeric values of a field in ascending order, for range queries and sorted ranges,
 * with the term id of each (parallel arrays: a range of values is a slice of ids, no dictionary
 * lookup per value): kept up to date lazily. New values are queued and merged in (after a native
 * sort of the queue) the next time a range is asked for, so that indexing stays O(1) per value.
 */
import { EMPTY_FLOAT64, EMPTY_INT32, grow } from './growable';
import type { StateReader, StateWriter } from './persist/state';

export class SortedKeys {
  private sorted = EMPTY_FLOAT64;
  private sortedIds = EMPTY_INT32;
  private pending = EMPTY_FLOAT64;
  private pendingIds = EMPTY_INT32;
  private pendingCount = 0;

  /** A value first seen, with its term id (each value is added once). */
  add(value: number, id: number): void {
    if (this.pendingCount === this.pending.length) {
      this.pending = grow(this.pending, this.pendingCount + 1);
      this.pendingIds = grow(this.pendingIds, this.pendingCount + 1);
    }
    this.pendingIds[this.pendingCount] = id;
    this.pending[this.pendingCount++] = value;
  }

  /** Every value ever added, ascending, without duplicates. */
  values(): Float64Array {
    if (this.pendingCount > 0) this.merge();
    return this.sorted;
  }

  /** The term id of each value of `values()`, at the same position. */
  ids(): Int32Array {
    if (this.pendingCount > 0) this.merge();
    return this.sortedIds;
  }

  /** Index of the first value >= `value` (or > `value` when `strict`). */
  lowerBound(value: number, strict: boolean): number {
    const keys = this.values();
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid] < value || (strict && keys[mid] === value)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** For the index file (persist/): the queue too, as it is (merging it is a reader's job). */
  writeState(w: StateWriter): void {
    w.json(this.pendingCount);
    w.array(this.sorted);
    w.array(this.sortedIds);
    w.array(this.pending, this.pendingCount);
    w.array(this.pendingIds, this.pendingCount);
  }

  /** Takes the state `writeState` wrote. */
  readState(r: StateReader): void {
    this.pendingCount = r.json<number>();
    this.sorted = r.float64();
    this.sortedIds = r.int32();
    this.pending = r.float64();
    this.pendingIds = r.int32();
  }

  private merge(): void {
    const count = this.pendingCount;
    // the queue's values sorted natively, their ids found again through a map of the queue alone
    const idOf = new Map<number, number>();
    for (let i = 0; i < count; i++) idOf.set(this.pending[i], this.pendingIds[i]);
    const news = this.pending.slice(0, count).sort();
    this.pendingCount = 0;
    const old = this.sorted;
    const oldIds = this.sortedIds;
    const out = new Float64Array(old.length + news.length);
    const outIds = new Int32Array(out.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < old.length || j < news.length) {
      const fromOld = j >= news.length || (i < old.length && old[i] <= news[j]);
      const v = fromOld ? old[i] : news[j];
      const id = fromOld ? oldIds[i++] : (idOf.get(news[j++]) as number);
      if (n === 0 || out[n - 1] !== v) {
        outIds[n] = id;
        out[n++] = v;
      }
    }
    this.sorted = n === out.length ? out : out.slice(0, n);
    this.sortedIds = n === outIds.length ? outIds : outIds.slice(0, n);
  }
}
