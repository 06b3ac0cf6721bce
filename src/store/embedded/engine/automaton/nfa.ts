/**
 * A nondeterministic automaton over code point ranges, with epsilon moves (Thompson-style), as
 * built from a pattern before determinization. Lucene's Automaton plays this part (it has no real
 * epsilon moves: Automaton.addEpsilon copies transitions); plain epsilon moves keep building
 * linear in the pattern here, and determinization follows them.
 *
 * Every state built is charged to the budget, so a pattern cannot build an unbounded NFA.
 */
import { WorkBudget } from './budget';

export class Nfa {
  /** Per state: character transitions, flattened [min, max, target, ...]. */
  readonly transitions: number[][] = [];
  /** Per state: epsilon targets. */
  readonly epsilons: number[][] = [];

  constructor(private readonly budget: WorkBudget) {}

  get size(): number {
    return this.transitions.length;
  }

  addState(): number {
    this.budget.chargeStates(1);
    this.transitions.push([]);
    this.epsilons.push([]);
    return this.transitions.length - 1;
  }

  addTransition(from: number, min: number, max: number, to: number): void {
    this.transitions[from].push(min, max, to);
  }

  /** A transition on each range of a character set (flattened [from, to, ...]). */
  addRanges(from: number, ranges: readonly number[], to: number): void {
    for (let i = 0; i < ranges.length; i += 2) this.transitions[from].push(ranges[i], ranges[i + 1], to);
  }

  addEpsilon(from: number, to: number): void {
    if (from !== to) this.epsilons[from].push(to);
  }
}
