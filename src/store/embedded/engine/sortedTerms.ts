/**
 * A field's term dictionary in Lucene's order (UTF-8 bytes, that is code points: compareUtf8), for
 * the queries that walk terms in order: patterns (automaton/intersect.ts) and term ranges. The
 * dictionary itself (TermHash) numbers terms in order of arrival; this view keeps their ids sorted
 * by text and takes in the terms added since it was last read (sorted among themselves, then
 * merged: O(n + k log k) for k new terms), so an index that is only read never sorts again.
 * Terms no live document holds stay in the view, as in the dictionary: readers skip them by their
 * document frequency.
 */
import { Budget, Steps, UNLIMITED, runToEnd } from './budget/budget';
import { CheckEvery } from './budget/checkEvery';
import { EMPTY_INT32 } from './growable';
import { compareUtf8 } from './strings';
import type { StateReader, StateWriter } from './persist/state';
import type { TermHash } from './termHash';

/** Code units from which UTF-16 order and code point order may differ (surrogates, U+E000 and up). */
const ORDER_MAY_DIFFER = /[\uD800-\uFFFF]/;

/**
 * The ids [from, to) sorted by their terms in code point order. Terms without a code unit from
 * U+D800 up sort the same in UTF-16 order, which the engine's native sort of strings does several
 * times faster than a comparator; the others go through compareUtf8.
 */
function* sortedIds(dict: TermHash, from: number, to: number, budget: Checkpoint): Steps<Int32Array> {
  // (the terms made CHECK_EVERY at a time, or fewer when their text is read back from disk: termHash.ts, CheckEvery)
  const terms = new Array<string>(to - from);
  const check = new CheckEvery(CHECK_EVERY);
  for (let i = 0; i < terms.length; i++) {
    terms[i] = dict.term(from + i);
    if (check.step() && budget.due()) yield;
  }
  if (terms.some((t) => ORDER_MAY_DIFFER.test(t))) {
    return Int32Array.from({ length: to - from }, (_, i) => from + i).sort((a, b) => compareUtf8(terms[a - from], terms[b - from]));
  }
  const position = new Map<string, number>();
  for (let i = 0; i < terms.length; i++) position.set(terms[i], from + i);
  terms.sort();
  const ids = new Int32Array(terms.length);
  for (let i = 0; i < terms.length; i++) ids[i] = position.get(terms[i]) as number;
  return ids;
}

/** What the sort looks at between two pieces of work: the budget of the search driving it now. */
type Checkpoint = Pick<Budget, 'due'>;

/**
 * Terms sorted at once before merging: the native sort does not pause, and 16,384 terms, a fifth of
 * them sharing their first 40 characters (bench:abuse's names), took 12 to 17 ms at once; 4,096
 * took 2.7 ms (median of 30, quiet machine; 4 to 9 under bench:abuse), more than a 1 ms slice;
 * 1,024 take 0.75 ms. The merges that follow pause.
 */
const RUN = 1024;

/**
 * Terms made or compared between two looks at the budget, at most: a comparison of two long terms
 * that share their first bytes reads the rest of both (termHash.ts), from disk when spilled, so the
 * budget is also looked at after READS_PER_CHECK reads (CheckEvery): 1,024 comparisons that read
 * held the event loop 5 to 10 ms under bench:abuse, 16,384 of them 50 to 140 ms.
 */
const CHECK_EVERY = 1024;

/**
 * Two sorted runs merged, checking the budget every CHECK_EVERY comparisons (or sooner: CheckEvery). Each term of the
 * shorter run is placed in the longer by galloping (an exponential then a binary search from where
 * the last one went, as Java's TimSort merges; the dictionary holds each term once, so there are no
 * ties): O(k log(n/k)) comparisons for k new terms among n, instead of walking all n. Taking in a
 * bulk write's 1,000 new terms among a million compares about 14,000 pairs, not a million, and a
 * comparison of two long terms sharing their first bytes reads the rest of both, from disk when
 * spilled (termHash.ts). The budget is looked at once the term whose search made the count due is
 * placed: that search may go on past READS_PER_CHECK reads (a gallop and binary search over a run of
 * a million terms: about 40 comparisons, up to 80 reads), a bound still well within a slice.
 */
function* merge(dict: TermHash, a: Int32Array, b: Int32Array, budget: Checkpoint): Steps<Int32Array> {
  if (a.length < b.length) [a, b] = [b, a];
  const merged = new Int32Array(a.length + b.length);
  let i = 0; // a[0, i) is in merged
  let k = 0;
  const check = new CheckEvery(CHECK_EVERY);
  let due = false;
  for (let j = 0; j < b.length; j++) {
    const term = b[j];
    // the first p >= i with a[p] after term: gallop to a bound, then search between
    let lo = i; // a[i, lo) are before term
    let hi = a.length;
    for (let step = 1; lo + step - 1 < a.length; step *= 2) {
      const probe = lo + step - 1;
      if (check.step()) due = true;
      if (dict.compare(a[probe], term) > 0) {
        hi = probe;
        break;
      }
      lo = probe + 1;
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (check.step()) due = true;
      if (dict.compare(a[mid], term) > 0) hi = mid;
      else lo = mid + 1;
    }
    merged.set(a.subarray(i, lo), k);
    k += lo - i;
    i = lo;
    merged[k++] = term;
    if (due) {
      due = false;
      if (budget.due()) yield;
    }
  }
  merged.set(a.subarray(i), k);
  return merged;
}

