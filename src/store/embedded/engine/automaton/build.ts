/**
 * Builds the DFA of a pattern AST: a Thompson-style NFA (Nfa), then subset construction (dfa.ts).
 * Follows what Lucene 9's RegExp.toAutomaton builds for each kind of expression, including
 * Automata.makeDecimalInterval for `<n-m>` and the repetition checks of REGEXP_REPEAT_MIN /
 * REGEXP_REPEAT_MINMAX; complement and intersection determinize their operands first (as Lucene's
 * Operations.complement and Operations.intersection need) and embed the resulting DFA.
 *
 * `build(node, from)` adds the NFA of `node` starting at state `from` and returns its end state.
 * It only adds transitions out of `from` and out of states it creates, never into older states, so
 * a fragment may start at the end state of the previous one (concatenation without epsilon moves).
 */
import { WorkBudget } from './budget';
import { MAX_CODE_POINT } from './codePoints';
import { complement, determinize, determinizeSteps, Dfa, intersection } from './dfa';
import { Budget, Steps } from '../budget/budget';
import { Nfa } from './nfa';
import { RegexpNode } from './regexpParser';

/** The DFA (without dead states) of a pattern AST, within the budget. */
export function buildDfa(node: RegexpNode, budget: WorkBudget): Dfa {
  return new NfaBuilder(budget, new Map()).toDfa(node);
}

/** buildDfa, its (outermost) determinization within a search's time budget (dfa.ts determinizeSteps). */
export function* buildDfaSteps(node: RegexpNode, budget: WorkBudget, time: Budget): Steps<Dfa> {
  const builder = new NfaBuilder(budget, new Map());
  const { start, end } = builder.nfaOf(node);
  return yield* determinizeSteps(builder.nfa, start, end, budget, time);
}

class NfaBuilder {
  readonly nfa: Nfa;
  /** States with character transitions built so far: Lucene's "states - 1" of a fragment. */
  private positions = 0;

  constructor(
    private readonly budget: WorkBudget,
    /** DFAs of complement and intersection nodes, built once however often they are repeated. */
    private readonly dfas: Map<RegexpNode, Dfa>,
  ) {
    this.nfa = new Nfa(budget);
  }

  toDfa(node: RegexpNode): Dfa {
    const { start, end } = this.nfaOf(node);
    return determinize(this.nfa, start, end, this.budget);
  }

  /** The NFA of a node: its start and final states. */
  nfaOf(node: RegexpNode): { start: number; end: number } {
    const start = this.nfa.addState();
    return { start, end: this.build(node, start) };
  }

  private build(node: RegexpNode, from: number): number {
    this.budget.chargeStates(1);
    const nfa = this.nfa;
    switch (node.type) {
      case 'chars': {
        const to = nfa.addState();
        nfa.addRanges(from, node.ranges, to);
        this.positions++;
        return to;
      }
      case 'emptyString':
        return from;
      case 'emptyLanguage':
        return nfa.addState(); // never reached
      case 'anyString': {
        const loop = nfa.addState();
        nfa.addEpsilon(from, loop);
        nfa.addTransition(loop, 0, MAX_CODE_POINT, loop);
        this.positions++;
        return loop;
      }
      case 'concat': {
        let end = from;
        for (const item of node.items) end = this.build(item, end);
        return end;
      }
      case 'union': {
        const end = nfa.addState();
        for (const item of node.items) nfa.addEpsilon(this.build(item, from), end);
        return end;
      }
      case 'optional': {
        const end = nfa.addState();
        nfa.addEpsilon(from, end);
        nfa.addEpsilon(this.build(node.sub, from), end);
        return end;
      }
      case 'star': {
        const loop = nfa.addState();
        nfa.addEpsilon(from, loop);
        nfa.addEpsilon(this.build(node.sub, loop), loop);
        if (this.isEmpty(node.sub)) return nfa.addState(); // Lucene: repeating no string gives none
        return loop;
      }
      case 'repeat':
        return this.buildRepeat(node.sub, node.min, node.max, from);
      case 'interval':
        return this.buildInterval(node.min, node.max, node.digits, from);
      case 'complement':
        return this.embed(this.dfaOf(node, () => complement(this.subDfa(node.sub))), from);
      case 'intersection':
        return this.embed(
          this.dfaOf(node, () => node.items.map((item) => this.subDfa(item)).reduce((a, b) => intersection(a, b, this.budget))),
          from,
        );
    }
  }

  /**
   * `sub{min,max}` (max Infinity for `{min,}` and `+`): min copies, then either a loop or
   * (max - min) copies each of which may end the repetition. Before making the copies, Lucene's
   * check: (states of one copy) * (max, or min when unbounded) must not exceed the work limit.
   */
  private buildRepeat(sub: RegexpNode, min: number, max: number, from: number): number {
    const nfa = this.nfa;
    const positions = this.positions;
    const size = nfa.size;
    // The first copy is built even when none is needed, for its errors and its size.
    const first = max === 0 || min > max ? nfa.addState() : from;
    let end = this.build(sub, first);
    this.budget.checkRepeat(this.positions - positions, max === Infinity ? min : max);
    if (first !== from) {
      this.positions = positions; // that copy is not part of the result
      return min > max ? nfa.addState() : from; // the empty language, or the empty string
    }
    if (nfa.size === size && end === from) return from; // sub only matches the empty string
    for (let i = 1; i < min; i++) end = this.build(sub, end);
    if (max === Infinity) {
      if (min === 0 && this.isEmpty(sub)) return nfa.addState(); // as `star`
      const loop = nfa.addState();
      nfa.addEpsilon(end, loop);
      if (min === 0) nfa.addEpsilon(from, loop);
      nfa.addEpsilon(this.build(sub, loop), loop);
      return loop;
    }
    if (max === min) return end;
    const exit = nfa.addState();
    if (min === 0) nfa.addEpsilon(from, exit);
    for (let i = Math.max(min, 1); i < max; i++) {
      nfa.addEpsilon(end, exit);
      end = this.build(sub, end);
    }
    nfa.addEpsilon(end, exit);
    return exit;
  }

