/**
 * Runs the work that does not finish within one slice — the engine's searches (their `Steps`, within
 * their Budget) and the transports' parsing of large request bodies (transport/jsonSteps.ts) — in
 * one queue, so that short searches are never queued
 * behind long ones: a two-level feedback queue (the shortest-job-first approximation of operating
 * system schedulers), driven by turns of the event loop (setImmediate).
 *
 * - A new search runs its first slice at once, on arrival, as long as the searches that arrived
 *   since the scheduler's last turn have not used a slice's worth of time between them. Past that
 *   (a burst of arrivals, each taking its whole slice) a new search waits in the `fresh` queue
 *   instead of running: without that allowance, eight long searches arriving together would each run
 *   a first slice before anything else, and a short search behind them would wait eight slices.
 * - A turn runs the fresh searches first, one after another, until a slice's worth of time is used,
 *   or one slice of the oldest `long` search (those that have run a whole slice without finishing),
 *   round robin. When both queues wait, turns alternate between them, so a long search is never
 *   starved by a flood of new ones (it runs at least every other turn until its `timeout`).
 * - Between two turns Node handles whatever I/O is ready (new requests, health checks, WebSocket
 *   pings); when searches started since the last turn, the next turn waits one more turn (at most
 *   once in a row) so that their answers, written from the same phase, leave first.
 *
 * A short search thus waits at most about two slices however many long ones run (one of arrivals,
 * one of a long search), and a long one takes longer the more there are.
 *
 * Hand-written: what is scheduled here are generators of the engine, in the same thread (worker
 * threads would each need their own copy of the index); no library schedules those.
 */

/** A computation that may pause (yield) between slices and finally returns T. */
export type Steps<T> = Generator<void, T, void>;

/** What the scheduler needs of a task's clock: its slice length, and a new slice starting. */
export interface SliceClock {
  readonly sliceMs: number;
  startSlice(): void;
}

/**
 * The slice clock of work without a deadline (a large body being parsed): `over()` tells the work
 * to yield.
 */
export class Slice implements SliceClock {
  private end: number;

  constructor(
    readonly sliceMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.end = now() + sliceMs;
  }

  startSlice(): void {
    this.end = this.now() + this.sliceMs;
  }

  /** The slice is over (costs a clock read: call it every thousand steps or so). */
  over(): boolean {
    return this.now() >= this.end;
  }
}

/** The slice length of the work that has no setting of its own (SEARCH_SLICE_MS, set at start). */
let defaultSliceMs = 5;

export function setDefaultSliceMs(ms: number): void {
  defaultSliceMs = ms;
}

export function getDefaultSliceMs(): number {
  return defaultSliceMs;
}

interface Task {
  steps: Steps<unknown>;
  budget: SliceClock;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A FIFO queue with an amortized O(1) shift. */
class Queue {
  private items: Task[] = [];
  private head = 0;
  get size(): number {
    return this.items.length - this.head;
  }
  push(task: Task): void {
    this.items.push(task);
  }
  shift(): Task | undefined {
    if (this.head === this.items.length) return undefined;
    const task = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items.splice(0, this.head);
      this.head = 0;
    }
    return task;
  }
}

/** Searches that have not run yet (arrived past the allowance). */
const fresh = new Queue();
/** Searches that have run at least one whole slice. */
const long = new Queue();
let scheduled = false;
/** Searches that ran a first slice on arrival, in all and as of the last turn. */
let started = 0;
let startedAtLastTurn = 0;
/** The last turn gave way (see turn). */
let gaveWay = false;
/** The last turn ran fresh searches (the next one, if long ones wait, runs one of them). */
let lastRanFresh = false;
/** Time the searches that arrived since the last turn spent in their first slice (ms). */
let arrivalsSpent = 0;

let clock: () => number = () => performance.now();

/** Tests: the clock the scheduler measures the arrivals' time with. */
export function setSchedulerClock(next: () => number): void {
  clock = next;
}

/** Searches paused and waiting for their next slice (for tests and metrics). */
export function pausedSearches(): number {
  return fresh.size + long.size;
}

/**
 * Run `steps` one slice at a time: the value at once when they finish within a first slice run now,
 * else a promise of it (the rest runs from the scheduler).
 */
export function runSliced<T>(steps: Steps<T>, budget: SliceClock): T | Promise<T> {
  if (arrivalsSpent >= budget.sliceMs && pausedSearches() > 0) return enqueue(fresh, steps, budget);
  started++;
  const start = clock();
  budget.startSlice();
  let first: IteratorResult<void, T>;
  try {
    first = steps.next();
  } finally {
    arrivalsSpent += clock() - start;
  }
  if (first.done) return first.value;
  return enqueue(long, steps, budget);
}

function enqueue<T>(queue: Queue, steps: Steps<T>, budget: SliceClock): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ steps, budget, resolve: resolve as (value: unknown) => void, reject });
    schedule();
  });
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(turn);
}

/** One slice of `task`: settles it when it ends, else queues it among the long ones. */
function slice(task: Task): void {
  task.budget.startSlice();
  try {
    const next = task.steps.next();
    if (next.done) task.resolve(next.value);
    else long.push(task);
  } catch (err) {
    task.reject(err);
  }
}

function turn(): void {
  scheduled = false;
  // Searches started since the last turn were answered in this turn of the event loop, and their
  // answers are written from this same check phase, after this callback (queued before them): give
  // way once, so that they leave before the next slice (a short search does not wait for a slice of
  // a long one). At most once in a row: paused searches still get every other turn.
  if (started !== startedAtLastTurn && !gaveWay) {
    startedAtLastTurn = started;
    gaveWay = true;
    schedule();
    return;
  }
  gaveWay = false;
  startedAtLastTurn = started;
  arrivalsSpent = 0;
  if (fresh.size > 0 && (long.size === 0 || !lastRanFresh)) {
    lastRanFresh = true;
    const start = clock();
    let task: Task | undefined;
    // fresh searches one after another, each with its whole slice, until a slice's worth is used
    while ((task = fresh.shift()) !== undefined) {
      slice(task);
      if (clock() - start >= task.budget.sliceMs) break;
    }
  } else {
    lastRanFresh = false;
    const task = long.shift();
    if (task !== undefined) slice(task);
  }
  if (pausedSearches() > 0) schedule();
}