export class SortedTerms {
  private ids: Int32Array = EMPTY_INT32;
  /** Dictionary ids below this are in `ids`. */
  private covered = 0;

  /** @param dict the dictionary (grows as terms are added) */
  constructor(private readonly dict: TermHash) {}

  /** Takes in the terms added to the dictionary since the last call. */
  refresh(): void {
    runToEnd(this.refreshSteps(UNLIMITED));
  }

  /**
   * The sort in progress, which every search that needs the order drives (see refreshSteps), and
   * the budget of the one driving it now.
   */
  private pending: Steps<void> | null = null;
  private driver: Budget = UNLIMITED;
  /** What the driver's budget threw (TimeExceeded) at the sort's last check: the sort pauses there, the driver gets it. */
  private failure: unknown = null;
  private readonly checkpoint: Checkpoint = {
    due: () => {
      try {
        return this.driver.due();
      } catch (err) {
        this.failure = err;
        return true; // pause here: the sort keeps its progress for the next search
      }
    },
  };

  /**
   * refresh, as steps within a search's budget. Searches that need the order while it is being
   * brought up to date share one sort (`pending`) and take turns at it, each within its own
   * budget, instead of each sorting the same terms: under load a sort of 100,000 terms spans many
   * slices, and eight pattern searches arriving together made eight copies of its strings, kept
   * alive from slice to slice (bench:abuse's young-generation collections copied them). If the
   * search driving it runs out of time (TimeExceeded from its budget), the sort pauses where it is
   * and that search gets the error, so that searches with a short `timeout` do not start it over
   * and over; the next search finishes it, as it does a sort left paused by a search that was
   * stopped. A paused sort stays right: the dictionary only grows and ids never change, so it
   * covers the terms that were there when it began, and the loop takes in any added since.
   */
  *refreshSteps(budget: Budget): Steps<void> {
    while (this.covered < this.dict.size) {
      const pending = (this.pending ??= this.sortSteps());
      this.driver = budget;
      let next: IteratorResult<void, void>;
      try {
        next = pending.next();
      } catch (err) {
        if (this.pending === pending) this.pending = null;
        throw err;
      } finally {
        this.driver = UNLIMITED;
      }
      const failure = this.failure;
      if (failure !== null) {
        this.failure = null;
        throw failure;
      }
      if (next.done) {
        if (this.pending === pending) this.pending = null;
      } else {
        yield;
      }
    }
  }

  /**
   * The sort itself: the new terms are sorted in runs of RUN terms, then the runs and the old order
   * merged pairwise, checking the budget between runs and merges (sorting 100,000 new terms at once
   * took more than a slice). The result replaces the view only when complete (a write cannot come
   * between two of its steps while a search waits on it: writes wait for paused searches).
   */
  private *sortSteps(): Steps<void> {
    const n = this.dict.size;
    if (n <= this.covered) return;
    const dict = this.dict;
    const budget = this.checkpoint;
    const runs: Int32Array[] = this.ids.length > 0 ? [this.ids] : [];
    for (let from = this.covered; from < n; from += RUN) {
      runs.push(yield* sortedIds(dict, from, Math.min(n, from + RUN), budget));
      if (budget.due()) yield;
    }
    while (runs.length > 1) {
      const next: Int32Array[] = [];
      for (let r = 0; r + 1 < runs.length; r += 2) {
        next.push(yield* merge(dict, runs[r], runs[r + 1], budget));
      }
      if (runs.length % 2 === 1) next.push(runs[runs.length - 1]);
      runs.splice(0, runs.length, ...next);
    }
    if (this.covered < n) {
      this.ids = runs[0];
      this.ords = null;
      this.covered = n;
    }
  }

  /** ordinals(), for the order as it covered when they were made. */
  private ords: Int32Array | null = null;

  /**
   * The position in order (the ordinal, as Lucene's SortedDocValues numbers terms) of every
   * dictionary id the order covers: made once per change of the order, in one pass (a few
   * milliseconds at a million terms), and kept until the next. Call after refresh.
   */
  ordinals(): Int32Array {
    const ids = this.ids;
    if (this.ords !== null) return this.ords;
    const ords = new Int32Array(ids.length);
    for (let i = 0; i < ids.length; i++) ords[ids[i]] = i;
    return (this.ords = ords);
  }

  /** For the index file (persist/): the order as far as it covers. */
  writeState(w: StateWriter): void {
    w.json(this.covered);
    w.array(this.ids);
  }

  /** Takes the state `writeState` wrote (over the same dictionary). */
  readState(r: StateReader): void {
    this.covered = r.json<number>();
    this.ids = r.int32();
    this.ords = null;
  }

  get size(): number {
    return this.ids.length;
  }

  /** The i-th term in order. */
  term(i: number): string {
    return this.dict.term(this.ids[i]);
  }

  /** The i-th term's UTF-16 code units into `out`, no string made (TermHash.codeUnits: its length; nothing written when `out` is too short). */
  codeUnits(i: number, out: Uint16Array): number {
    return this.dict.codeUnits(this.ids[i], out);
  }

  /** The dictionary id of the i-th term in order. */
  id(i: number): number {
    return this.ids[i];
  }

  /** Position of the first term >= `text` (or > it when `exclusive`): size when none. */
  lowerBound(text: string, exclusive = false): number {
    let lo = 0;
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareUtf8(this.term(mid), text);
      if (c < 0 || (exclusive && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
