/**
 * Rate limits as the core sees them (README "Rate limits"): counters of hits per key over a window,
 * implemented outside the core (src/rateLimit: in memory, shared by the workers through the
 * primary, or shared by every instance through Redis). The core decides what is counted, and
 * against which key (admission.ts); a counter decides whether one more hit fits.
 */

/** RATE_LIMIT counts `requests` per principal; RATE_LIMIT_AUTH_FAILURES counts refused tokens per client address. */
export type PolicyName = 'requests' | 'auth-failures';

/** What a counter knows of a key after a hit (or a look): what the RateLimit headers say. */
export interface RateState {
  policy: PolicyName;
  /** Hits allowed per window (the policy's `q`). */
  limit: number;
  /** The window, in seconds (the policy's `w`). */
  windowSeconds: number;
  /** Hits still allowed now (`r`). */
  remaining: number;
  /** Seconds until more hits are allowed (`t`). */
  resetSeconds: number;
  /** Whether the hit was refused (not counted); then `retryAfterSeconds` says when to come back. */
  refused: boolean;
  retryAfterSeconds: number;
}

export interface RateCounter {
  readonly policy: PolicyName;
  readonly limit: number;
  readonly windowSeconds: number;
  /**
   * Counts one hit of `key`, unless it is over the limit (then refused and not counted). null when
   * the counts could not be reached: the hit is let through (fail open; the implementation logs it).
   */
  hit(key: string): Promise<RateState | null>;
  /** Whether one more hit of `key` would be refused now, without counting one; null as for hit. */
  peek(key: string): Promise<RateState | null>;
}

/** Both limits; null where it is off. Never rejects. */
export interface RateLimits {
  requests: RateCounter | null;
  authFailures: RateCounter | null;
}
