/**
 * Runs the work that does not finish within one slice — the engine's searches (their `Steps`, within
 * their Budget) and the transports' parsing of large request bodies (transport/jsonSteps.ts) — in
 * one queue, so that short searches are never queued behind long ones: a multilevel feedback queue
 * that serves the least-attained-service first (how operating system schedulers favour interactive
 * tasks without knowing how long a task will run), driven by turns of the event loop (setImmediate).
 *
 * - New work runs a short first slice (FIRST_SLICE_MS, 1 ms, or the slice if shorter) at once, on
 *   arrival, as long as the work that arrived since the scheduler's last turn has not used a
 *   slice's worth of time between them. Past that (a burst of arrivals) new work waits in the
 *   `fresh` queue instead of running, ahead of the long work. Almost every search ends within that
 *   first slice; a costly one learns it has no more than a millisecond, so eight costly searches
 *   arriving together delay a plain search behind them by a few milliseconds, not eight slices.
 * - Work that did not end in its first slice is `long`: it runs a whole slice (SEARCH_SLICE_MS) per
 *   turn, the one that has run the least time in all first (a search that just missed its first
 *   slice goes before those that have run for many slices), except that one that has waited
 *   STARVE_SLICES slices since it last ran goes first: every paused search runs now and then, so
 *   that its `timeout` is seen, however many new ones come.
 * - A turn runs the fresh work first, one after another, each its first slice, until a slice's
 *   worth of time is used, or one slice of long work. When both wait, turns alternate between them,
 *   so long work is never starved by a flood of new work.
 * - Between two turns Node handles whatever I/O is ready (new requests, health checks, WebSocket
 *   pings). The transports write their answers from the check phase (`answerSoon`: batched, as
 *   setImmediate would), and a turn writes those waiting before its slice: an answer never waits
 *   for a slice of a long search.
 *
 * A short search thus waits about one slice of long work plus the first slices of the work that
 * arrived with it, however many long searches run; a long one takes longer the more there are.
 *
 * Admission of costly searches (searches only: `runSliced(..., refusal)`): a search that has run
 * COSTLY_SLICES slices (20: 20 ms of work with the default slice) without ending is costly (counted
 * in slices, not time: a slice during which the process waited for a CPU does not make it costly). At most `running` costly
 * searches are in progress at once (SEARCH_CONCURRENCY), as Elasticsearch's search thread pool bounds
 * the searches it runs; one more waits, paused, in a queue of at most `queued` (SEARCH_QUEUE_SIZE),
 * first in first out, and goes on when one of those running ends; past that it is refused
 * (with the search's Refusal), as Elasticsearch rejects a search whose queue is full. A search that ends
 * before it is costly, almost every one, neither waits nor is refused, however many costly ones run
 * or wait (a queue from the first slice would put a plain search that just missed it, say for a
 * garbage collection, behind searches of seconds). Bounding the costly searches in progress bounds
 * the memory they hold at once (a sorted page of 10,000 hits holds its heap of hits until it ends).
 *
 * Hand-written: what is scheduled here are generators of the engine, in the same thread (worker
 * threads would each need their own copy of the index); no library schedules those.
 */

/** A computation that may pause (yield) between slices and finally returns T. */
export type Steps<T> = Generator<void, T, void>;

/** What the scheduler needs of a task's clock: its slice length, and a new slice starting. */
export interface SliceClock {
  readonly sliceMs: number;
  /** A slice of `ms` (the clock's own slice when not given) starts now. */
  startSlice(ms?: number): void;
}

/** The first slice of new work, at most (ms). */
export const FIRST_SLICE_MS = 1;

/** A search that has run this many slices without ending is costly: it needs a place (see the header). */
export const COSTLY_SLICES = 20;

/** A task that has waited this many of its slices since it last ran runs next among the long ones. */
export const STARVE_SLICES = 20;

/** The first slice of work whose slices are `sliceMs` long (work that never pauses, Infinity, never does). */
const firstSliceMs = (sliceMs: number): number => (sliceMs === Infinity ? Infinity : Math.min(FIRST_SLICE_MS, sliceMs));

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

  startSlice(ms = this.sliceMs): void {
    this.end = this.now() + ms;
  }

  /** The slice is over (costs a clock read: call it every thousand steps or so). */
  over(): boolean {
    return this.now() >= this.end;
  }
}

