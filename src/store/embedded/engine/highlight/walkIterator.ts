/**
 * A break iterator whose boundaries are found by walking the text forward, boundary after boundary
 * (the JDK's word instance, and its sentence instance on text with characters its rules ignore:
 * jdkBreaks.ts), walked only where it is asked about, and within a search's slices when told
 * beforehand (`prepareText`).
 *
 * It answers exactly as a BoundaryIterator over every boundary of the text (breakIterator.ts) would,
 * without computing boundaries nobody asks for: a passage around a match near the start of a text
 * of 1,000,000 characters needs the first few. What it knows is a window of consecutive boundaries,
 * from a boundary known to be one (the start of the text, or a restart point) to as far as it walked.
 * When asked about an offset far past the window, or before it, a walk that knows its restart points
 * (words: the start of a run of spaces after a printable character, where a word always ends) starts
 * a new window at the last restart point before the offset rather than walking all the way there
 * (the others walk from where they are, or from the start). The walk of a text is kept for the next
 * setText of the same text (SplittingBreakIterator gives each value again when it comes back to it).
 */
import { Budget, CHECK_EVERY, Steps } from '../budget/budget';
import { BreakIterator, DONE } from './breakIterator';
import { S_IGNORE, Stripped, W_IGNORE, sentenceEnd, strip, unstripped, wordEnd } from './jdkBreaks';

/** How a text is walked: the boundary after a boundary, and (if known) where a boundary always is. */
export interface WalkRules {
  /** The boundary after boundary `at`, in the text without its ignored characters. */
  readonly step: (t: string, at: number) => number;
  readonly ignored: RegExp;
  /** Whether there is always a boundary at `s` (0 < s < t.length), whatever comes before. */
  readonly restart?: (t: string, s: number) => boolean;
}

/**
 * Words always end before a space or a tab that follows a printable ASCII character: no rule takes
 * both (a word's letters, digits and inner punctuation are never spaces; a run of spaces starts at
 * a space; a character with marks is followed by a mark). See jdkBreaks.ts.
 */
export function wordRestart(t: string, s: number): boolean {
  const c = t.charCodeAt(s);
  const before = t.charCodeAt(s - 1);
  return (c === 0x20 || c === 0x09) && before >= 0x21 && before <= 0x7e;
}

/** The JDK's word instance. */
export const WORD_WALK: WalkRules = { step: wordEnd, ignored: W_IGNORE, restart: wordRestart };
/** The JDK's sentence instance on text with characters its rules ignore (no restart points: a sentence may end anywhere). */
export const SENTENCE_WALK: WalkRules = { step: sentenceEnd, ignored: S_IGNORE };

/** An offset further than this past the window starts a new one at a restart point (when there is one this close before it). */
export const JUMP = 2048;

/** A window of boundaries of one text (original offsets), and where its walk stands in the stripped text. */
class Walk {
  bounds = new Int32Array(64);
  count = 1; // bounds[0] = 0
  /** Position of the last boundary in the stripped text. */
  at = 0;
  readonly stripped: Stripped | null;
  readonly t: string;

  constructor(
    readonly text: string,
    private readonly rules: WalkRules,
    private readonly jump: number,
  ) {
    this.stripped = text.length === 0 ? null : strip(text, rules.ignored);
    this.t = this.stripped === null ? text : this.stripped.text;
  }

  get complete(): boolean {
    return this.at >= this.t.length;
  }

  get lastBound(): number {
    return this.bounds[this.count - 1];
  }

  /** The last boundary of the text. */
  get end(): number {
    return this.t.length === 0 ? 0 : this.text.length;
  }

  private original(s: number): number {
    return this.stripped === null ? s : unstripped(s, this.stripped, this.text.length);
  }

