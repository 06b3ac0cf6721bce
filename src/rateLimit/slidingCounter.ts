/**
 * A RateCounter (core/rateLimit/rateLimits.ts) over HitCounts: the sliding window of
 * slidingWindow.ts, one increment per hit (and one decrement per refused hit), the previous
 * window's count read once per key and window (it no longer changes), then kept here.
 */
import type { PolicyName, RateCounter, RateState } from '../core/rateLimit/rateLimits';
import type { HitCounts } from './hitCounts';
import type { WindowPolicy } from './policy';
import { decide } from './slidingWindow';

/** Previous-window counts kept at most (then forgotten, and read again). */
const MAX_KEPT = 100_000;

export class SlidingWindowCounter implements RateCounter {
  readonly limit: number;
  readonly windowSeconds: number;
  private readonly windowMs: number;
  /** key -> its count in window `keptWindow - 1` */
  private kept = new Map<string, number>();
  private keptWindow = -1;

  constructor(
    readonly policy: PolicyName,
    private readonly window: WindowPolicy,
    private readonly counts: HitCounts,
    /** Told when the counts cannot be reached (the hit is then let through). */
    private readonly unreachable: (err: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.limit = window.limit;
    this.windowSeconds = window.windowSeconds;
    this.windowMs = window.windowSeconds * 1000;
  }

  async hit(key: string): Promise<RateState | null> {
    const at = this.now();
    const index = Math.floor(at / this.windowMs);
    try {
      const [current, previous] = await Promise.all([this.counts.add(key, index), this.previous(key, index)]);
      const state = decide(this.policy, this.window, previous, current, at - index * this.windowMs);
      if (state.refused) this.counts.remove(key, index).catch(this.unreachable);
      return state;
    } catch (err) {
      this.unreachable(err);
      return null;
    }
  }

  async peek(key: string): Promise<RateState | null> {
    const at = this.now();
    const index = Math.floor(at / this.windowMs);
    try {
      const [current, previous] = await Promise.all([this.counts.count(key, index), this.previous(key, index)]);
      return decide(this.policy, this.window, previous, current + 1, at - index * this.windowMs);
    } catch (err) {
      this.unreachable(err);
      return null;
    }
  }

  private async previous(key: string, index: number): Promise<number> {
    if (index !== this.keptWindow || this.kept.size >= MAX_KEPT) {
      this.kept = new Map();
      this.keptWindow = index;
    }
    const known = this.kept.get(key);
    if (known !== undefined) return known;
    const count = await this.counts.count(key, index - 1);
    if (this.keptWindow === index) this.kept.set(key, count);
    return count;
  }
}
