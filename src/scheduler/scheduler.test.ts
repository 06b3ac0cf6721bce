import { Budget, TimeExceeded, type Steps } from '../store/embedded/engine/budget/budget';
import { COSTLY_SLICES, FIRST_SLICE_MS, STARVE_SLICES, admissionState, answerSoon, pausedSearches, runSliced, setAdmission, setSchedulerClock } from './scheduler';

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

  it('runs paused steps one slice per turn of the event loop, letting other work in between', async () => {
    const log: string[] = [];
    const a = runSliced(sliced('a', 3, log), new Budget(1000, 10));
    const b = runSliced(sliced('b', 3, log), new Budget(1000, 10));
    expect(a).toBeInstanceOf(Promise);
    expect(pausedSearches()).toBe(2);
    // other work scheduled now runs between the slices
    const other = new Promise<void>((resolve) => setImmediate(() => (log.push('io'), resolve())));
    expect(await Promise.all([a, b, other])).toEqual(['a', 'b', undefined]);
    // a slice a turn, the one that has run the least first (a or b, as the clock saw them), with
    // the I/O in between
    expect(log.slice(0, 2)).toEqual(['a0', 'b0']);
    expect(log.indexOf('io')).toBeLessThanOrEqual(3);
    expect(log.filter((s) => s.startsWith('a'))).toEqual(['a0', 'a1', 'a2']);
    expect(log.filter((s) => s.startsWith('b'))).toEqual(['b0', 'b1', 'b2']);
    expect(pausedSearches()).toBe(0);
  });

  it('writes the answers given to answerSoon before the next slice, in order', async () => {
    const log: string[] = [];
    const longOne = runSliced(sliced('long', 3, log), new Budget(1000, 10)); // paused: its next slice is queued for the check phase
    expect(log).toEqual(['long0']);
    // answers made after it (in the poll phase, say), queued behind its turn
    answerSoon(() => log.push('answer 1'));
    answerSoon(() => log.push('answer 2'));
    await longOne;
    expect(log).toEqual(['long0', 'answer 1', 'answer 2', 'long1', 'long2']);
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
    // or b's second slice: both have run 5 ms), then s: two slices after it arrived, however many
    // long searches there are
    expect(log.slice(0, 2)).toEqual(['a0', 'b0']);
    expect(['a1', 'b1']).toContain(log[2]);
    expect(log[3]).toBe('s0');
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

  it('new work runs a first slice of FIRST_SLICE_MS, then whole slices', async () => {
    const slices: number[] = [];
    const b = budget();
    /** Works 0.1 ms a step until the budget says its slice is over, for 12 ms in all. */
    function* checking(): Steps<number> {
      let from = now;
      for (let worked = 0; worked < 12; worked += 0.1) {
        now += 0.1;
        if (b.due()) {
          slices.push(Math.round(now - from));
          yield;
          from = now;
        }
      }
      slices.push(Math.round(now - from));
      return slices.length;
    }
    await runSliced(checking(), b);
    expect(slices).toEqual([FIRST_SLICE_MS, 5, 5, 12 - FIRST_SLICE_MS - 10]);
  });

  it('of the paused work, the one that has run the least goes first: a search just past its first slice before those that ran many', async () => {
    const log: string[] = [];
    const longOne = runSliced(costly('L', 5, 5, log), budget());
    await turnOfTheLoop(); // L1: L has run 10 ms
    expect(log).toEqual(['L0', 'L1']);
    const shorter = runSliced(costly('S', 3, 1, log), budget()); // 1 ms then paused: it has run the least
    await shorter;
    await longOne;
    expect(log).toEqual(['L0', 'L1', 'S0', 'S1', 'S2', 'L2', 'L3', 'L4']);
  });

  it(`paused work that has waited ${STARVE_SLICES} of its slices runs, however many new searches have run less`, async () => {
    const log: string[] = [];
    const starving = runSliced(costly('L', 2, 5, log), budget()); // has run 5 ms: after every newcomer
    const arrivals: Promise<unknown>[] = [];
    // one arrival a turn, each 3 slices of 1 ms: there is always paused work that has run less than L
    for (let i = 0; i < 60; i++) {
      arrivals.push(Promise.resolve(runSliced(costly(`x${i}-`, 3, 1, log), budget())));
      await turnOfTheLoop();
    }
    await Promise.all([starving, ...arrivals]);
    const ranAt = log.indexOf('L1');
    // L waited about STARVE_SLICES * 5 ms of others' work (1 ms a slice), not for all of it
    expect(ranAt).toBeGreaterThanOrEqual(STARVE_SLICES * 5 - 10);
    expect(ranAt).toBeLessThan(STARVE_SLICES * 5 + 20);
  });
});

