/**
 * Runs the searches that did not finish within their first slice: one slice of one search per turn
 * of the event loop (setImmediate), round robin. Between two slices Node handles whatever I/O is
 * ready (new requests, health checks, WebSocket pings), and new requests run their own first slice
 * at once, so a short search is never queued behind a long one; when new searches started, the
 * next slice waits one more turn so that their answers are written first.
 *
 * Hand-written: what is scheduled here are generators of the engine, in the same thread (worker
 * threads would each need their own copy of the index); no library schedules those.
 */
import { Budget, Steps } from './budget';

interface Task {
  steps: Steps<unknown>;
  budget: Budget;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const queue: Task[] = [];
let head = 0;
let scheduled = false;
/** Searches started (runSliced calls) in all, and as of the last turn. */
let started = 0;
let startedAtLastTurn = 0;
/** The last turn gave way (see turn). */
let gaveWay = false;

/** Searches paused and waiting for their next slice (for tests and metrics). */
export function pausedSearches(): number {
  return queue.length - head;
}

/**
 * Run `steps` one slice at a time, starting now: the value at once when they finish within this
 * first slice, else a promise of it (the rest runs from the scheduler).
 */
export function runSliced<T>(steps: Steps<T>, budget: Budget): T | Promise<T> {
  started++;
  budget.startSlice();
  const first = steps.next();
  if (first.done) return first.value;
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
  const task = queue[head++];
  if (head > 1024 && head * 2 > queue.length) {
    queue.splice(0, head);
    head = 0;
  }
  if (task !== undefined) {
    task.budget.startSlice();
    try {
      const next = task.steps.next();
      if (next.done) task.resolve(next.value);
      else queue.push(task);
    } catch (err) {
      task.reject(err);
    }
  }
  if (head < queue.length) schedule();
}
