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
  const mark = new Int32Array(nfa.size);
  let stamp = 0;
  const stack: number[] = [];
  const kernels: number[][] = [];
  const accept: boolean[] = [];
  const transitions: number[][] = [];
  const byKernel = new Map<string, number>();
  const byTargets = new Map<string, number>();

  /** The DFA state for the epsilon closure of `seeds`, or -1 when that closure is dead. */
  const stateOf = (seeds: readonly number[]): number => {
    stamp++;
    for (const s of seeds) {
      if (mark[s] !== stamp) {
        mark[s] = stamp;
        stack.push(s);
      }
    }
    const kernel: number[] = [];
    let accepts = false;
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (s === final) accepts = true;
      if (nfa.transitions[s].length > 0) kernel.push(s);
      for (const t of nfa.epsilons[s]) {
        if (mark[t] !== stamp) {
          mark[t] = stamp;
          stack.push(t);
        }
      }
    }
    if (kernel.length === 0 && !accepts) return -1;
    kernel.sort((a, b) => a - b);
    const key = accepts ? `${kernel.join(',')}!` : kernel.join(',');
    let id = byKernel.get(key);
    if (id === undefined) {
      id = kernels.length;
      byKernel.set(key, id);
      kernels.push(kernel);
      accept.push(accepts);
      transitions.push([]);
    }
    return id;
  };

  if (stateOf([start]) < 0) return EMPTY_DFA;
  for (let d = 0; d < kernels.length; d++) {
    const kernel = kernels[d];
    budget.chargeDeterminize(kernel.length);
    // The boundaries where the set of NFA targets can change: every min and max + 1.
    const bounds: number[] = [];
    for (const s of kernel) {
      const ts = nfa.transitions[s];
      for (let j = 0; j < ts.length; j += 3) bounds.push(ts[j], ts[j + 1] + 1);
    }
    bounds.sort((a, b) => a - b);
    const points = dedupeSorted(bounds);
    // NFA targets of each elementary interval [points[i], points[i + 1] - 1].
    const buckets: number[][] = Array.from({ length: points.length - 1 }, () => []);
    let work = 0;
    for (const s of kernel) {
      const ts = nfa.transitions[s];
      for (let j = 0; j < ts.length; j += 3) {
        const first = lowerBound(points, ts[j]);
        const last = lowerBound(points, ts[j + 1] + 1);
        for (let i = first; i < last; i++) buckets[i].push(ts[j + 2]);
        work += last - first;
      }
    }
    budget.chargeWork(work);
    const out = transitions[d];
    for (let i = 0; i < buckets.length; i++) {
      const targets = buckets[i];
      if (targets.length === 0) continue;
      let key: string;
      if (targets.length === 1) key = String(targets[0]);
      else {
        targets.sort((a, b) => a - b);
        key = dedupeSorted(targets).join(',');
      }
      let to = byTargets.get(key);
      if (to === undefined) {
        to = stateOf(targets);
        byTargets.set(key, to);
      }
      if (to >= 0) appendRange(out, points[i], points[i + 1] - 1, to);
    }
  }
  return removeDeadStates({ accept, transitions });
}

/** Drops states from which no accepting state can be reached, and the transitions to them. */
export function removeDeadStates(dfa: Dfa): Dfa {
  const n = dfa.accept.length;
  const incoming: number[][] = Array.from({ length: n }, () => []);
  for (let s = 0; s < n; s++) {
    const ts = dfa.transitions[s];
    for (let j = 0; j < ts.length; j += 3) incoming[ts[j + 2]].push(s);
  }
  const live = new Uint8Array(n);
  const queue: number[] = [];
  for (let s = 0; s < n; s++) {
    if (dfa.accept[s]) {
      live[s] = 1;
      queue.push(s);
    }
  }
  while (queue.length > 0) {
    for (const p of incoming[queue.pop()!]) {
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

function dedupeSorted(values: number[]): number[] {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (i === 0 || values[i] !== values[n - 1]) values[n++] = values[i];
  values.length = n;
  return values;
}

/** First index whose value is >= target. */
function lowerBound(values: readonly number[], target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
