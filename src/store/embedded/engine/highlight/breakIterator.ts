/**
 * java.text.BreakIterator as the unified highlighter uses it, and the iterators it is given:
 *
 * - `BoundaryIterator`: the boundaries of a whole text computed at once (the JDK's sentence and word
 *   instances: jdkBreaks.ts; or just 0 and the end, what Lucene's CustomSeparatorBreakIterator gives
 *   a text without separator, used for `number_of_fragments: 0` and keyword fields);
 * - `SplittingBreakIterator`: Lucene's class of that name, which the UnifiedHighlighter wraps around
 *   every break iterator (getFieldHighlighter) so that no passage spans two values of a field: the
 *   text is sliced at each separator (U+0000 between values) and each slice given to the wrapped
 *   iterator alone.
 *
 * Boundaries are offsets in the text; `DONE` (-1) when there is none, as in Java.
 *
 * Iterators that find boundaries by walking the text (walkIterator.ts) walk it as far as they are
 * asked about; the highlighter tells them beforehand where it will ask (`prepare`), so that the walk
 * runs within the search's slices rather than inside one call.
 */
import { Budget, Steps } from '../budget/budget';

export const DONE = -1;

export interface BreakIterator {
  setText(text: string): void;
  /** Length of the text (CharacterIterator.getEndIndex). */
  readonly endIndex: number;
  current(): number;
  first(): number;
  last(): number;
  next(): number;
  previous(): number;
  /** The last boundary before `offset`, or DONE. */
  preceding(offset: number): number;
  /** The first boundary after `offset`, or DONE. */
  following(offset: number): number;
  /**
   * The work that answering about `text` (set now or later) up to `offset` would take, as steps
   * within the budget, so that the calls then answer at once; null when there is none (absent when
   * the iterator never has any).
   */
  prepareText?(text: string, offset: number, budget: Budget): Steps<void> | null;
}

/** A break iterator over a list of boundaries computed from the whole text (0 and its length included). */
export class BoundaryIterator implements BreakIterator {
  private bounds: Int32Array = new Int32Array([0]);
  /** Index of the current boundary in `bounds`. */
  private at = 0;
  private length = 0;

  constructor(private readonly boundariesOf: (text: string) => Int32Array) {}

  setText(text: string): void {
    this.length = text.length;
    this.bounds = text.length === 0 ? new Int32Array([0]) : this.boundariesOf(text);
    this.at = 0;
  }

  get endIndex(): number {
    return this.length;
  }

  current(): number {
    return this.bounds[this.at];
  }

  first(): number {
    this.at = 0;
    return this.bounds[0];
  }

  last(): number {
    this.at = this.bounds.length - 1;
    return this.bounds[this.at];
  }

  next(): number {
    if (this.at + 1 >= this.bounds.length) return DONE;
    return this.bounds[++this.at];
  }

  previous(): number {
    if (this.at === 0) return DONE;
    return this.bounds[--this.at];
  }

  following(offset: number): number {
    checkOffset(offset, this.length);
    // the first boundary > offset
    let lo = 0;
    let hi = this.bounds.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.bounds[mid] <= offset) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= this.bounds.length) {
      this.at = this.bounds.length - 1;
      return DONE;
    }
    this.at = lo;
    return this.bounds[lo];
  }

  preceding(offset: number): number {
    checkOffset(offset, this.length);
    // the last boundary < offset
    let lo = 0;
    let hi = this.bounds.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.bounds[mid] < offset) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) {
      this.at = 0;
      return DONE;
    }
    this.at = lo - 1;
    return this.bounds[lo - 1];
  }
}

/** Java's String.lastIndexOf(ch, from): -1 for a negative `from` (JavaScript would search from 0). */
function lastIndexOf(text: string, ch: string, from: number): number {
  return from < 0 ? -1 : text.lastIndexOf(ch, from);
}

function checkOffset(offset: number, length: number): void {
  if (offset < 0 || offset > length) throw new RangeError(`offset ${offset} out of bounds [0, ${length}]`);
}

/** The whole text as one passage: Lucene's CustomSeparatorBreakIterator on a slice without separator. */
export function wholeIterator(): BreakIterator {
  return new BoundaryIterator((text) => new Int32Array([0, text.length]));
}

/**
 * Lucene's SplittingBreakIterator: virtually slices the text on both sides of every occurrence of
 * `sliceChar`; a zero-length slice (adjacent separators, or one at either end) reports that character
 * as a boundary; every other slice is given to the wrapped iterator alone, which never sees the
 * separator. Ported method by method: the highlighter's results depend on where the wrapped iterator
 * is asked what.
 */
export class SplittingBreakIterator implements BreakIterator {
  private text = '';
  private sliceStart = 0;
  private sliceEnd = 0;
  private currentBoundary = 0;

  constructor(
    private readonly base: BreakIterator,
    private readonly sliceChar: string,
  ) {}

  setText(text: string): void {
    this.text = text;
    this.cut = { start: -1, end: -1, text: '' };
    this.first();
  }

