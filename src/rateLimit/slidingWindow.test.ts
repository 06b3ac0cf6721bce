import { decide, estimate, msUntilRoom } from './slidingWindow';

const W = 60_000;
const policy = { limit: 3, windowSeconds: 60 };

describe('the sliding window estimate', () => {
  it('weights the previous window by the part of it still inside the sliding window', () => {
    expect(estimate(10, 2, 0, W)).toBe(12);
    expect(estimate(10, 2, W / 2, W)).toBe(7);
    expect(estimate(10, 2, W * 0.9, W)).toBeCloseTo(3);
  });
});

describe('decide', () => {
  it('allows hits up to the limit, with what remains and when the window ends', () => {
    expect(decide('requests', policy, 0, 1, 10_000)).toEqual({ policy: 'requests', limit: 3, windowSeconds: 60, remaining: 2, resetSeconds: 50, refused: false, retryAfterSeconds: 0 });
    expect(decide('requests', policy, 0, 3, 10_000)).toMatchObject({ remaining: 0, refused: false });
  });

  it('refuses the hit past the limit, and says when one fits again', () => {
    // 3 hits this window, 10 s in: the fourth fits once the next window has faded this one's to 2: 20 s into it
    expect(decide('requests', policy, 0, 4, 10_000)).toEqual({ policy: 'requests', limit: 3, windowSeconds: 60, remaining: 0, resetSeconds: 70, refused: true, retryAfterSeconds: 70 });
  });

  it('counts the previous window: no burst of twice the limit across the edge', () => {
    // 3 hits at the end of the previous window; 1 s into this one they still weigh 2.95
    expect(decide('requests', policy, 3, 1, 1000).refused).toBe(true);
    // half-way, they weigh 1.5: one more fits (1.5 + 1), not two
    expect(decide('requests', policy, 3, 1, 30_000)).toMatchObject({ refused: false, remaining: 0 });
    expect(decide('requests', policy, 3, 2, 30_000).refused).toBe(true);
  });

  it('never says to come back in less than a second', () => {
    const state = decide('auth-failures', { limit: 1, windowSeconds: 1 }, 0, 2, 999);
    expect(state.refused).toBe(true);
    expect(state.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });
});

describe('msUntilRoom', () => {
  it('is the moment the estimate leaves room for one more hit', () => {
    for (const [previous, current, elapsed] of [
      [3, 0, 1000],
      [3, 2, 30_000],
      [0, 3, 10_000],
      [5, 3, 59_000],
      [100, 0, 0],
    ]) {
      const wait = msUntilRoom(3, previous, current, elapsed, W);
      const at = elapsed + wait;
      // (evaluated where it lands: this window, or the next one, where `current` is the previous)
      const after = at < W ? estimate(previous, current, at, W) : estimate(current, 0, at - W, W);
      expect(after + 1).toBeLessThanOrEqual(3 + 1e-6);
      // and not much sooner
      const before = at - 1000 < W ? estimate(previous, current, Math.max(elapsed, at - 1000), W) : estimate(current, 0, at - 1000 - W, W);
      if (wait >= 1000) expect(before + 1).toBeGreaterThan(3);
    }
  });
});
