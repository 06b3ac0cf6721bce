/**
 * The distinct numeric values of a field in ascending order, for range queries: a sorted array
 * kept up to date lazily. New values are queued and merged in (after a native sort of the queue) the
 * next time a range is asked for, so that indexing stays O(1) per value.
 */
import { EMPTY_FLOAT64, grow } from './growable';

export class SortedKeys {
  private sorted = EMPTY_FLOAT64;
  private pending = EMPTY_FLOAT64;
  private pendingCount = 0;

  add(value: number): void {
    if (this.pendingCount === this.pending.length) this.pending = grow(this.pending, this.pendingCount + 1);
    this.pending[this.pendingCount++] = value;
  }

  /** Every value ever added, ascending, without duplicates. */
  values(): Float64Array {
    if (this.pendingCount > 0) this.merge();
    return this.sorted;
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

  private merge(): void {
    const news = this.pending.slice(0, this.pendingCount).sort();
    this.pendingCount = 0;
    const old = this.sorted;
    const out = new Float64Array(old.length + news.length);
    let i = 0;
    let j = 0;
    let n = 0;
    while (i < old.length || j < news.length) {
      const v = j >= news.length || (i < old.length && old[i] <= news[j]) ? old[i++] : news[j++];
      if (n === 0 || out[n - 1] !== v) out[n++] = v;
    }
    this.sorted = n === out.length ? out : out.slice(0, n);
  }
}
