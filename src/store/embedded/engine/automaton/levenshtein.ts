/**
 * Levenshtein automata: the DFA of the terms within `maxEdits` edits of a word, after Lucene's
 * LevenshteinAutomata(word, alphaMax, transpositions).toAutomaton(maxEdits, prefix) as
 * FuzzyAutomatonBuilder calls it: the first `prefixLength` code points must match exactly, the rest
 * is within `maxEdits` (0 to 2) insertions, deletions and substitutions of code points and, with
 * `transpositions`, swaps of two adjacent code points (Damerau-Levenshtein as the optimal string
 * alignment: no character is edited twice).
 *
 * Lucene builds it from Schulz and Mihov's precomputed parametric descriptions (generated tables);
 * here it is built directly from the dynamic-programming rows of the edit distance, which gives the
 * same language (tested against Lucene in testing/lucene.test.ts): a state is the row of distances
 * between what was read and each prefix of the word (capped at maxEdits + 1), plus, with
 * transpositions, the distances a swap ending at the next character would give. Only a window of
 * 2 * maxEdits + 1 positions around the length read can hold a distance within maxEdits, so a state
 * is its first live position and that window: at most a few hundred states per character of the
 * word, whatever it is made of. Each state also keeps its distance to the whole word, which
 * FuzzyTermsEnum computes by running the automata of smaller distances (`distance`).
 *
 * Written by hand: the npm Levenshtein-automaton packages either implement only Schulz-Mihov without
 * transpositions, or a per-string matcher, not a DFA over code point ranges to walk a sorted term
 * dictionary with (intersect.ts).
 */
