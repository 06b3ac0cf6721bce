/**
 * Retries after connection errors only (errors.ts says why), with exponential backoff and jitter:
 * delays of about base, 2 base, 4 base... capped at maxDelayMs. Every other outcome, success or
 * failure, is returned at once. The client itself is built with maxRetries 0 (client.ts), so this
 * is the only retry loop.
 */
import { isConnectionError } from './errors';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 100, maxDelayMs: 2000 };

export type Sleep = (ms: number) => Promise<void>;
const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Delay before retry number `attempt` (1-based): half fixed, half random, so that instances spread out. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Runs `op(attempt)` (attempt 0 first), again after each connection error while retries are left. */
export async function withRetry<T>(op: (attempt: number) => Promise<T>, policy: RetryPolicy, sleep: Sleep = realSleep): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await op(attempt);
    } catch (err) {
      if (!isConnectionError(err) || attempt >= policy.retries) throw err;
      await sleep(backoffDelay(policy, attempt + 1));
    }
  }
}
