/**
 * The sliding window counter (as Cloudflare and nginx's limit_req estimate it): hits are counted in
 * fixed windows aligned on the clock, and the hits of the last `window` seconds are estimated as
 * the previous window's count, weighted by the part of it still inside the sliding window, plus the
 * current window's. Two counters per key, each a plain atomic increment in any store; no burst of
 * twice the limit across a window's edge, as a fixed window allows.
 */
import type { PolicyName, RateState } from '../core/rateLimit/rateLimits';
import type { WindowPolicy } from './policy';

/** (floating point: 0.1 + 0.2) */
const EPSILON = 1e-9;

/** Hits in the last window: `previous` weighted by what of it is still inside, plus `current`. */
export function estimate(previous: number, current: number, elapsedMs: number, windowMs: number): number {
  return (previous * (windowMs - elapsedMs)) / windowMs + current;
}

/**
 * How long until one more hit fits (ms), the counts staying as they are: within the current window
 * when the previous one's weight fading is enough, else into the next, where the current window's
 * count fades in turn.
 */
export function msUntilRoom(limit: number, previous: number, current: number, elapsedMs: number, windowMs: number): number {
  const left = windowMs - elapsedMs;
  if (current + 1 <= limit + EPSILON) {
    if (previous === 0) return 0;
    const wait = Math.max(0, left - ((limit - current - 1) * windowMs) / previous);
    if (wait <= left) return wait;
  }
  // next window: current * (windowMs - g) / windowMs + 1 <= limit
  const g = current === 0 ? 0 : Math.max(0, windowMs - ((limit - 1) * windowMs) / current);
  return left + g;
}

/**
 * The state of a key whose counts are `previous` and `current` (this hit included when `hit`):
 * refused when the estimate is over the limit.
 */
export function decide(policy: PolicyName, { limit, windowSeconds }: WindowPolicy, previous: number, current: number, elapsedMs: number): RateState {
  const windowMs = windowSeconds * 1000;
  const used = estimate(previous, current, elapsedMs, windowMs);
  if (used <= limit + EPSILON) {
    const remaining = Math.max(0, Math.floor(limit - used + EPSILON));
    // more room comes as this window's hits start to leave the sliding window: when it ends (sooner when the previous one's are leaving now)
    const resetSeconds = Math.max(1, Math.ceil((windowMs - elapsedMs) / 1000));
    return { policy, limit, windowSeconds, remaining, resetSeconds, refused: false, retryAfterSeconds: 0 };
  }
  // the refused hit is not counted: when would the next one fit?
  const wait = Math.max(1, Math.ceil(msUntilRoom(limit, previous, current - 1, elapsedMs, windowMs) / 1000));
  return { policy, limit, windowSeconds, remaining: 0, resetSeconds: wait, refused: true, retryAfterSeconds: wait };
}
