/**
 * How much work compiling a pattern may take, and the error when it would take more.
 *
 * Follows Lucene 9's Operations.determinize: the limit given (`max_determinized_states`,
 * Operations.DEFAULT_DETERMINIZE_WORK_LIMIT = 10,000 by default) is a "work limit", and
 * determinizing may spend `workLimit * 10` effort, one unit per NFA state of each DFA state taken
 * from the worklist (`effortSpent += s.values.length; if (effortSpent >= effortLimit) throw`).
 * Lucene's message (TooComplexToDeterminizeException, RegExp variant) reports the work limit.
 *
 * Lucene builds its NFA before that check, so `a{999999}` or `((a{100}){100}){100}` could build a
 * huge automaton first; Lucene 9 guards only repetitions (RegExp.toAutomaton: REGEXP_REPEAT_MIN /
 * REGEXP_REPEAT_MINMAX throw when `(states of e - 1) * count > workLimit`, reporting that product
 * as the limit). We do the same, and also count every NFA state built against a budget of the
 * same size as the determinization's (`workLimit * 10`, each AST node visited also costs one), so
 * that construction time and memory stay bounded whatever the pattern. Lucene's effort counts NFA
 * states, not the transitions they carry, so the ranges handled while determinizing are counted
 * too, against `workLimit * 200`: only patterns with huge character classes under unbounded
 * repetitions get near it.
 */

export const DEFAULT_DETERMINIZE_WORK_LIMIT = 10000;

/** Compiling the pattern would take more than the limit allows. */
export class TooComplexError extends Error {
  override readonly name = 'TooComplexError';
  constructor(
    readonly pattern: string,
    /** The limit Lucene's message reports (the work limit, or a repetition's estimated states). */
    readonly limit: number,
  ) {
    super(`Determinizing ${pattern} would require more than ${limit} effort.`);
  }
}

export class WorkBudget {
  private determinizeEffort = 0;
  private nfaStates = 0;
  private rangeWork = 0;
  /** Lucene's effortLimit. */
  readonly effortLimit: number;

  constructor(
    readonly pattern: string,
    readonly workLimit: number,
  ) {
    this.effortLimit = workLimit * 10;
  }

  /** One DFA state from the worklist, made of `nfaStates` NFA states (Lucene's effort). */
  chargeDeterminize(nfaStates: number): void {
    this.determinizeEffort += nfaStates;
    if (this.determinizeEffort >= this.effortLimit) this.fail();
  }

  /** Ranges handled while determinizing one DFA state. */
  chargeWork(ranges: number): void {
    this.rangeWork += ranges;
    if (this.rangeWork > this.effortLimit * 20) this.fail();
  }

  /** NFA states being built, or AST nodes visited while building. */
  chargeStates(count: number): void {
    this.nfaStates += count;
    if (this.nfaStates > this.effortLimit) this.fail();
  }

  /** Lucene's check before repeating an expression `count` times (its estimate as the limit). */
  checkRepeat(statesPerCopy: number, count: number): void {
    const estimate = statesPerCopy * count;
    if (estimate > this.workLimit) throw new TooComplexError(this.pattern, estimate);
  }

  fail(): never {
    throw new TooComplexError(this.pattern, this.workLimit);
  }
}
