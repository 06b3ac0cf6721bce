import { Budget, TimeExceeded, type Steps } from './budget';
import { pausedSearches, runSliced } from './scheduler';

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
