/**
 * The time budget of one search, and the points where it is checked.
 *
 * Elasticsearch stops a search past its `timeout` wherever it stands (QueryPhase's timeout check in
 * the collector and ExitableDirectoryReader's in term enumeration) and answers what was collected
 * with `timed_out: true`. The engine does the same, and also hands the event loop back every
 * `sliceMs` so that one long search never keeps a Node process from answering anything else: the
 * long-running parts of a search are generators (`Steps`) that check the budget every so often
 * (`due()`) and yield when their slice is over; the scheduler (src/scheduler/scheduler.ts, shared with the transports' parsing of large bodies) resumes them.
 */

import type { Steps } from '../../../../scheduler/scheduler';

/** A computation that may pause (yield) between slices and finally returns T. */
export type { Steps };

/** Thrown through a search's steps once its deadline has passed; the search answers what it has. */
export class TimeExceeded extends Error {
  constructor() {
    super('search time budget exceeded');
    this.name = 'TimeExceeded';
  }
}

const TIME_EXCEEDED = new TimeExceeded();

export class Budget {
  private sliceEnd: number;
  private readonly deadline: number;
  /** Set once the deadline has passed (the search then stops at its next check). */
  timedOut = false;

  /**
   * @param timeoutMs the search's whole budget (Infinity: none)
   * @param sliceMs how long it may run before giving the event loop back (Infinity: never pauses)
   * @param clock milliseconds from some origin (tests give their own)
   */
  constructor(
    timeoutMs: number,
    readonly sliceMs: number,
    /** Its clock (ms): what measures the work between two checks. */
    readonly clock: () => number = () => performance.now(),
  ) {
    const now = clock();
    this.deadline = now + timeoutMs;
    this.sliceEnd = now + sliceMs;
  }

  /** A new slice of `ms` starts (the scheduler resumes the search; its first slice may be shorter). */
  startSlice(ms = this.sliceMs): void {
    this.sliceEnd = this.clock() + ms;
  }

  /**
   * At a checkpoint: throws TimeExceeded past the deadline, else tells whether the slice is over (the
   * caller then yields). Costs a clock read: call it every thousand steps or so, not every step.
   */
  due(): boolean {
    if (this.sliceEnd === Infinity && this.deadline === Infinity) return false;
    const now = this.clock();
    if (now >= this.deadline) {
      this.timedOut = true;
      throw TIME_EXCEEDED;
    }
    return now >= this.sliceEnd;
  }

  /**
   * Whether the slice is over, never past the deadline: for the work after collection (ordering the
   * page, building its hits), which ends the search with what was collected whatever the time.
   */
  sliceOver(): boolean {
    return this.sliceEnd !== Infinity && this.clock() >= this.sliceEnd;
  }
}

/** No deadline, never pauses: for single-document matchers and tests. */
export const UNLIMITED = new Budget(Infinity, Infinity);

/** Run steps to their end without pausing (what synchronous callers use). */
export function runToEnd<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** How many units of work pass between two checks of the clock (a power of two minus one, for `&`). */
export const CHECK_EVERY = 1023;