  get endIndex(): number {
    return this.text.length;
  }

  current(): number {
    return this.currentBoundary;
  }

  /** The last value cut out of the text, given again as the same string (iterators that keep work per text compare them). */
  private cut = { start: -1, end: -1, text: '' };

  private valueText(start: number, end: number): string {
    const cut = this.cut;
    if (cut.start !== start || cut.end !== end) this.cut = { start, end, text: this.text.slice(start, end) };
    return this.cut.text;
  }

  private slice(start: number, end: number): void {
    this.sliceStart = start;
    this.sliceEnd = end;
    if (start !== end) this.base.setText(this.valueText(start, end));
  }

  /**
   * The work to prepare the wrapped iterator for a passage around a match ending at `offset` (within
   * one value, the one holding offset - 1), or null when there is none: see BreakIterator.prepareText.
   */
  prepare(offset: number, budget: Budget): Steps<void> | null {
    if (this.base.prepareText === undefined || offset <= 0) return null;
    let { start, end } = this.cut;
    if (!(start <= offset - 1 && offset <= end)) {
      start = lastIndexOf(this.text, this.sliceChar, offset - 1) + 1;
      const next = this.text.indexOf(this.sliceChar, offset);
      end = next === -1 ? this.text.length : next;
    }
    return start < end ? this.base.prepareText(this.valueText(start, end), offset - start, budget) : null;
  }

  first(): number {
    const end = this.text.indexOf(this.sliceChar);
    this.slice(0, end === -1 ? this.text.length : end);
    if (this.sliceStart === this.sliceEnd) return (this.currentBoundary = this.sliceStart);
    return (this.currentBoundary = this.sliceStart + this.base.current());
  }

  last(): number {
    const sep = this.text.lastIndexOf(this.sliceChar);
    this.slice(sep === -1 ? 0 : sep + 1, this.text.length);
    if (this.sliceStart === this.sliceEnd) return (this.currentBoundary = this.sliceEnd);
    return (this.currentBoundary = this.sliceStart + this.base.last());
  }

  next(): number {
    const previous = this.currentBoundary;
    const inSlice = this.sliceStart === this.sliceEnd ? DONE : this.base.next();
    if (inSlice !== DONE) return (this.currentBoundary = inSlice + this.sliceStart);
    if (this.sliceEnd >= this.text.length) {
      this.currentBoundary = previous;
      return DONE;
    }
    const start = this.sliceEnd + 1;
    const end = this.text.indexOf(this.sliceChar, start);
    this.slice(start, end === -1 ? this.text.length : end);
    if (this.sliceStart === this.sliceEnd) return (this.currentBoundary = this.sliceStart);
    return (this.currentBoundary = this.sliceStart + this.base.current());
  }

  previous(): number {
    const prev = this.currentBoundary;
    const inSlice = this.sliceStart === this.sliceEnd ? DONE : this.base.previous();
    if (inSlice !== DONE) return (this.currentBoundary = inSlice + this.sliceStart);
    if (this.sliceStart === 0) {
      this.currentBoundary = prev;
      return DONE;
    }
    const end = this.sliceStart - 1;
    const sep = lastIndexOf(this.text, this.sliceChar, end - 1);
    this.slice(sep === -1 ? 0 : sep + 1, end);
    if (this.sliceStart === this.sliceEnd) return (this.currentBoundary = this.sliceStart);
    return (this.currentBoundary = this.sliceStart + this.base.last());
  }

  following(offset: number): number {
    if (offset + 1 < this.sliceStart || offset + 1 > this.sliceEnd) {
      if (offset === this.text.length) {
        this.last();
        return DONE;
      }
      const sep = lastIndexOf(this.text, this.sliceChar, offset);
      const start = sep === -1 ? 0 : sep + 1;
      const end = this.text.indexOf(this.sliceChar, Math.max(offset + 1, start));
      this.slice(start, end === -1 ? this.text.length : end);
    }
    if (this.sliceStart === this.sliceEnd) return (this.currentBoundary = offset + 1);
    if (offset === this.sliceStart - 1) return (this.currentBoundary = this.sliceStart + this.base.first());
    return (this.currentBoundary = this.sliceStart + this.base.following(offset - this.sliceStart));
  }

  preceding(offset: number): number {
    if (offset - 1 < this.sliceStart || offset - 1 > this.sliceEnd) {
      if (offset === 0) {
        this.first();
        return DONE;
      }
      const sepAfter = this.text.indexOf(this.sliceChar, offset);
      const end = sepAfter === -1 ? this.text.length : sepAfter;
      const sepBefore = lastIndexOf(this.text, this.sliceChar, offset - 1);
      this.slice(sepBefore === -1 ? 0 : Math.min(sepBefore + 1, end), end);
    }
    if (this.sliceStart === this.sliceEnd) return (this.currentBoundary = offset - 1);
    if (offset === this.sliceEnd + 1) return (this.currentBoundary = this.sliceStart + this.base.last());
    return (this.currentBoundary = this.sliceStart + this.base.preceding(offset - this.sliceStart));
  }
}
