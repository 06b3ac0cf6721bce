/**
 * Intersects a RunAutomaton with a sorted term dictionary, after Lucene's AutomatonTermsEnum: run
 * each term, and where the automaton dies after a prefix, seek (binary search) to the smallest
 * string it could still accept, skipping every term in between; where it accepts every suffix
 * (after `.*`, or a prefix query's prefix), take the whole block of terms with that prefix without
 * running them. Consecutive terms reuse the states of their common prefix. The cost grows with the
 * terms visited, not with the dictionary.
 *
 * Terms must be sorted as compareUtf8 (UTF-8 byte order, which is code point order). Lone
 * surrogates sort there among the supplementary characters although their code points are lower;
 * where a seek would rely on code point order across that region, the scan steps to the next term
 * instead, so the result is exact for any string.
 */
import { compareUtf8 } from '../strings';
import { isHighSurrogate } from './codePoints';
import { RunAutomaton } from './runAutomaton';

export interface SortedTerms {
  readonly size: number;
  /** Term i; ascending in compareUtf8 order. */
  term(i: number): string;
  /**
   * Term i's UTF-16 code units into `out` from 0, without making its string; returns its length, and
   * writes nothing when `out` is shorter (sortedTerms.ts). Without it, the walk reads `term(i)`.
   */
  codeUnits?(i: number, out: Uint16Array): number;
}

/** An array of code units, replaced by a larger one when a term does not fit. */
interface Units {
  units: Uint16Array;
}

/** Term i's code units into `into.units` (grown when short); returns its length (no allocation per term). */
function readTerm(terms: SortedTerms, i: number, into: Units): number {
  let out = into.units;
  if (terms.codeUnits === undefined) {
    const term = terms.term(i);
    if (term.length > out.length) into.units = out = new Uint16Array(Math.max(term.length, 2 * out.length));
    for (let k = 0; k < term.length; k++) out[k] = term.charCodeAt(k);
    return term.length;
  }
  let length = terms.codeUnits(i, out);
  if (length > out.length) {
    into.units = out = new Uint16Array(Math.max(length, 2 * out.length));
    length = terms.codeUnits(i, out);
  }
  return length;
}

/** The code point at k of units [0, length) (String.prototype.codePointAt's: a lone surrogate is its own code unit). */
function codePointAt(units: Uint16Array, length: number, k: number): number {
  const c = units[k];
  if (c >= 0xd800 && c <= 0xdbff && k + 1 < length) {
    const d = units[k + 1];
    if (d >= 0xdc00 && d <= 0xdfff) return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
  }
  return c;
}

/** The string of units [0, length) (code unit by code unit: exact for lone surrogates too). */
function text(units: Uint16Array, length: number): string {
  let out = '';
  for (let from = 0; from < length; from += 4096) out += String.fromCharCode.apply(null, units.subarray(from, Math.min(length, from + 4096)) as unknown as number[]);
  return out;
}

/** Terms visited between two calls of `checkpoint`. */
export const CHECKPOINT_INTERVAL = 1000;

/**
 * Where a walk stopped early (intersectSorted's `stop`): it asks `due()` before each term it reads
 * in turn but the first, and when told to, sets `at` to that term, never 0 (the terms before it are
 * done: those accepted were passed to `visit`) and returns; `at` is the size when the walk went to
 * the end.
 */
export interface WalkStop {
  due(): boolean;
  at: number;
}

/**
 * Calls `visit(i)` for each term the automaton accepts, in ascending order, and returns how many.
 * `checkpoint`, when given, is called about every 1,000 terms visited; whatever it throws goes
 * through (the terms visited before have been passed to `visit`, nothing else is left behind).
 * `stop`, when given, may end the walk early, where it can go on from (WalkStop).
 */