/** The slice length of the work that has no setting of its own (SEARCH_SLICE_MS, set at start). */
let defaultSliceMs = 1;

export function setDefaultSliceMs(ms: number): void {
  defaultSliceMs = ms;
}

export function getDefaultSliceMs(): number {
  return defaultSliceMs;
}

interface Task {
  steps: Steps<unknown>;
  budget: SliceClock;
  /** A search, subject to admission (see the header): what it is refused with. */
  admits: Refusal | null;
  /** It holds one of the `running` places. */
  admitted: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** Time it has run, in all (ms). */
  spent: number;
  /** Slices it has run. */
  slices: number;
  /** When it last ran (or was queued, if it never ran). */
  ranAt: number;
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

/** Costly searches that may be in progress at once, and that may wait for a place (setAdmission). */
let admission = { running: Infinity, queued: Infinity };
/** Costly searches holding a place (in `long`, or running a slice). */
let admittedCount = 0;
/** Costly searches paused, waiting for a place, first in first out. */
const admissionQueue = new Queue();

/** What a costly search is refused with when `running` costly searches are in progress and `queued` more wait (see the header). */
export type Refusal = (running: number, queued: number) => Error;

/** SEARCH_CONCURRENCY and SEARCH_QUEUE_SIZE (set at start; Infinity: no bound). */
export function setAdmission(running: number, queued: number): void {
  admission = { running, queued };
  admitWaiting();
}

/** Costly searches now: in progress, and waiting for a place. */
export function admissionState(): { running: number; queued: number } {
  return { running: admittedCount, queued: admissionQueue.size };
}

/** Work that has not run yet (arrived past the allowance). */
const fresh = new Queue();
/** Work that has run a first slice without ending (unordered: `nextLong` chooses). */
const long: Task[] = [];
let scheduled = false;
/** The last turn ran fresh searches (the next one, if long ones wait, runs one of them). */
let lastRanFresh = false;
/** Time the searches that arrived since the last turn spent in their first slice (ms). */
let arrivalsSpent = 0;

let clock: () => number = () => performance.now();

/** Tests: the clock the scheduler measures the tasks' time with. */
export function setSchedulerClock(next: () => number): void {
  clock = next;
}

/** Searches paused and waiting for their next slice or for a place (for tests and metrics). */
export function pausedSearches(): number {
  return fresh.size + long.length + admissionQueue.size;
}

/**
 * Run `steps` one slice at a time: the value at once when they finish within a first slice run now,
 * else a promise of it (the rest runs from the scheduler). `admits`: a search, which once costly
 * waits for a place, or is refused with what `admits` makes (see the header).
 */
export function runSliced<T>(steps: Steps<T>, budget: SliceClock, admits: Refusal | null = null): T | Promise<T> {
  if (arrivalsSpent >= budget.sliceMs && pausedSearches() > 0) return enqueue(steps, budget, admits);
  const start = clock();
  budget.startSlice(firstSliceMs(budget.sliceMs));
  let first: IteratorResult<void, T>;
  let end = start;
  try {
    first = steps.next();
  } finally {
    end = clock();
    arrivalsSpent += end - start;
  }
  if (first.done) return first.value;
  return new Promise<T>((resolve, reject) => {
    paused({ steps, budget, admits, admitted: false, resolve: resolve as (value: unknown) => void, reject, spent: end - start, slices: 1, ranAt: end });
  });
}

function enqueue<T>(steps: Steps<T>, budget: SliceClock, admits: Refusal | null): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    fresh.push({ steps, budget, admits, admitted: false, resolve: resolve as (value: unknown) => void, reject, spent: 0, slices: 0, ranAt: clock() });
    schedule();
  });
}

