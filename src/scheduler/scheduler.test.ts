import { Budget, TimeExceeded, type Steps } from '../store/embedded/engine/budget/budget';
import { pausedSearches, runSliced, setSchedulerClock } from './scheduler';

/** Steps that pause `slices - 1` times, logging each slice. */
function* sliced(name: string, slices: number, log: string[]): Steps<string> {
  for (let i = 0; i < slices; i++) {
    log.push(`${name}${i}`);
    if (i < slices - 1) yield;
  }
  return name;
}

describe('the slice scheduler', () => {
  it('answers at once what ends within its first slice', () => {
    const log: string[] = [];
    expect(runSliced(sliced('a', 1, log), new Budget(1000, 10))).toBe('a');
    expect(pausedSearches()).toBe(0);
  });

  it('runs paused steps one slice per turn of the event loop, round robin, letting other work in between', async () => {
    const log: string[] = [];
    const a = runSliced(sliced('a', 3, log), new Budget(1000, 10));
    const b = runSliced(sliced('b', 3, log), new Budget(1000, 10));
    expect(a).toBeInstanceOf(Promise);
    expect(pausedSearches()).toBe(2);
    // other work scheduled now runs between the slices
    const other = new Promise<void>((resolve) => setImmediate(() => (log.push('io'), resolve())));
    expect(await Promise.all([a, b, other])).toEqual(['a', 'b', undefined]);
    // the first turn gives way (two searches just started: their answers go first), then round robin
    expect(log).toEqual(['a0', 'b0', 'io', 'a1', 'b1', 'a2', 'b2']);
    expect(pausedSearches()).toBe(0);
  });

  it('gives way once when a new search started since its last turn, never twice in a row', async () => {
    const log: string[] = [];
    const long = runSliced(sliced('long', 4, log), new Budget(1000, 10));
    await new Promise((resolve) => setImmediate(resolve)); // its first turn gave way to itself starting
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['long0', 'long1']);
    // a short search starts: the next slice of the long one waits one turn, while the short one's answer would be written
    expect(runSliced(sliced('short', 1, log), new Budget(1000, 10))).toBe('short');
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['long0', 'long1', 'short0']);
    await long;
    expect(log).toEqual(['long0', 'long1', 'short0', 'long2', 'long3']);
  });

  it('rejects with what the steps throw (a deadline included)', async () => {
    let now = 0;
    const budget = new Budget(5, 1, () => now);
    function* late(): Steps<number> {
      yield;
      now = 10;
      budget.due();
      return 1;
    }
    await expect(runSliced(late(), budget)).rejects.toBeInstanceOf(TimeExceeded);
  });
});

describe('short searches first', () => {
  let now = 0;
  beforeAll(() => setSchedulerClock(() => now));
  afterAll(() => setSchedulerClock(() => performance.now()));
  const turnOfTheLoop = () => new Promise((resolve) => setImmediate(resolve));

  /** Steps that take `ms` of the (fake) clock per slice, for `slices` slices. */
  function* costly(name: string, slices: number, ms: number, log: string[]): Steps<string> {
    for (let i = 0; i < slices; i++) {
      log.push(`${name}${i}`);
      now += ms;
      if (i < slices - 1) yield;
    }
    return name;
  }
  const budget = () => new Budget(Infinity, 5, () => now);

  it('a burst of arrivals runs at most a slice of first slices between two turns; the rest wait, ahead of the long searches', async () => {
    const log: string[] = [];
    const a = runSliced(costly('a', 3, 5, log), budget()); // uses the whole allowance
    const b = runSliced(costly('b', 3, 5, log), budget()); // arrives past it: waits, not run yet
    const short = runSliced(costly('s', 1, 0.1, log), budget());
    expect(log).toEqual(['a0']);
    expect([a, b, short].every((p) => p instanceof Promise)).toBe(true);
    expect(pausedSearches()).toBe(3);
    await short;
    // a turn of fresh work (b's first slice used the turn's whole slice), a turn of long work (a's
    // second slice), then s: two slices after it arrived, however many long searches there are
    expect(log.slice(0, 4)).toEqual(['a0', 'b0', 'a1', 's0']);
    expect(await Promise.all([a, b])).toEqual(['a', 'b']);
    expect(pausedSearches()).toBe(0);
  });

  it('a long search still runs every other turn while new ones keep arriving', async () => {
    const log: string[] = [];
    const longOne = runSliced(costly('L', 4, 5, log), budget());
    const arrivals: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i++) {
      // each turn: one arrival uses the allowance (or waits, when it is used), the next one must
      // wait among the fresh ones, so that fresh work waits at every turn
      arrivals.push(Promise.resolve(runSliced(costly(`x${i}-`, 1, 5, log), budget())));
      arrivals.push(runSliced(costly(`y${i}-`, 1, 1, log), budget()) as Promise<unknown>);
      await turnOfTheLoop();
    }
    await Promise.all([longOne, ...arrivals]);
    // L ended while the flood went on, not after it
    expect(log.indexOf('L3')).toBeLessThan(log.indexOf('x11-0'));
  });
});