export function intersectSorted(
  automaton: RunAutomaton,
  terms: SortedTerms,
  visit: (i: number) => void,
  checkpoint?: () => void,
  stop?: WalkStop,
): number {
  const size = terms.size;
  if (stop !== undefined) stop.at = size;
  if (automaton.initial < 0 || size === 0) return 0;
  let untilCheckpoint = CHECKPOINT_INTERVAL;
  /** Counts a term read or visited; calls `checkpoint` every CHECKPOINT_INTERVAL of them. */
  const tick = (): void => {
    if (--untilCheckpoint <= 0) {
      untilCheckpoint = CHECKPOINT_INTERVAL;
      checkpoint?.();
    }
  };
  let matches = 0;
  const visitBlock = (from: number, to: number): void => {
    for (let j = from; j < to; j++) {
      visit(j);
      matches++;
      tick();
    }
  };

  if (automaton.acceptsAllFrom(automaton.initial)) {
    visitBlock(0, size); // every term matches: none needs reading
    return matches;
  }

  // states[k]: the state after the first k code units of the previous term (at code point boundaries).
  let states = new Int32Array(64);
  states[0] = automaton.initial;
  // each term is read as code units into `unit` (no string made: a walk visits up to every term of
  // the dictionary, and their strings were most of what bench:abuse's pattern queries allocated),
  // the previous one kept in `previous` for the states they share
  let unit: Units = { units: new Uint16Array(64) };
  let previous: Units = { units: new Uint16Array(64) };
  let previousLength = 0;
  let known = 0; // states[0..known] hold for `previous`
  let i = 0;
  while (i < size) {
    // (not before the first term: a walk always goes at least one term on, however soon it is told to stop)
    if (i > 0 && stop?.due()) {
      stop.at = i;
      return matches;
    }
    tick();
    const length = readTerm(terms, i, unit);
    if (states.length <= length) {
      const grown = new Int32Array(Math.max(length + 1, states.length * 2));
      grown.set(states);
      states = grown;
    }
    let k = commonPrefix(previous.units, previousLength, unit.units, length, known);
    if (k > 0 && isHighSurrogate(unit.units[k - 1])) k--; // it may pair differently here
    const swap = previous;
    previous = unit;
    unit = swap;
    previousLength = length;
    const term = previous.units; // (this term's units, from here on)
    let state = states[k];
    let dead = -1; // the code point the automaton died on, at offset k
    while (k < length) {
      if (automaton.acceptsAllFrom(state) && (k === 0 || !isHighSurrogate(term[k - 1]))) break;
      const c = codePointAt(term, length, k);
      const next = automaton.step(state, c);
      if (next < 0) {
        dead = c;
        break;
      }
      k += c > 0xffff ? 2 : 1;
      states[k] = state = next;
    }
    known = k;
    if (dead >= 0) {
      const target = seekTarget(automaton, text(term, length), k, dead, states);
      if (target === undefined) break; // no later term can match
      i = target === STEP ? i + 1 : lowerBound(terms, target, i + 1);
    } else if (k < length) {
      // Every term with this prefix matches.
      const prefix = text(term, k);
      const end = prefixEnd(terms, prefix, i + 1);
      visitBlock(i, end);
      i = end;
    } else {
      if (automaton.isAccept(state)) visitBlock(i, i + 1);
      i++;
    }
  }
  return matches;
}

/** Step to the next term instead of seeking. */
const STEP = '';

/**
 * The smallest string after `term` the automaton could accept, when it died on code point `c` at
 * offset `k` (AutomatonTermsEnum.nextString): the next code point above `c` it can take there, or
 * else above the code point before, and so on. Undefined when there is none; STEP when code
 * points at or above U+D800 are involved (their code point and sort orders differ).
 */
function seekTarget(automaton: RunAutomaton, term: string, k: number, c: number, states: Int32Array): string | undefined {
  for (;;) {
    if (c >= 0xd800) return STEP;
    const next = automaton.nextCodePoint(states[k], c + 1);
    if (next >= 0) return next >= 0xd800 && next <= 0xdfff ? STEP : term.slice(0, k) + String.fromCodePoint(next);
    if (k === 0) return undefined;
    const low = term.charCodeAt(k - 1);
    k -= low >= 0xdc00 && low <= 0xdfff && k >= 2 && isHighSurrogate(term.charCodeAt(k - 2)) ? 2 : 1;
    c = term.codePointAt(k)!;
  }
}

function commonPrefix(a: Uint16Array, aLength: number, b: Uint16Array, bLength: number, limit: number): number {
  const n = Math.min(aLength, bLength, limit);
  let k = 0;
  while (k < n && a[k] === b[k]) k++;
  return k;
}

/** The first index >= from whose term is >= target: galloping, then binary search. */
function lowerBound(terms: SortedTerms, target: string, from: number): number {
  return gallop(terms, from, (term) => compareUtf8(term, target) < 0);
}

/** The first index >= from whose term does not start with prefix (terms[from - 1] does). */
function prefixEnd(terms: SortedTerms, prefix: string, from: number): number {
  return gallop(terms, from, (term) => term.startsWith(prefix));
}

/** The first index >= from where `before` is false (it is true, then false, from `from` on). */
function gallop(terms: SortedTerms, from: number, before: (term: string) => boolean): number {
  const size = terms.size;
  let lo = from;
  let step = 1;
  let hi = from;
  while (hi < size && before(terms.term(hi))) {
    lo = hi + 1;
    hi = from + step;
    step *= 2;
  }
  hi = Math.min(hi, size);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(terms.term(mid))) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