/** A task paused after a slice: among the long ones, or, a costly search without a place, waiting for one or refused. */
function paused(task: Task): void {
  if (task.admits !== null && !task.admitted && task.slices >= COSTLY_SLICES) {
    if (admittedCount >= admission.running) {
      if (admissionQueue.size >= admission.queued) return refuse(task, task.admits);
      admissionQueue.push(task);
      return;
    }
    task.admitted = true;
    admittedCount++;
  }
  long.push(task);
  schedule();
}

function refuse(task: Task, refusal: Refusal): void {
  const error = refusal(admittedCount, admissionQueue.size);
  try {
    task.steps.return(undefined as never); // (its finally blocks run)
  } catch {
    // refused all the same
  }
  task.reject(error);
}

/** A task ended: its place goes to the search that has waited longest. */
function ended(task: Task): void {
  if (!task.admitted) return;
  task.admitted = false;
  admittedCount--;
  admitWaiting();
}

function admitWaiting(): void {
  let task: Task | undefined;
  while (admittedCount < admission.running && (task = admissionQueue.shift()) !== undefined) {
    task.admitted = true;
    admittedCount++;
    task.ranAt = clock(); // (its wait was not a wait for a slice: it is not starved yet)
    long.push(task);
    schedule();
  }
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(turn);
}

/** A slice of `ms` of `task`: settles it when it ends, else queues it among the long ones. */
function slice(task: Task, ms: number): void {
  const start = clock();
  task.budget.startSlice(ms);
  task.slices++;
  let next: IteratorResult<void, unknown>;
  try {
    next = task.steps.next();
  } catch (err) {
    ended(task);
    return task.reject(err);
  }
  if (next.done) {
    ended(task);
    return task.resolve(next.value);
  }
  task.ranAt = clock();
  task.spent += task.ranAt - start;
  paused(task);
}

/** The long task to run next: the one that has waited STARVE_SLICES of its slices, else the one that has run the least. */
function nextLong(): Task | undefined {
  if (long.length === 0) return undefined;
  const now = clock();
  let least = 0;
  let oldest = 0;
  for (let i = 1; i < long.length; i++) {
    if (long[i].spent < long[least].spent) least = i;
    if (long[i].ranAt < long[oldest].ranAt) oldest = i;
  }
  const starved = long[oldest];
  const i = now - starved.ranAt >= STARVE_SLICES * starved.budget.sliceMs ? oldest : least;
  const task = long[i];
  long[i] = long[long.length - 1];
  long.pop();
  return task;
}

function turn(): void {
  scheduled = false;
  // the answers made since the last turn leave first (see answerSoon)
  if (answers.length > 0) writeAnswers();
  arrivalsSpent = 0;
  if (fresh.size > 0 && (long.length === 0 || !lastRanFresh)) {
    lastRanFresh = true;
    const start = clock();
    let task: Task | undefined;
    // fresh work one after another, each its first slice, until a slice's worth is used
    while ((task = fresh.shift()) !== undefined) {
      slice(task, firstSliceMs(task.budget.sliceMs));
      if (clock() - start >= task.budget.sliceMs) break;
    }
  } else {
    lastRanFresh = false;
    const task = nextLong();
    if (task !== undefined) slice(task, task.budget.sliceMs);
  }
  // (searches waiting for a place are scheduled when they get one)
  if (fresh.size + long.length > 0) schedule();
}

/** Answers waiting to be written, first in first out (answerSoon). */
let answers: (() => void)[] = [];
let answersScheduled = false;

/**
 * Runs `write` (a transport writing an answer) in the check phase of this turn of the event loop,
 * after the I/O that was ready, as setImmediate would (under load the writes of many requests are
 * batched), but before the next slice of paused work: the scheduler's turn, queued in the check
 * phase before the answers made since, writes them first. In the order given; what `write` throws
 * is thrown from a setImmediate of its own (the transports catch what they can).
 */
export function answerSoon(write: () => void): void {
  answers.push(write);
  if (answersScheduled) return;
  answersScheduled = true;
  setImmediate(writeAnswers);
}

function writeAnswers(): void {
  answersScheduled = false;
  const due = answers;
  answers = [];
  for (const write of due) {
    try {
      write();
    } catch (err) {
      // thrown as from its own setImmediate: the answers after it still leave
      setImmediate(() => {
        throw err;
      });
    }
  }
}
