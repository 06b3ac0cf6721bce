/**
 * Deterministic automata over code point ranges and the operations that need them: subset
 * construction from an NFA (Lucene 9 Operations.determinize, with its effort accounting),
 * removing dead states (Operations.removeDeadStates), complement over the whole code point range
 * (Operations.complement) and intersection (Operations.intersection, the product construction).
 *
 * Determinization splits the code point space at the boundaries of the transitions leaving a DFA
 * state's NFA states (as Lucene's PointTransitionSet), never per code point.
 */
import { MAX_CODE_POINT } from './codePoints';
import { WorkBudget } from './budget';
import { IntSetTable } from './intSetTable';
import { Budget, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { Nfa } from './nfa';

export interface Dfa {
  /** Per state: whether it accepts. State 0 is initial; no states at all is the empty language. */
  readonly accept: readonly boolean[];
  /** Per state: sorted, disjoint ranges and their targets, flattened [min, max, target, ...]. */
  readonly transitions: readonly (readonly number[])[];
}

export const EMPTY_DFA: Dfa = { accept: [], transitions: [] };

/** The language of every string. */
export const UNIVERSAL_DFA: Dfa = { accept: [true], transitions: [[0, MAX_CODE_POINT, 0]] };

/**
 * Subset construction. A DFA state is the set of NFA states with character transitions reached
 * through epsilon moves, plus whether `final` is reached; Lucene's effort is the size of that set,
 * charged when the state is taken from the worklist. The result has no dead states.
 */
export function determinize(nfa: Nfa, start: number, final: number, budget: WorkBudget): Dfa {
  return runToEnd(determinizeSteps(nfa, start, final, budget, UNLIMITED));
}

/** DFA states made between two checks of a search's time budget. */
const STATES_PER_CHECK = 64;

/**
 * determinize, as steps that check a search's time budget every STATES_PER_CHECK DFA states and
 * pause when its slice is over: a pattern near its effort limit takes tens of milliseconds to
 * determinize (or to be refused), which would otherwise keep the event loop.
 */
export function* determinizeSteps(nfa: Nfa, start: number, final: number, budget: WorkBudget, time: Budget): Steps<Dfa> {
  const mark = new Int32Array(nfa.size);
  let stamp = 0;
  const stack = new Int32Array(nfa.size);
  let closure = new Int32Array(16);
  /** DFA states: their kernels, followed by -1 when they accept. */
  const kernels = new IntSetTable();
  const accept: boolean[] = [];
  const transitions: number[][] = [];
  /** Sets of NFA targets met so far, and their DFA states (-1: dead). */
  const targetSets = new IntSetTable();
  const stateOfTargets: number[] = [];

  /** The DFA state for the epsilon closure of the sorted set `seeds[from, to)`; -1 if it is dead. */
  const stateOf = (seeds: Int32Array, from: number, to: number): number => {
    const known = targetSets.intern(seeds, from, to);
    if (known < stateOfTargets.length) return stateOfTargets[known];
    stamp++;
    let top = 0;
    for (let i = from; i < to; i++) {
      mark[seeds[i]] = stamp;
      stack[top++] = seeds[i];
    }
    let size = 0;
    let accepts = false;
    while (top > 0) {
      const s = stack[--top];
      if (s === final) accepts = true;
      if (nfa.transitions[s].length > 0) {
        if (size + 1 >= closure.length) closure = grow(closure, size * 2 + 2);
        closure[size++] = s;
      }
      const eps = nfa.epsilons[s];
      for (let j = 0; j < eps.length; j++) {
        if (mark[eps[j]] !== stamp) {
          mark[eps[j]] = stamp;
          stack[top++] = eps[j];
        }
      }
    }
    let id = -1;
    if (size > 0 || accepts) {
      sortInts(closure, 0, size);
      if (accepts) closure[size] = -1;
      id = kernels.intern(closure, 0, accepts ? size + 1 : size);
      if (id === accept.length) {
        accept.push(accepts);
        transitions.push([]);
      }
    }
    stateOfTargets.push(id);
    return id;
  };

  // Reused buffers: the transitions leaving a DFA state, the interval boundaries, and the NFA
  // targets of each elementary interval (counted, then filled: CSR).
  let mins = new Int32Array(16);
  let maxs = new Int32Array(16);
  let tos = new Int32Array(16);
  let bounds = new Int32Array(32);
  let offsets = new Int32Array(32);
  let targets = new Int32Array(32);

  if (stateOf(Int32Array.of(start), 0, 1) < 0) return EMPTY_DFA;
  for (let d = 0; d < accept.length; d++) {
    if (d % STATES_PER_CHECK === STATES_PER_CHECK - 1 && time.due()) yield;
    const first = kernels.start(d);
    const last = accept[d] ? kernels.end(d) - 1 : kernels.end(d);
    budget.chargeDeterminize(last - first);
    let count = 0;
    for (let k = first; k < last; k++) {
      const ts = nfa.transitions[kernels.at(k)];
      if (count + ts.length / 3 > mins.length) {
        const n = (count + ts.length / 3) * 2;
        mins = grow(mins, n);
        maxs = grow(maxs, n);
        tos = grow(tos, n);
      }
      for (let j = 0; j < ts.length; j += 3, count++) {
        mins[count] = ts[j];
        maxs[count] = ts[j + 1];
        tos[count] = ts[j + 2];
      }
    }
    if (count === 0) continue;
    // The boundaries where the set of targets can change: every min and max + 1.
    if (bounds.length < 2 * count) bounds = new Int32Array(4 * count);
    for (let t = 0; t < count; t++) {
      bounds[2 * t] = mins[t];
      bounds[2 * t + 1] = maxs[t] + 1;
    }
    sortInts(bounds, 0, 2 * count);
    let points = 0;
    for (let i = 0; i < 2 * count; i++) if (i === 0 || bounds[i] !== bounds[points - 1]) bounds[points++] = bounds[i];
    const intervals = points - 1;
    if (offsets.length < points + 1) offsets = new Int32Array(2 * points + 2);
    offsets.fill(0, 0, points + 1);
    let work = 0;
    for (let t = 0; t < count; t++) {
      const first = lowerBound(bounds, points, mins[t]);
      const last = lowerBound(bounds, points, maxs[t] + 1);
      for (let i = first; i < last; i++) offsets[i + 1]++;
      work += last - first;
    }
    budget.chargeWork(work);
    for (let i = 0; i < intervals; i++) offsets[i + 1] += offsets[i];
    if (targets.length < work) targets = new Int32Array(2 * work);
    for (let t = 0; t < count; t++) {
      const last = lowerBound(bounds, points, maxs[t] + 1);
      for (let i = lowerBound(bounds, points, mins[t]); i < last; i++) targets[offsets[i]++] = tos[t];
    }
    // offsets[i] now ends interval i, which starts where interval i - 1 ends.
    const out = transitions[d];
    for (let i = 0, from = 0; i < intervals; from = offsets[i], i++) {
      if (offsets[i] === from) continue;
      sortInts(targets, from, offsets[i]);
      let end = from + 1;
      for (let j = from + 1; j < offsets[i]; j++) if (targets[j] !== targets[end - 1]) targets[end++] = targets[j];
      const to = stateOf(targets, from, end);
      if (to >= 0) appendRange(out, bounds[i], bounds[i + 1] - 1, to);
    }
  }
  return removeDeadStates({ accept, transitions });
}

/** Drops states from which no accepting state can be reached, and the transitions to them. */
export function removeDeadStates(dfa: Dfa): Dfa {
  const n = dfa.accept.length;
  const incoming = reverseEdges(n, (s, visit) => {
    const ts = dfa.transitions[s];
    for (let j = 2; j < ts.length; j += 3) visit(ts[j]);
  });
  const live = new Uint8Array(n);
  const queue: number[] = [];
  for (let s = 0; s < n; s++) {
    if (dfa.accept[s]) {
      live[s] = 1;
      queue.push(s);
    }
  }
  while (queue.length > 0) {
    const s = queue.pop()!;
    for (let k = incoming.offsets[s]; k < incoming.offsets[s + 1]; k++) {
      const p = incoming.sources[k];
      if (!live[p]) {
        live[p] = 1;
        queue.push(p);
      }
    }
  }
  if (n === 0 || !live[0]) return EMPTY_DFA;
  // Every live state stays reachable from the initial state: a path to it is made of live states.
  const renumber = new Int32Array(n).fill(-1);
  let next = 0;
  for (let s = 0; s < n; s++) if (live[s]) renumber[s] = next++;
  if (next === n) return dfa;
  const accept: boolean[] = [];
  const transitions: number[][] = [];
  for (let s = 0; s < n; s++) {
    if (!live[s]) continue;
    accept.push(dfa.accept[s]);
    const ts = dfa.transitions[s];
    const out: number[] = [];
    for (let j = 0; j < ts.length; j += 3) if (live[ts[j + 2]]) out.push(ts[j], ts[j + 1], renumber[ts[j + 2]]);
    transitions.push(out);
  }
  return { accept, transitions };
}

/** Every string the DFA rejects: totalize with a sink state, flip acceptance, drop dead states. */
export function complement(dfa: Dfa): Dfa {
  if (dfa.accept.length === 0) return UNIVERSAL_DFA;
  const sink = dfa.accept.length;
  let sinkUsed = false;
  const transitions: number[][] = dfa.transitions.map((ts) => {
    const out: number[] = [];
    let next = 0;
    for (let j = 0; j < ts.length; j += 3) {
      if (ts[j] > next) out.push(next, ts[j] - 1, sink);
      out.push(ts[j], ts[j + 1], ts[j + 2]);
      next = ts[j + 1] + 1;
    }
    if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT, sink);
    sinkUsed ||= out.length > ts.length;
    return out;
  });
  const accept = dfa.accept.map((a) => !a);
  if (sinkUsed) {
    transitions.push([0, MAX_CODE_POINT, sink]);
    accept.push(true);
  }
  return removeDeadStates({ accept, transitions });
}