  /**
   * Lucene's Automata.makeDecimalInterval: decimal numbers from min to max. With `digits` > 0 they
   * have exactly that many digits (zero-padded); otherwise any number of leading zeros is allowed.
   */
  private buildInterval(min: number, max: number, digits: number, from: number): number {
    const nfa = this.nfa;
    const width = digits > 0 ? digits : String(max).length;
    const x = String(min).padStart(width, '0');
    const y = String(max).padStart(width, '0');
    const end = nfa.addState();
    const initials: number[] = [];
    const state = (n: number): number => {
      const s = nfa.addState();
      if (n === width) nfa.addEpsilon(s, end);
      else this.positions++;
      return s;
    };
    const anyOfRightLength = (n: number): number => {
      const s = state(n);
      if (n < width) nfa.addTransition(s, 0x30, 0x39, anyOfRightLength(n + 1));
      return s;
    };
    const atLeast = (n: number, zeros: boolean): number => {
      const s = state(n);
      if (n < width) {
        if (zeros) initials.push(s);
        const c = x.charCodeAt(n);
        nfa.addTransition(s, c, c, atLeast(n + 1, zeros && c === 0x30));
        if (c < 0x39) nfa.addTransition(s, c + 1, 0x39, anyOfRightLength(n + 1));
      }
      return s;
    };
    const atMost = (n: number): number => {
      const s = state(n);
      if (n < width) {
        const c = y.charCodeAt(n);
        nfa.addTransition(s, c, c, atMost(n + 1));
        if (c > 0x30) nfa.addTransition(s, 0x30, c - 1, anyOfRightLength(n + 1));
      }
      return s;
    };
    const between = (n: number, zeros: boolean): number => {
      const s = state(n);
      if (n < width) {
        if (zeros) initials.push(s);
        const cx = x.charCodeAt(n);
        const cy = y.charCodeAt(n);
        if (cx === cy) nfa.addTransition(s, cx, cx, between(n + 1, zeros && cx === 0x30));
        else {
          nfa.addTransition(s, cx, cx, atLeast(n + 1, zeros && cx === 0x30));
          nfa.addTransition(s, cy, cy, atMost(n + 1));
          if (cx + 1 < cy) nfa.addTransition(s, cx + 1, cy - 1, anyOfRightLength(n + 1));
        }
      }
      return s;
    };
    if (digits > 0) {
      nfa.addEpsilon(from, between(0, false));
    } else {
      // Leading zeros: the initial state loops on '0' and may enter the all-zeros path anywhere.
      const initial = nfa.addState();
      nfa.addEpsilon(from, initial);
      nfa.addTransition(initial, 0x30, 0x30, initial);
      between(0, true);
      for (const s of initials) nfa.addEpsilon(initial, s);
      this.positions++;
    }
    return end;
  }

  /**
   * Whether the node matches no string at all. Lucene's Operations.repeat returns such an automaton
   * (no states, as minimized) unchanged, so `e*` and `e{0,}` match nothing when `e` matches
   * nothing, where one would expect the empty string.
   */
  private isEmpty(node: RegexpNode): boolean {
    switch (node.type) {
      case 'chars':
        return node.ranges.length === 0;
      case 'emptyLanguage':
        return true;
      case 'concat':
        return node.items.some((item) => this.isEmpty(item));
      case 'union':
        return node.items.every((item) => this.isEmpty(item));
      case 'star':
        return this.isEmpty(node.sub);
      case 'repeat':
        return node.min > node.max || ((node.min > 0 || node.max === Infinity) && this.isEmpty(node.sub));
      case 'complement':
      case 'intersection':
        return this.dfas.get(node)?.accept.length === 0;
      default:
        return false;
    }
  }

  private dfaOf(node: RegexpNode, make: () => Dfa): Dfa {
    let dfa = this.dfas.get(node);
    if (dfa === undefined) {
      dfa = make();
      this.dfas.set(node, dfa);
    }
    return dfa;
  }

  private subDfa(node: RegexpNode): Dfa {
    return new NfaBuilder(this.budget, this.dfas).toDfa(node);
  }

  /** Copies a DFA into the NFA after `from`; its accepting states lead to the returned end state. */
  private embed(dfa: Dfa, from: number): number {
    const nfa = this.nfa;
    const end = nfa.addState();
    if (dfa.accept.length === 0) return end; // the empty language: end is never reached
    const base = nfa.size;
    for (let s = 0; s < dfa.accept.length; s++) nfa.addState();
    for (let s = 0; s < dfa.accept.length; s++) {
      const ts = dfa.transitions[s];
      for (let j = 0; j < ts.length; j += 3) nfa.addTransition(base + s, ts[j], ts[j + 1], base + ts[j + 2]);
      if (ts.length > 0) this.positions++;
      if (dfa.accept[s]) nfa.addEpsilon(base + s, end);
    }
    nfa.addEpsilon(from, base);
    return end;
  }
}
