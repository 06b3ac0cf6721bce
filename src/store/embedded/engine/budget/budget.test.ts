import { Budget, TimeExceeded, UNLIMITED, runToEnd, type Steps } from './budget';

function* countTo(n: number, budget: Budget, pauses: { n: number }): Steps<number> {
  let sum = 0;
  for (let i = 1; i <= n; i++) {
    sum += i;
    if (budget.due()) {
      pauses.n++;
      yield;
    }
  }
  return sum;
}

describe('a search budget', () => {
  it('never pauses nor stops when unlimited', () => {
    const pauses = { n: 0 };
    expect(runToEnd(countTo(10_000, UNLIMITED, pauses))).toBe(50_005_000);
    expect(pauses.n).toBe(0);
  });

  it('says when a slice is over, and a new slice starts afresh', () => {
    let now = 0;
    const budget = new Budget(1000, 10, () => now);
    expect(budget.due()).toBe(false);
    now = 10;
    expect(budget.due()).toBe(true);
    budget.startSlice();
    expect(budget.due()).toBe(false);
  });

  it('throws TimeExceeded at the deadline and remembers it', () => {
    let now = 0;
    const budget = new Budget(50, 10, () => now);
    now = 49;
    expect(budget.due()).toBe(true);
    now = 50;
    expect(() => budget.due()).toThrow(TimeExceeded);
    expect(budget.timedOut).toBe(true);
  });

  it('stops steps at the deadline wherever they stand', () => {
    let now = 0;
    const budget = new Budget(100, Infinity, () => now++);
    expect(() => runToEnd(countTo(1000, budget, { n: 0 }))).toThrow(TimeExceeded);
    expect(now).toBeLessThan(110);
  });
});