describe('admission of costly searches (SEARCH_CONCURRENCY, SEARCH_QUEUE_SIZE)', () => {
  let now = 0;
  beforeAll(() => setSchedulerClock(() => now));
  afterAll(() => setSchedulerClock(() => performance.now()));
  afterEach(() => setAdmission(Infinity, Infinity));
  const budget = () => new Budget(Infinity, 1, () => now);
  class Refused extends Error {
    constructor(readonly running: number, readonly queued: number) {
      super('refused');
    }
  }
  const refusal = (running: number, queued: number) => new Refused(running, queued);

  /**
   * A search that logs its slices and whether its finally block ran: `slices` slices of 1 ms (fake
   * clock), the first COSTLY_SLICES - 1 of them unlogged, so that it is costly at its first logged
   * slice.
   */
  function* search(name: string, slices: number, log: string[], cheap = COSTLY_SLICES - 1): Steps<string> {
    try {
      for (let i = 0; i < cheap; i++) {
        now += 1;
        yield;
      }
      for (let i = 0; i < slices; i++) {
        log.push(`${name}${i}`);
        now += 1;
        if (i < slices - 1) yield;
      }
      return name;
    } finally {
      log.push(`${name} done`);
    }
  }

  const turnOfTheLoop = () => new Promise((resolve) => setImmediate(resolve));
  const until = async (ready: () => boolean) => {
    while (!ready()) await turnOfTheLoop();
  };

  it('runs at most `running` costly searches at once, queues `queued` more in order of arrival, refuses the next', async () => {
    setAdmission(1, 1);
    const log: string[] = [];
    const names = ['a', 'b', 'c'];
    const outcomes = Promise.allSettled(names.map((name) => runSliced(search(name, 3, log), budget(), refusal)));
    await until(() => log.some((s) => s.endsWith(' done')));
    const settled = await outcomes;
    // one ran, one waited for its place, the third was refused (its finally ran)
    const refused = names.filter((_, i) => settled[i].status === 'rejected');
    expect(refused).toHaveLength(1);
    expect((settled[names.indexOf(refused[0])] as PromiseRejectedResult).reason).toEqual(new Refused(1, 1));
    expect(log).toContain(`${refused[0]} done`);
    const [first, second] = names.filter((n) => n !== refused[0]).sort((x, y) => log.indexOf(`${x} done`) - log.indexOf(`${y} done`));
    // the second went on past the slice that made it costly only once the first had ended
    expect(log.indexOf(`${second}1`)).toBeGreaterThan(log.indexOf(`${first} done`));
    expect(log.indexOf(`${second}0`)).toBeLessThan(log.indexOf(`${first} done`));
    expect(admissionState()).toEqual({ running: 0, queued: 0 });
    expect(pausedSearches()).toBe(0);
  });

  it('never queues nor refuses a search before it is costly, however full the queue', async () => {
    setAdmission(1, 0);
    const log: string[] = [];
    const a = runSliced(search('a', 30, log), budget(), refusal);
    await until(() => admissionState().running === 1);
    // a search of fewer slices than COSTLY_SLICES: paused, but never costly
    const plain = runSliced(search('p', COSTLY_SLICES - 1, log, 0), budget(), refusal);
    expect(await Promise.all([a, plain])).toEqual(['a', 'p']);
    expect(log.indexOf('p done')).toBeLessThan(log.indexOf('a done'));
  });

  it('gives the place of a search that failed to the next', async () => {
    setAdmission(1, 5);
    const failingBudget = new Budget(20, 1, () => now);
    function* late(): Steps<number> {
      for (let i = 0; i < COSTLY_SLICES; i++) yield;
      now += 100;
      failingBudget.due(); // past its deadline
      return 1;
    }
    const failing = runSliced(late(), failingBudget, refusal);
    const log: string[] = [];
    const next = runSliced(search('n', 2, log), budget(), refusal);
    await expect(failing).rejects.toBeInstanceOf(TimeExceeded);
    expect(await next).toBe('n');
    expect(admissionState()).toEqual({ running: 0, queued: 0 });
  });

  it('leaves other work (bodies being parsed, pages being written) out of the count', async () => {
    setAdmission(1, 0);
    const log: string[] = [];
    const a = runSliced(search('a', 30, log), budget(), refusal);
    const parse = runSliced(search('p', 30, log), budget());
    await until(() => log.includes('p0'));
    expect(admissionState()).toEqual({ running: 1, queued: 0 });
    expect(await Promise.all([a, parse])).toEqual(['a', 'p']);
  });
});
