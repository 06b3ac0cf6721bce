import { Writable } from 'node:stream';
import Redis from 'ioredis';
import pino from 'pino';
import { describeWithRedis, startRedis, type RedisServer } from '../../test/support/redis';
import { freePort } from '../../test/support/processes';
import { createRateLimits, type RateLimitBackend } from './create';

/** A logger whose lines are kept. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

const settings = { requests: { limit: 3, windowSeconds: 60 }, authFailures: { limit: 2, windowSeconds: 60 } };

async function hits(backend: RateLimitBackend, key: string, n: number): Promise<(boolean | null)[]> {
  const out: (boolean | null)[] = [];
  for (let i = 0; i < n; i++) out.push((await backend.limits.requests!.hit(key))?.refused ?? null);
  return out;
}

describe('createRateLimits', () => {
  it('has no counter for a limit that is off', async () => {
    const { logger } = capturingLogger();
    const off = createRateLimits({ requests: null, authFailures: null }, { worker: false, logger });
    expect(off.limits).toEqual({ requests: null, authFailures: null });
    const one = createRateLimits({ requests: null, authFailures: settings.authFailures }, { worker: false, logger });
    expect(one.limits.requests).toBeNull();
    expect(one.limits.authFailures).toMatchObject({ policy: 'auth-failures', limit: 2, windowSeconds: 60 });
    await Promise.all([off.close(), one.close()]);
  });

  it('counts in this process without workers or Redis, each limit apart', async () => {
    const { logger } = capturingLogger();
    const backend = createRateLimits(settings, { worker: false, logger });
    expect(await hits(backend, 'u::alice', 4)).toEqual([false, false, false, true]);
    expect((await backend.limits.authFailures!.hit('u::alice'))!.refused).toBe(false);
    await backend.close();
  });

  it('falls back to counting alone, with a warning, when Redis cannot be reached', async () => {
    const { logger, lines } = capturingLogger();
    const port = await freePort(); // nobody listens there
    const backend = createRateLimits(settings, { worker: false, redis: { url: `redis://127.0.0.1:${port}`, prefix: 'test' }, logger });
    expect(await hits(backend, 'k:key-1', 4)).toEqual([false, false, false, true]);
    await new Promise((r) => setTimeout(r, 200));
    expect(lines.some((l) => l.level === 40 && /Redis unreachable: rate limits are counted by this instance alone/.test(String(l.msg)))).toBe(true);
    await backend.close();
  });
});

describeWithRedis('createRateLimits with Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  it('shares the counts of every instance with the same prefix (atomic increments)', async () => {
    const { logger, lines } = capturingLogger();
    const options = { worker: false, redis: { url: redis.url, prefix: 'fleet-a' }, logger };
    const a = createRateLimits(settings, options);
    const b = createRateLimits(settings, options);
    const other = createRateLimits(settings, { ...options, redis: { url: redis.url, prefix: 'fleet-b' } });
    // (first connection)
    await new Promise((r) => setTimeout(r, 200));
    // concurrent hits from both instances: exactly 3 allowed
    const all = await Promise.all([...Array(3)].flatMap(() => [a.limits.requests!.hit('k:shared'), b.limits.requests!.hit('k:shared')]));
    expect(all.filter((s) => s !== null && !s.refused)).toHaveLength(3);
    expect(all.filter((s) => s?.refused)).toHaveLength(3);
    // another fleet counts apart
    expect((await other.limits.requests!.hit('k:shared'))!.refused).toBe(false);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    await Promise.all([a.close(), b.close(), other.close()]);
  });

  it('keeps no token in Redis: keys are the policy, the principal and the window', async () => {
    const { logger } = capturingLogger();
    const backend = createRateLimits(settings, { worker: false, redis: { url: redis.url, prefix: 'keys' }, logger });
    await new Promise((r) => setTimeout(r, 200));
    await backend.limits.requests!.hit('u:acme:alice');
    await backend.limits.authFailures!.hit('127.0.0.1');
    const client = new Redis(redis.url);
    const keys = (await client.keys('keys:*')).sort();
    await client.quit();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^keys:rl:auth-failures:127\.0\.0\.1\|\d+$/);
    expect(keys[1]).toMatch(/^keys:rl:requests:u:acme:alice\|\d+$/);
    await backend.close();
  });
});
