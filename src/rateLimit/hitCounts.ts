/**
 * Hits per key and per clock-aligned window, kept by a rate-limiter-flexible limiter used as an
 * atomic counter with expiry (its `consume` is an increment: INCRBY in a Lua script on Redis, a Map
 * in the primary for the workers, a Map here for one process). Each window's count lives two
 * windows, so that the next window can still read it.
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

export interface HitCounts {
  /** Adds one hit to `key` in window `window`; answers the count after it. */
  add(key: string, window: number): Promise<number>;
  /** Takes one hit back (a refused one). */
  remove(key: string, window: number): Promise<void>;
  count(key: string, window: number): Promise<number>;
}

/** The counter's `points`: so many that `consume` never refuses (the sliding window decides). */
export const UNLIMITED_POINTS = 2_000_000_000;

/** rate-limiter-flexible options for the counts of windows of `windowSeconds`. */
export const countOptions = (keyPrefix: string, windowSeconds: number) => ({ keyPrefix, points: UNLIMITED_POINTS, duration: windowSeconds * 2 });

const slot = (key: string, window: number): string => `${key}|${window}`;

export class LimiterHitCounts implements HitCounts {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  async add(key: string, window: number): Promise<number> {
    return (await this.limiter.consume(slot(key, window), 1)).consumedPoints;
  }

  async remove(key: string, window: number): Promise<void> {
    await this.limiter.reward(slot(key, window), 1);
  }

  async count(key: string, window: number): Promise<number> {
    return (await this.limiter.get(slot(key, window)))?.consumedPoints ?? 0;
  }
}
