import { RateLimiterMemory } from 'rate-limiter-flexible';
import { countOptions, LimiterHitCounts } from './hitCounts';

describe('LimiterHitCounts (rate-limiter-flexible as an atomic counter)', () => {
  const counts = () => new LimiterHitCounts(new RateLimiterMemory(countOptions('test', 60)));

  it('counts hits per key and window, and takes one back', async () => {
    const c = counts();
    expect(await c.count('k:a', 7)).toBe(0);
    expect(await c.add('k:a', 7)).toBe(1);
    expect(await c.add('k:a', 7)).toBe(2);
    expect(await c.add('k:a', 8)).toBe(1);
    expect(await c.add('k:b', 7)).toBe(1);
    await c.remove('k:a', 7);
    expect(await c.count('k:a', 7)).toBe(1);
  });

  it('never refuses however many hits (the sliding window decides)', async () => {
    const c = counts();
    let last = 0;
    for (let i = 0; i < 2000; i++) last = await c.add('many', 1);
    expect(last).toBe(2000);
  });

  it('keeps each window two windows long, so that the next one can read it', () => {
    expect(countOptions('p', 60)).toMatchObject({ keyPrefix: 'p', duration: 120 });
  });
});
