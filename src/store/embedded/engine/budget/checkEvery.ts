/**
 * When a loop over a dictionary's terms (sorting it, walking it for a pattern) should look at its
 * search's budget: every `steps` steps, or as soon as `reads` positioned reads from disk were made
 * since the last look, whichever comes first. A step in memory (comparing two short terms) costs
 * well under a microsecond, so a look every thousand of them is cheap and often enough; but a long
 * term's rest is read back from disk when spilled (termHash.ts), one positioned read of several
 * microseconds, so that a thousand steps that each read held the event loop 5 to 10 ms past a 1 ms
 * slice (bench:abuse: sorting and walking names of 40 `a`s and a number). Counting the reads bounds
 * the time between two looks whichever terms the dictionary holds.
 */
import { diskReads } from '../persist/diskFile';

/** Positioned reads between two looks at the budget, at most (a few microseconds each: well within a 1 ms slice). */
export const READS_PER_CHECK = 32;

export class CheckEvery {
  private left: number;
  private readsAt = diskReads();

  constructor(
    private readonly steps: number,
    private readonly reads = READS_PER_CHECK,
  ) {
    this.left = steps;
  }

  /** Whether `reads` positioned reads were made since the last look, without counting a step (a walk that stops on reads alone). */
  readsDue(): boolean {
    return diskReads() - this.readsAt >= this.reads;
  }

  /** Counts a step; true when the budget is due a look (counting then starts again). */
  step(): boolean {
    if (--this.left > 0 && !this.readsDue()) return false;
    this.left = this.steps;
    this.readsAt = diskReads();
    return true;
  }
}