/** Strings both DFAs accept: the product construction, each pair of states charged to the budget. */
export function intersection(a: Dfa, b: Dfa, budget: WorkBudget): Dfa {
  if (a.accept.length === 0 || b.accept.length === 0) return EMPTY_DFA;
  const width = b.accept.length;
  const ids = new Map<number, number>([[0, 0]]);
  const pairs: number[] = [0, 0];
  const accept: boolean[] = [];
  const transitions: number[][] = [];
  for (let p = 0; p < pairs.length / 2; p++) {
    budget.chargeDeterminize(2);
    const s1 = pairs[2 * p];
    const s2 = pairs[2 * p + 1];
    accept.push(a.accept[s1] && b.accept[s2]);
    const t1 = a.transitions[s1];
    const t2 = b.transitions[s2];
    const out: number[] = [];
    for (let i = 0, j = 0; i < t1.length && j < t2.length; ) {
      const min = Math.max(t1[i], t2[j]);
      const max = Math.min(t1[i + 1], t2[j + 1]);
      if (min <= max) {
        const key = t1[i + 2] * width + t2[j + 2];
        let to = ids.get(key);
        if (to === undefined) {
          to = pairs.length / 2;
          ids.set(key, to);
          pairs.push(t1[i + 2], t2[j + 2]);
        }
        appendRange(out, min, max, to);
      }
      if (t1[i + 1] < t2[j + 1]) i += 3;
      else j += 3;
    }
    transitions.push(out);
  }
  return removeDeadStates({ accept, transitions });
}