  /** The first position of the stripped text at or after `offset` of the original. */
  private strippedAt(offset: number): number {
    if (this.stripped === null) return offset;
    const at = this.stripped.at;
    let lo = 0;
    let hi = at.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (at[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** One more boundary. */
  step(): void {
    this.at = this.rules.step(this.t, this.at);
    if (this.count === this.bounds.length) {
      const grown = new Int32Array(this.bounds.length * 2);
      grown.set(this.bounds);
      this.bounds = grown;
    }
    this.bounds[this.count++] = this.original(this.at);
  }

  /** A new window from stripped position `s`, a boundary. */
  private restartFrom(s: number): void {
    this.bounds[0] = this.original(s);
    this.count = 1;
    this.at = s;
  }

  /** The last restart point in stripped [from, to], or -1. */
  private restartIn(from: number, to: number): number {
    const restart = this.rules.restart;
    if (restart === undefined) return -1;
    for (let s = Math.min(to, this.t.length - 1); s >= Math.max(from, 1); s--) if (restart(this.t, s)) return s;
    return -1;
  }

  /**
   * Start the window where the walk toward `offset` should start: before it when the window starts
   * after it (at a restart point, else at the start of the text), at a restart point before it when
   * it is far past the window.
   */
  cover(offset: number): void {
    const s = this.strippedAt(offset);
    if (this.bounds[0] >= offset && this.bounds[0] > 0) {
      // the window starts too late: from a restart point before offset, else from the start
      this.restartFrom(Math.max(0, this.restartIn(s - this.jump, s - 1)));
    } else if (!this.complete && offset - this.lastBound > this.jump) {
      const r = this.restartIn(Math.max(this.at + 1, s - this.jump), s - 1);
      if (r > this.at) this.restartFrom(r);
    }
  }

  /** Whether the window already holds what cover(offset) and a walk beyond offset would give. */
  covers(offset: number): boolean {
    return (this.bounds[0] < offset || this.bounds[0] === 0) && (this.complete || this.lastBound > offset);
  }
}

function* walkSteps(walk: Walk, offset: number, budget: Budget): Steps<void> {
  walk.cover(offset);
  for (let n = 1; !walk.complete && walk.lastBound <= offset; n++) {
    walk.step();
    if ((n & CHECK_EVERY) === 0 && budget.due()) yield;
  }
}

/** Texts whose walks are kept (a field's values, visited in turn). */
const KEPT = 4;

export class WalkIterator implements BreakIterator {
  private walk: Walk;
  private readonly walks: Walk[] = [];
  /** The current boundary. */
  private position = 0;

  constructor(
    private readonly rules: WalkRules,
    private readonly jump = JUMP,
  ) {
    this.walk = new Walk('', rules, jump);
  }

  /** The walk of `text`, kept or new. */
  private walkOf(text: string): Walk {
    const kept = this.walks.findIndex((w) => w.text === text);
    if (kept >= 0) return this.walks[kept];
    const walk = new Walk(text, this.rules, this.jump);
    this.walks.push(walk);
    if (this.walks.length > KEPT) this.walks.shift();
    return walk;
  }

  setText(text: string): void {
    this.walk = this.walkOf(text);
    this.position = 0;
  }

  get endIndex(): number {
    return this.walk.text.length;
  }

  /**
   * The walk of `text` (the current text or another one to be set later) around `offset`, as steps
   * that check the budget every CHECK_EVERY + 1 boundaries; null when it is known already.
   */
  prepareText(text: string, offset: number, budget: Budget): Steps<void> | null {
    const walk = this.walkOf(text);
    return walk.covers(offset) ? null : walkSteps(walk, offset, budget);
  }

  /** The window around `offset`, walked now if need be. */
  private around(offset: number): Walk {
    checkOffset(offset, this.walk.text.length);
    const walk = this.walk;
    if (!walk.covers(offset)) {
      walk.cover(offset);
      while (!walk.complete && walk.lastBound <= offset) walk.step();
    }
    return walk;
  }

  current(): number {
    return this.position;
  }

  first(): number {
    return (this.position = 0);
  }

  last(): number {
    return (this.position = this.walk.end);
  }

  next(): number {
    if (this.position >= this.walk.end) return DONE;
    return this.following(this.position);
  }

  previous(): number {
    if (this.position === 0) return DONE;
    return this.preceding(this.position);
  }

  following(offset: number): number {
    const walk = this.around(offset);
    // the first boundary > offset
    const i = upperBound(walk.bounds, walk.count, offset);
    if (i >= walk.count) {
      this.position = walk.end;
      return DONE;
    }
    return (this.position = walk.bounds[i]);
  }

  preceding(offset: number): number {
    const walk = this.around(offset);
    // the last boundary < offset
    const i = upperBound(walk.bounds, walk.count, offset - 1);
    if (i === 0) {
      this.position = 0;
      return DONE;
    }
    return (this.position = walk.bounds[i - 1]);
  }
}

/** The first index of bounds[0, count) holding a value > offset (count when none). */
function upperBound(bounds: Int32Array, count: number, offset: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bounds[mid] <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function checkOffset(offset: number, length: number): void {
  if (offset < 0 || offset > length) throw new RangeError(`offset ${offset} out of bounds [0, ${length}]`);
}
