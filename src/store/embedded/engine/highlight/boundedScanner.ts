/**
 * Elasticsearch's BoundedBreakIteratorScanner (org.elasticsearch.lucene.search.uhighlight): how
 * `fragment_size` bounds the passages of the default `sentence` boundary scanner. The passage around
 * an offset is the sentence holding it, extended to the last sentence boundary that keeps it within
 * `maxLen` characters; a sentence longer than that is cut at word boundaries (the secondary
 * iterator): `maxLen` before the offset at most on the left, the remaining room on the right.
 *
 * It answers only the calls the highlighter makes: preceding(offset) computes the passage around
 * `offset`, and the following() after it returns that passage's end, whatever its argument (the
 * highlighter asks following() about the match's middle since LUCENE-9093, which Elasticsearch 8.10
 * adopted when it dropped its own copy of the older passage loop: elastic/elasticsearch#96068). The
 * other navigation methods reset it and delegate to the sentence iterator, as Elasticsearch's fix for
 * multi-valued fields does (#143440), since Lucene's SplittingBreakIterator may call them.
 */
import { Budget, Steps } from '../budget/budget';
import { BreakIterator } from './breakIterator';

export class BoundedBreakIteratorScanner implements BreakIterator {
  private lastPrecedingOffset = -1;
  private windowStart = -1;
  private windowEnd = -1;
  private innerStart = -1;
  private innerEnd = 0;

  constructor(
    private readonly main: BreakIterator,
    private readonly inner: BreakIterator,
    private readonly maxLen: number,
  ) {}

  setText(text: string): void {
    this.reset();
    this.main.setText(text);
    this.inner.setText(text);
  }

  get endIndex(): number {
    return this.main.endIndex;
  }

  /** A passage around `offset` looks at most maxLen further, with both iterators. */
  prepareText(text: string, offset: number, budget: Budget): Steps<void> | null {
    const to = Math.min(text.length, offset + this.maxLen);
    const inner = this.inner.prepareText?.(text, to, budget) ?? null;
    const main = this.main.prepareText?.(text, to, budget) ?? null;
    return inner === null ? main : main === null ? inner : both(inner, main);
  }

  private reset(): void {
    this.lastPrecedingOffset = -1;
    this.windowStart = -1;
    this.windowEnd = -1;
    this.innerStart = -1;
    this.innerEnd = 0;
  }

  /** Must be called with increasing offsets (the highlighter's passages go forward). */
  preceding(offset: number): number {
    if (offset < this.lastPrecedingOffset) throw new Error("offset < lastPrecedingOffset: usage doesn't look like UnifiedHighlighter");
    if (offset > this.windowStart && offset < this.windowEnd) {
      this.innerStart = this.innerEnd;
      this.innerEnd = this.windowEnd;
    } else {
      this.innerStart = Math.max(this.main.preceding(offset), 0);
      const targetEndOffset = offset + Math.max(0, this.maxLen - (offset - this.innerStart));
      const textEnd = this.endIndex;
      this.innerEnd = targetEndOffset + 1 > textEnd ? textEnd : this.main.preceding(targetEndOffset + 1);
      // no break found up to maxLen: take the first one after it
      if (this.innerStart === this.innerEnd) this.innerEnd = targetEndOffset >= textEnd ? textEnd : this.main.following(targetEndOffset);
      this.windowStart = this.innerStart;
      this.windowEnd = this.innerEnd;
    }
    if (this.innerEnd - this.innerStart > this.maxLen) {
      // too long: word boundaries on the left first, then the room left on the right
      if (offset - this.maxLen > this.innerStart) this.innerStart = Math.max(this.innerStart, this.inner.preceding(offset - this.maxLen));
      const remaining = Math.max(0, this.maxLen - (offset - this.innerStart));
      if (offset + remaining < this.windowEnd) this.innerEnd = Math.min(this.windowEnd, this.inner.following(offset + remaining));
    }
    this.lastPrecedingOffset = offset - 1;
    return this.innerStart;
  }

  /** The end of the passage the last preceding() computed. */
  following(_offset: number): number {
    return this.innerEnd;
  }

  current(): number {
    return this.innerEnd;
  }

  first(): number {
    this.reset();
    return this.main.first();
  }

  last(): number {
    this.reset();
    return this.main.last();
  }

  next(): number {
    this.reset();
    return this.main.next();
  }

  previous(): number {
    this.reset();
    return this.main.previous();
  }
}

function* both(first: Steps<void>, second: Steps<void>): Steps<void> {
  yield* first;
  yield* second;
}