import { Budget, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { TooComplexError } from './budget';
import { MAX_CODE_POINT, charCount, codePointAt, codePoints } from './codePoints';
import { Dfa } from './dfa';
import { RunAutomaton } from './runAutomaton';

/** Lucene's LevenshteinAutomata.MAXIMUM_SUPPORTED_DISTANCE. */
export const MAX_EDITS = 2;

/** Window keys: 4 bits for each of at most 2 * MAX_EDITS + 1 positions. */
const WINDOW_KEYS = 16 ** (2 * MAX_EDITS + 1);
/** Characteristic vectors: one bit for each of at most 2 * (2 * MAX_EDITS + 1) + 3 positions. */
const VECTORS = 2 ** (2 * (2 * MAX_EDITS + 1) + 3);
/**
 * Parametric states numbered at most (their keys with a vector stay below 2^30): all forgotten
 * before a build once half of them are used; a build that finds none left makes its steps without
 * remembering them.
 */
const MAX_PARAMETRIC_STATES = 1 << 16;
/**
 * Parametric states, numbered: a state's window, its nearness to the word's ends (its first live
 * position capped at 2, and how many positions a step reads after it), maxEdits and transpositions.
 */
const parametricStates = new Map<number, number>();
/**
 * The steps made, for every word and distance, by parametric state and characteristic vector (key
 * parametric * VECTORS + vector): the shift of the first live position times WINDOW_KEYS plus the
 * new window, or -1 (dead). Open addressing in typed arrays (a Map's lookups cost as much as the
 * step itself); forgotten all at once when half full.
 */
const STEP_BITS = 16;
const STEP_SLOTS = 1 << STEP_BITS;
const stepKeys = new Int32Array(STEP_SLOTS).fill(-1);
const stepValues = new Int32Array(STEP_SLOTS);
let stepsKept = 0;
/** Bumped when the parametric states are forgotten: a build paused meanwhile (budget) stops using its numbers. */
let generation = 0;
const NO_TRANSITIONS: number[] = [];

/** Forgets the parametric states and the steps remembered (exported for tests). */
export function forgetSteps(): void {
  parametricStates.clear();
  stepKeys.fill(-1);
  stepsKept = 0;
  generation++;
}

/** DFA states made between two checks of a search's time budget. */
const STATES_PER_CHECK = 64;

export interface LevenshteinOptions {
  readonly maxEdits: number;
  /** Code points that must match exactly (capped at the word's length). */
  readonly prefixLength: number;
  readonly transpositions: boolean;
  /** Most states the automaton may have (TooComplexError beyond). */
  readonly maxStates: number;
}

/** A Levenshtein DFA that also tells how many edits an accepted term is from the word. */
export class LevenshteinAutomaton extends RunAutomaton {
  constructor(
    dfa: Dfa,
    source: string,
    /** Per state: the edits from the word when the term ends there, -1 if it is not accepted. */
    private readonly distances: Int8Array,
    /** The word's length in code points (FuzzyTermsEnum's termLength). */
    readonly wordLength: number,
  ) {
    super(dfa, 'fuzzy', source);
  }

  /** Edits between `term` and the word (prefix respected), or -1 when more than maxEdits. */
  distance(term: string): number {
    let state = this.initial;
    for (let i = 0; i < term.length && state >= 0; ) {
      const c = codePointAt(term, i);
      i += charCount(c);
      state = this.step(state, c);
    }
    return state < 0 ? -1 : this.distances[state];
  }
}

export function compileLevenshtein(word: string, options: LevenshteinOptions): LevenshteinAutomaton {
  return runToEnd(compileLevenshteinSteps(word, options, UNLIMITED));
}

/** compileLevenshtein within a search's time budget: pauses every STATES_PER_CHECK states when its slice is over. */
export function* compileLevenshteinSteps(word: string, options: LevenshteinOptions, time: Budget): Steps<LevenshteinAutomaton> {
  const { maxEdits, transpositions, maxStates } = options;
  if (!Number.isInteger(maxEdits) || maxEdits < 0 || maxEdits > MAX_EDITS) throw new RangeError(`max edits must be 0..${MAX_EDITS}, inclusive; got: ${maxEdits}`);
  if (!Number.isInteger(options.prefixLength) || options.prefixLength < 0) throw new RangeError('prefixLength cannot be less than 0');
  const points = codePoints(word);
  const prefixLength = Math.min(options.prefixLength, points.length);
  const prefix = points.slice(0, prefixLength);
  const w = points.slice(prefixLength);
  const n = w.length;
  const cap = maxEdits + 1;
  const width = 2 * maxEdits + 1;
  /** Positions a step reads, from a state's first live one. */
  const span = 2 * width + 2;

  const accept: boolean[] = [];
  const transitions: number[][] = [];
  const distances: number[] = [];
  // the exact prefix: a chain of states
  for (let i = 0; i < prefix.length; i++) {
    accept.push(false);
    transitions.push([prefix[i], prefix[i], i + 1]);
    distances.push(-1);
  }
  const first = prefix.length;

  // A Levenshtein state: `from` (first position holding a value below cap) and, for the `width`
  // positions from there, the row value r[i] and the swap value t[i] (cap elsewhere), kept in
  // `values` at id * width as r * 4 + t.
  const byFrom: number[][] = [];
  let values = new Uint8Array(64 * width);
  const froms: number[] = [];
  /** Per state: its window's digits (windowKey), and its parametric state (-1: none, its steps are not remembered). */
  const wkeys: number[] = [];
  const parametrics: number[] = [];
  if (parametricStates.size >= MAX_PARAMETRIC_STATES / 2) forgetSteps();
  const numbering = generation;
  const pending: number[] = [];
  /** Scratch: the window of the state being looked up. */
  const window = new Uint8Array(width);
  /** The window's digits (4 bits per position, window[0] first: at most 20 bits). */
  const windowKey = (): number => {
    let key = 0;
    for (let i = 0; i < width; i++) key = key * 16 + window[i];
    return key;
  };
  const stateOf = (from: number, wkey: number): number => {
    // the states at `from` (a few dozen at most): [wkey, id, wkey, id, ...]
    const here = (byFrom[from] ??= []);
    for (let i = 0; i < here.length; i += 2) if (here[i] === wkey) return here[i + 1];
    const id = accept.length;
    if (id - first >= maxStates) throw new TooComplexError(word, maxStates);
    here.push(wkey, id);
    const last = n - from; // window index of position n
    const d = last >= 0 && last < width ? window[last] >> 2 : cap;
    accept.push(d <= maxEdits);
    distances.push(d <= maxEdits ? d : -1);
    transitions.push(NO_TRANSITIONS);
    const local = id - first;
    if ((local + 1) * width > values.length) {
      const grown = new Uint8Array(values.length * 2);
      grown.set(values);
      values = grown;
    }
    values.set(window, local * width);
    froms[local] = from;
    wkeys[local] = wkey;
    const shape = (((wkey * 3 + Math.min(from, 2)) * 16 + (Math.min(n, from + span - 1) - from)) * 3 + maxEdits) * 2 + (transpositions ? 1 : 0);
    let parametric = numbering === generation ? parametricStates.get(shape) : -1;
    if (parametric === undefined && parametricStates.size < MAX_PARAMETRIC_STATES) {
      parametric = parametricStates.size;
      parametricStates.set(shape, parametric);
    }
    parametrics[local] = parametric ?? -1;
    pending.push(id);
    return id;
  };

  // after reading nothing: r[i] = i
  window.fill(cap * 4 + cap);
  for (let i = 0; i < width && i <= n; i++) window[i] = Math.min(i, cap) * 4 + cap;
  stateOf(0, windowKey());

  // scratch rows over the positions [from, hi] a step can reach
  const nextR = new Int8Array(span);
  const nextT = new Int8Array(span);
  /**
   * The state after reading `c` (-1: any code point that is not in the word), -1 if dead. What a
   * step makes of a state depends only on its window, on where it is near either end of the word,
   * and on which of the word's code points around it equal `c` (its characteristic vector, as in
   * Schulz and Mihov's parametric descriptions): `next` remembers the steps made, for every word.
   */
  const step = (s: number, c: number): number => {
    const local = s - first;
    const from = froms[local];
    const hi = Math.min(n, from + span - 1);
    // bit j: whether w[from - 2 + j] is c, for the positions [from - 2, hi) a step reads
    let vector = 0;
    for (let j = from - 2, bit = 1; j < hi; j++, bit *= 2) if (j >= 0 && w[j] === c) vector += bit;
    const parametric = parametrics[local];
    let made: number;
    if (parametric < 0 || numbering !== generation) made = stepWindow(local, from, hi, c);
    else {
      const key = parametric * VECTORS + vector;
      let slot = Math.imul(key, 0x9e3779b1) >>> (32 - STEP_BITS);
      while (stepKeys[slot] !== key && stepKeys[slot] !== -1) slot = (slot + 1) & (STEP_SLOTS - 1);
      if (stepKeys[slot] === key) made = stepValues[slot];
      else {
        made = stepWindow(local, from, hi, c);
        if (stepsKept >= STEP_SLOTS / 2) {
          stepKeys.fill(-1);
          stepsKept = 0;
          slot = Math.imul(key, 0x9e3779b1) >>> (32 - STEP_BITS);
        }
        stepKeys[slot] = key;
        stepValues[slot] = made;
        stepsKept++;
      }
    }
    if (made < 0) return -1;
    const wkey = made & (WINDOW_KEYS - 1);
    for (let i = width - 1, digits = wkey; i >= 0; i--, digits >>= 4) window[i] = digits & 15;
    return stateOf(from + (made >> 20), wkey);
  };
  /** The step of state `local` on `c`, as the shift of its first live position and the window there (windowKey), or -1 when dead. */
  const stepWindow = (local: number, from: number, hi: number, c: number): number => {
    const base = local * width;
    const end = from + width;
    let firstLive = -1;
    let lastLive = -1;
    for (let i = from; i <= hi; i++) {
      const k = i - from;
      // r'[i] = min(r[i] + 1 (insert c), r'[i-1] + 1 (delete w[i-1]), r[i-1] + (c != w[i-1]), swap)
      let v = (i < end ? values[base + k] >> 2 : cap) + 1;
      if (i > 0) {
        if (k > 0 && nextR[k - 1] + 1 < v) v = nextR[k - 1] + 1;
        const diagonal = (i - 1 >= from && i - 1 < end ? values[base + k - 1] >> 2 : cap) + (c === w[i - 1] ? 0 : 1);
        if (diagonal < v) v = diagonal;
        if (i >= 2 && c === w[i - 2] && i < end) {
          const swap = values[base + k] & 3;
          if (swap < v) v = swap;
        }
      }
      nextR[k] = v < cap ? v : cap;
      // t'[i]: w[i-2] w[i-1] read swapped, c (= w[i-1]) then w[i-2], costs r[i-2] + 1
      let t = cap;
      if (transpositions && i >= 2 && c === w[i - 1] && i - 2 >= from && i - 2 < end) t = Math.min((values[base + k - 2] >> 2) + 1, cap);
      nextT[k] = t;
      if (nextR[k] < cap || t < cap) {
        if (firstLive < 0) firstLive = i;
        lastLive = i;
      }
    }
    if (firstLive < 0) return -1;
    if (lastLive - firstLive >= width) throw new Error(`internal: Levenshtein state wider than ${width}`);
    for (let j = 0; j < width; j++) {
      const k = firstLive - from + j;
      window[j] = firstLive + j <= hi ? nextR[k] * 4 + nextT[k] : cap * 4 + cap;
    }
    return (firstLive - from) * WINDOW_KEYS + windowKey();
  };

  let made = 0;
  const chars: number[] = [];
  while (pending.length > 0) {
    const s = pending.pop() as number;
    // only the word's characters near the window act differently from any other character
    const from = froms[s - first];
    chars.length = 0;
    for (let i = Math.max(0, from - 2); i < Math.min(n, from + width + 1); i++) if (!chars.includes(w[i])) chars.push(w[i]);
    for (let i = 1; i < chars.length; i++) {
      const c = chars[i];
      let j = i;
      for (; j > 0 && chars[j - 1] > c; j--) chars[j] = chars[j - 1];
      chars[j] = c;
    }
    const other = step(s, -1);
    const out: number[] = [];
    const push = (min: number, max: number, target: number) => {
      if (target < 0 || min > max) return;
      const last = out.length - 3;
      if (last >= 0 && out[last + 2] === target && out[last + 1] === min - 1) out[last + 1] = max;
      else out.push(min, max, target);
    };
    let next = 0;
    for (const c of chars) {
      push(next, c - 1, other);
      push(c, c, step(s, c));
      next = c + 1;
    }
    push(next, MAX_CODE_POINT, other);
    transitions[s] = out;
    if (++made % STATES_PER_CHECK === 0 && time.due()) yield;
  }
  return new LevenshteinAutomaton({ accept, transitions }, word, Int8Array.from(distances), points.length);
}
