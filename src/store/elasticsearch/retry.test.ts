import { errors } from '@elastic/elasticsearch';
import { backoffDelay, withRetry, type RetryPolicy } from './retry';
import { esError } from './testing/fakeElasticsearch';

const policy: RetryPolicy = { retries: 3, baseDelayMs: 100, maxDelayMs: 300 };

describe('withRetry', () => {
  it('retries connection errors with growing delays, then succeeds', async () => {
    const delays: number[] = [];
    const attempts: number[] = [];
    const result = await withRetry(
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 2) throw new errors.ConnectionError('ECONNRESET');
        return 'done';
      },
      policy,
      async (ms) => void delays.push(ms),
    );
    expect(result).toBe('done');
    expect(attempts).toEqual([0, 1, 2]);
    expect(delays).toHaveLength(2);
    expect(delays[0]).toBeGreaterThanOrEqual(50);
    expect(delays[0]).toBeLessThanOrEqual(100);
    expect(delays[1]).toBeGreaterThanOrEqual(100);
    expect(delays[1]).toBeLessThanOrEqual(200);
  });

  it('gives up after the configured retries with the last error', async () => {
    let calls = 0;
    const failing = withRetry(
      async () => {
        calls++;
        throw new errors.ConnectionError('ECONNREFUSED');
      },
      policy,
      async () => undefined,
    );
    await expect(failing).rejects.toBeInstanceOf(errors.ConnectionError);
    expect(calls).toBe(4);
  });

  it.each([
    ['a timeout (the write may still be applied)', new errors.TimeoutError('timeout')],
    ['an error response', esError(503, 'cluster_block_exception', 'blocked')],
    ['a conflict', esError(409, 'version_conflict_engine_exception', 'conflict')],
  ])('never retries %s', async (_name, err) => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw err;
        },
        policy,
        async () => undefined,
      ),
    ).rejects.toBe(err);
    expect(calls).toBe(1);
  });

  it('caps the delay and spreads it (half fixed, half random)', () => {
    expect(backoffDelay(policy, 1, () => 0)).toBe(50);
    expect(backoffDelay(policy, 1, () => 1)).toBe(100);
    expect(backoffDelay(policy, 2, () => 1)).toBe(200);
    expect(backoffDelay(policy, 5, () => 1)).toBe(300);
  });
});
