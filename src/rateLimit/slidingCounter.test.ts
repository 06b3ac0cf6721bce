import { RateLimiterMemory } from 'rate-limiter-flexible';
import { countOptions, LimiterHitCounts, type HitCounts } from './hitCounts';
import { SlidingWindowCounter } from './slidingCounter';

const W = 60_000;
/** the start of a window, as the counter's clock */
const T0 = 1_000_000 * W;

function counter(limit: number, counts: HitCounts = new LimiterHitCounts(new RateLimiterMemory(countOptions('t', 60))), unreachable = jest.fn()) {
  let now = T0;
  const c = new SlidingWindowCounter('requests', { limit, windowSeconds: 60 }, counts, unreachable, () => now);
  return { c, unreachable, at: (ms: number) => (now = T0 + ms) };
}

describe('SlidingWindowCounter', () => {
  it('allows `limit` hits per key, refuses the next, and counts refused hits not', async () => {
    const { c } = counter(3);
    const states = [];
    for (let i = 0; i < 5; i++) states.push(await c.hit('u:acme:alice'));
    expect(states.map((s) => [s!.refused, s!.remaining])).toEqual([
      [false, 2],
      [false, 1],
      [false, 0],
      [true, 0],
      [true, 0],
    ]);
    // (3 hits this window: the next fits 20 s into the next window, when they weigh 2)
    expect(states[3]).toMatchObject({ policy: 'requests', limit: 3, windowSeconds: 60, retryAfterSeconds: 80 });
    // refused hits were not counted: a look says the same
    expect(await c.peek('u:acme:alice')).toMatchObject({ refused: true, retryAfterSeconds: 80 });
  });

  it('keeps keys apart', async () => {
    const { c } = counter(1);
    expect((await c.hit('k:one'))!.refused).toBe(false);
    expect((await c.hit('k:one'))!.refused).toBe(true);
    expect((await c.hit('k:two'))!.refused).toBe(false);
  });

  it('lets the previous window weigh as it slides out', async () => {
    const { c, at } = counter(4);
    at(50_000);
    for (let i = 0; i < 4; i++) expect((await c.hit('k'))!.refused).toBe(false);
    at(W + 15_000); // the 4 hits weigh 3: one more fits
    expect(await c.hit('k')).toMatchObject({ refused: false, remaining: 0 });
    expect((await c.hit('k'))!.refused).toBe(true);
    at(W + 45_000); // they weigh 1, plus this window's 1
    expect(await c.hit('k')).toMatchObject({ refused: false, remaining: 1 });
  });

  it('peek counts nothing', async () => {
    const { c } = counter(2);
    for (let i = 0; i < 5; i++) expect(await c.peek('k')).toMatchObject({ refused: false, remaining: 1 });
    await c.hit('k');
    await c.hit('k');
    expect((await c.peek('k'))!.refused).toBe(true);
  });

  it('lets the hit through (null) and tells once why when the counts cannot be reached', async () => {
    const broken: HitCounts = { add: () => Promise.reject(new Error('down')), remove: () => Promise.reject(new Error('down')), count: () => Promise.reject(new Error('down')) };
    const { c, unreachable } = counter(1, broken);
    expect(await c.hit('k')).toBeNull();
    expect(await c.peek('k')).toBeNull();
    expect(unreachable).toHaveBeenCalledWith(expect.objectContaining({ message: 'down' }));
  });

  it('reads the previous window once per key and window', async () => {
    const inner = new LimiterHitCounts(new RateLimiterMemory(countOptions('t2', 60)));
    const count = jest.spyOn(inner, 'count');
    const { c } = counter(100, inner);
    for (let i = 0; i < 5; i++) await c.hit('k');
    expect(count).toHaveBeenCalledTimes(1);
  });
});
