/**
 * A compiled DFA for running over terms, in typed arrays: Lucene's RunAutomaton /
 * CharacterRunAutomaton. Each state has its sorted ranges and their targets (binary search), plus an
 * ASCII table when the automaton is small enough; every state can reach an accepting state, so a
 * step that finds no range (-1) means no term with that prefix can match.
 */
import { MAX_CODE_POINT } from './codePoints';
import { Dfa, reverseEdges } from './dfa';

export type PatternKind = 'regexp' | 'wildcard' | 'prefix' | 'term' | 'fuzzy';

/** ASCII tables (128 ints per state) are kept up to this many entries (1 MB). */
const MAX_ASCII_TABLE = 1 << 18;

export class RunAutomaton {
  /** The initial state, or -1 when no term matches. */
  readonly initial: number;
  readonly size: number;
  private readonly accepts: Uint8Array;
  /** 1 where every suffix is accepted. */
  private readonly universal: Uint8Array;
  /** State s's ranges are at [offsets[s], offsets[s + 1]). */
  private readonly offsets: Int32Array;
  private readonly mins: Int32Array;
  private readonly maxs: Int32Array;
  private readonly targets: Int32Array;
  private readonly ascii: Int32Array | undefined;

  constructor(
    dfa: Dfa,
    readonly kind: PatternKind,
    /** The pattern as given, for messages. */
    readonly source: string,
  ) {
    const size = dfa.accept.length;
    this.size = size;
    this.initial = size === 0 ? -1 : 0;
    const accepts = new Uint8Array(size);
    for (let s = 0; s < size; s++) if (dfa.accept[s]) accepts[s] = 1;
    this.accepts = accepts;
    this.offsets = new Int32Array(size + 1);
    let count = 0;
    for (let s = 0; s < size; s++) {
      this.offsets[s] = count;
      count += dfa.transitions[s].length / 3;
    }
    this.offsets[size] = count;
    this.mins = new Int32Array(count);
    this.maxs = new Int32Array(count);
    this.targets = new Int32Array(count);
    for (let s = 0, k = 0; s < size; s++) {
      const ts = dfa.transitions[s];
      for (let j = 0; j < ts.length; j += 3, k++) {
        this.mins[k] = ts[j];
        this.maxs[k] = ts[j + 1];
        this.targets[k] = ts[j + 2];
      }
    }
    this.universal = this.universalStates();
    if (size * 128 <= MAX_ASCII_TABLE) {
      const ascii = new Int32Array(size * 128).fill(-1);
      for (let s = 0; s < size; s++) {
        for (let k = this.offsets[s]; k < this.offsets[s + 1] && this.mins[k] < 128; k++) {
          ascii.fill(this.targets[k], s * 128 + this.mins[k], s * 128 + Math.min(this.maxs[k], 127) + 1);
        }
      }
      this.ascii = ascii;
    }
  }

  /** The bytes its arrays hold (what a cache of automata counts). */
  get bytes(): number {
    const arrays = [this.accepts, this.universal, this.offsets, this.mins, this.maxs, this.targets, this.ascii];
    let total = 0;
    for (const array of arrays) total += array?.byteLength ?? 0;
    return total;
  }

  /** The state after reading `codePoint` in `state`, or -1 (dead: nothing can match any more). */
  step(state: number, codePoint: number): number {
    if (state < 0) return -1;
    if (codePoint < 128 && this.ascii !== undefined) return this.ascii[state * 128 + codePoint];
    let lo = this.offsets[state];
    let hi = this.offsets[state + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (codePoint < this.mins[mid]) hi = mid - 1;
      else if (codePoint > this.maxs[mid]) lo = mid + 1;
      else return this.targets[mid];
    }
    return -1;
  }

  isAccept(state: number): boolean {
    return state >= 0 && this.accepts[state] === 1;
  }

  /** Whether every string read from `state` on is accepted (e.g. after `.*` or a wildcard's `*`). */
  acceptsAllFrom(state: number): boolean {
    return state >= 0 && this.universal[state] === 1;
  }

  /** The smallest code point >= `codePoint` on which `state` has a transition, or -1. */
  nextCodePoint(state: number, codePoint: number): number {
    let lo = this.offsets[state];
    let hi = this.offsets[state + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.maxs[mid] < codePoint) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.offsets[state + 1] ? Math.max(this.mins[lo], codePoint) : -1;
  }

  /** Whether the whole text matches, read by code point (a lone surrogate is its own code point). */
  run(text: string): boolean {
    let state = this.initial;
    const n = text.length;
    for (let i = 0; i < n && state >= 0; ) {
      if (this.universal[state] === 1) return true;
      let c = text.charCodeAt(i++);
      if (c >= 0xd800 && c <= 0xdbff && i < n) {
        const low = text.charCodeAt(i);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = ((c - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
          i++;
        }
      }
      state = this.step(state, c);
    }
    return this.isAccept(state);
  }

  describe(): string {
    return `${this.kind} [${this.source}]`;
  }

  /** States that accept, cover every code point, and only lead to such states (a greatest fixpoint). */
  private universalStates(): Uint8Array {
    const size = this.size;
    const universal = new Uint8Array(size);
    const incoming = reverseEdges(size, (s, visit) => {
      for (let k = this.offsets[s]; k < this.offsets[s + 1]; k++) visit(this.targets[k]);
    });
    const removed: number[] = [];
    for (let s = 0; s < size; s++) {
      let next = 0;
      for (let k = this.offsets[s]; k < this.offsets[s + 1] && this.mins[k] === next; k++) next = this.maxs[k] + 1;
      if (this.accepts[s] === 1 && next === MAX_CODE_POINT + 1) universal[s] = 1;
      else removed.push(s);
    }
    while (removed.length > 0) {
      const s = removed.pop()!;
      for (let k = incoming.offsets[s]; k < incoming.offsets[s + 1]; k++) {
        const p = incoming.sources[k];
        if (universal[p] === 1) {
          universal[p] = 0;
          removed.push(p);
        }
      }
    }
    return universal;
  }
}
