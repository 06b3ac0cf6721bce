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
    expect(log).toEqual(['a0', 'b0', 'a1', 'io', 'b1', 'a2', 'b2']);
    expect(pausedSearches()).toBe(0);
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
