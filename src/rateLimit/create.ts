/**
 * The rate limits of one gateway process (README "Rate limits"): where the counts live.
 *
 * - One process: in its memory.
 * - WORKERS > 1: in the primary's memory, every worker asking it over node:cluster's IPC
 *   (rate-limiter-flexible's RateLimiterCluster; the primary runs startRateLimitPrimary()), so that
 *   a client's requests count against one counter whichever worker they reach.
 * - REDIS_URL: in Redis (RateLimiterRedis: an atomic Lua increment with expiry per key and window),
 *   shared by every instance of the fleet. While Redis cannot be reached, each instance counts
 *   alone, as without Redis (rate-limiter-flexible's insurance limiter: the memory or the primary
 *   above), and logs a warning; counting in Redis resumes when it is back.
 *
 * A count that cannot be had at all (the primary not answering within 2 s) lets the request
 * through (fail open), with a warning in the log.
 */
import Redis from 'ioredis';
import { RateLimiterCluster, RateLimiterClusterMaster, RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { PolicyName, RateCounter, RateLimits } from '../core/rateLimit/rateLimits';
import type { Logger } from '../log';
import { countOptions, LimiterHitCounts } from './hitCounts';
import type { WindowPolicy } from './policy';
import { SlidingWindowCounter } from './slidingCounter';

export interface RateLimitSettings {
  requests: WindowPolicy | null;
  authFailures: WindowPolicy | null;
}

export interface RateLimitOptions {
  /** This process is one of several workers: the counts are the primary's. */
  worker: boolean;
  /** REDIS_URL and REDIS_PREFIX: the counts are in Redis, under `<prefix>:rl:`. */
  redis?: { url: string; prefix: string };
  logger: Logger;
}

export interface RateLimitBackend {
  limits: RateLimits;
  close(): Promise<void>;
}

/** A worker's IPC request to the primary given up after this long (the request is then let through). */
const PRIMARY_TIMEOUT_MS = 2000;
/** A Redis command given up after this long (the request is then counted by this instance alone). */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** At most one warning a minute for the same trouble. */
const WARN_EVERY_MS = 60_000;

const PREFIX: Record<PolicyName, string> = { requests: 'requests', 'auth-failures': 'auth-failures' };

/** In the primary of WORKERS > 1, before the workers start: it holds their counts. */
export function startRateLimitPrimary(): void {
  new RateLimiterClusterMaster();
}

function throttled(warn: (err: unknown) => void): (err: unknown) => void {
  let last = -Infinity;
  return (err) => {
    if (Date.now() - last < WARN_EVERY_MS) return;
    last = Date.now();
    warn(err);
  };
}

export function createRateLimits(settings: RateLimitSettings, options: RateLimitOptions): RateLimitBackend {
  const { logger } = options;
  if (settings.requests === null && settings.authFailures === null) return { limits: { requests: null, authFailures: null }, close: async () => undefined };

  let redis: Redis | undefined;
  if (options.redis !== undefined) {
    // no offline queue and a short command timeout: a count Redis cannot give at once is counted here instead
    redis = new Redis(options.redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
    let down = false;
    const warnDown = throttled((err) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'Redis unreachable: rate limits are counted by this instance alone until it is back'));
    redis.on('error', (err: Error) => {
      down = true;
      warnDown(err);
    });
    redis.on('ready', () => {
      if (down) logger.info('Redis reachable again: rate limits are shared by the fleet again');
      down = false;
    });
  }
  const unreachable = throttled((err) => logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'rate limit counts unreachable: requests let through'));

  const counter = (policy: PolicyName, window: WindowPolicy | null): RateCounter | null => {
    if (window === null) return null;
    const local = (prefix: string): RateLimiterAbstract =>
      options.worker ? new RateLimiterCluster({ ...countOptions(prefix, window.windowSeconds), timeoutMs: PRIMARY_TIMEOUT_MS }) : new RateLimiterMemory(countOptions(prefix, window.windowSeconds));
    const limiter =
      redis === undefined
        ? local(`gateway-rl-${PREFIX[policy]}`)
        : new RateLimiterRedis({
            ...countOptions(`${options.redis!.prefix}:rl:${PREFIX[policy]}`, window.windowSeconds),
            storeClient: redis,
            rejectIfRedisNotReady: true,
            insuranceLimiter: local(`gateway-rl-insurance-${PREFIX[policy]}`),
          });
    return new SlidingWindowCounter(policy, window, new LimiterHitCounts(limiter), unreachable);
  };

  return {
    limits: { requests: counter('requests', settings.requests), authFailures: counter('auth-failures', settings.authFailures) },
    async close() {
      if (redis === undefined) return;
      // (quit needs a connection; without one, stop trying to make one)
      if (redis.status === 'ready') await redis.quit().catch(() => redis!.disconnect());
      else redis.disconnect();
    },
  };
}