/** Appends [min, max] -> to, extending the last range when it ends just before with the same target. */
function appendRange(out: number[], min: number, max: number, to: number): void {
  const n = out.length;
  if (n > 0 && out[n - 1] === to && out[n - 2] + 1 === min) out[n - 2] = max;
  else out.push(min, max, to);
}

/** The edges of a graph of n states reversed, in CSR form: sources of s at [offsets[s], offsets[s + 1]). */
export function reverseEdges(
  n: number,
  forEachTarget: (s: number, visit: (target: number) => void) => void,
): { offsets: Int32Array; sources: Int32Array } {
  const offsets = new Int32Array(n + 1);
  for (let s = 0; s < n; s++) forEachTarget(s, (t) => offsets[t + 1]++);
  for (let s = 0; s < n; s++) offsets[s + 1] += offsets[s];
  const fill = offsets.slice(0, n);
  const sources = new Int32Array(offsets[n]);
  for (let s = 0; s < n; s++) forEachTarget(s, (t) => (sources[fill[t]++] = s));
  return { offsets, sources };
}

function grow(values: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(size);
  grown.set(values);
  return grown;
}

/** Sorts values[from, to) in place: quicksort down to short runs, then insertion sort. */
function sortInts(values: Int32Array, from: number, to: number): void {
  let sorted = true;
  for (let i = from + 1; i < to && sorted; i++) sorted = values[i - 1] <= values[i];
  if (sorted) return; // often so: targets come in the order of their (sorted) sources
  while (to - from > 24) {
    const mid = (from + to) >>> 1;
    const a = values[from];
    const b = values[mid];
    const c = values[to - 1];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = from;
    let j = to - 1;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        const t = values[i];
        values[i++] = values[j];
        values[j--] = t;
      }
    }
    // Recurse into the shorter part, loop on the longer one.
    if (j - from < to - i) {
      sortInts(values, from, j + 1);
      from = i;
    } else {
      sortInts(values, i, to);
      to = j + 1;
    }
  }
  for (let i = from + 1; i < to; i++) {
    const v = values[i];
    let j = i - 1;
    for (; j >= from && values[j] > v; j--) values[j + 1] = values[j];
    values[j + 1] = v;
  }
}

/** First index in values[0, length) whose value is >= target. */
function lowerBound(values: Int32Array, length: number, target: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
