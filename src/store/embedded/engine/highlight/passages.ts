/**
 * Passages: the unified highlighter's FieldHighlighter.highlightOffsetsEnums and PassageScorer
 * (Lucene 9, what Elasticsearch 8 runs):
 *
 * - The matches come in offset order. A match starting at or after the end of the passage being built
 *   starts a new one: the passage spans the break iterator's boundaries around the match's middle
 *   (LUCENE-9093: preceding(max(start + 1, center)), following(min(end - 1, center))), never starting
 *   before the previous passage's end, always covering the match.
 * - Each passage is scored as a miniature document, BM25-like: for each distinct term in it,
 *   tf(freq in passage, passage length) * weight(content length, freq in the whole text), summed in
 *   double, times norm(passage start) = 1 + 1 / ln(87 + start), with k1 = 1.2, b = 0.75, pivot = 87.
 * - The best `maxPassages` are kept (a priority queue: lowest score out first, then the later start
 *   for equal scores), and returned in text order.
 */
import { Budget, CHECK_EVERY, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { BreakIterator } from './breakIterator';
import { sortSteps } from './sortSteps';

/** One match in the text: its offsets, the term it counts as (scores), how often that term is in the whole text. */
export interface OffsetMatch {
  readonly start: number;
  readonly end: number;
  readonly term: string;
  readonly freq: number;
}

export interface Passage {
  start: number;
  end: number;
  score: number;
  matches: OffsetMatch[];
}

const f = Math.fround;
const K1 = f(1.2);
const B = f(0.75);
const PIVOT = f(87);

/** PassageScorer.weight: term importance from its frequency in the text (the number of "documents" approximated from the length). */
export function weight(contentLength: number, totalTermFreq: number): number {
  const numDocs = f(1 + f(contentLength / PIVOT));
  return f(f(K1 + 1) * f(Math.log(1 + (numDocs + 0.5) / (totalTermFreq + 0.5))));
}

/** PassageScorer.tf: saturated frequency in the passage, normalized by the passage's length. */
export function tf(freq: number, passageLength: number): number {
  const norm = f(K1 * f(f(1 - B) + f(B * f(passageLength / PIVOT))));
  return f(freq / f(freq + norm));
}

/** PassageScorer.norm: passages near the start of the text weigh more. */
export function norm(passageStart: number): number {
  return f(1 + f(1 / f(Math.log(f(PIVOT + passageStart)))));
}

/** Passages with more matches than this count their terms with a Map (a look along the terms found so far below). */
const FEW_MATCHES = 16;

export function scorePassage(passage: Passage, contentLength: number): number {
  // distinct terms in order of first sight, with their count here and their frequency in the text
  const matches = passage.matches;
  const index = matches.length > FEW_MATCHES ? new Map<string, number>() : null;
  const terms: string[] = [];
  const inPassage: number[] = [];
  const inText: number[] = [];
  for (const match of matches) {
    let i = index !== null ? (index.get(match.term) ?? -1) : terms.indexOf(match.term);
    if (i < 0) {
      i = inPassage.length;
      index?.set(match.term, i);
      terms.push(match.term);
      inPassage.push(0);
      inText.push(match.freq);
    }
    inPassage[i]++;
  }
  let score = 0;
  const length = passage.end - passage.start;
  for (let i = 0; i < inPassage.length; i++) score += f(tf(inPassage[i], length) * weight(contentLength, inText[i]));
  score *= norm(passage.start);
  return f(score);
}

/** Whether `a` leaves the queue before `b` (the FieldHighlighter's comparator: lower score, then earlier start, first). */
function before(a: Passage, b: Passage): boolean {
  return a.score < b.score || (a.score === b.score && a.start < b.start);
}

/** java.util.PriorityQueue with that comparator: a binary heap, the passage to drop first on top. */
class PassageQueue {
  readonly items: Passage[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Passage {
    return this.items[0];
  }

  offer(p: Passage): void {
    const items = this.items;
    let i = items.push(p) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i], items[parent])) break;
      [items[i], items[parent]] = [items[parent], items[i]];
      i = parent;
    }
  }

  poll(): void {
    const items = this.items;
    const last = items.pop() as Passage;
    if (items.length === 0) return;
    items[0] = last;
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && before(items[l], items[m])) m = l;
      if (r < items.length && before(items[r], items[m])) m = r;
      if (m === i) return;
      [items[i], items[m]] = [items[m], items[i]];
      i = m;
    }
  }
}

/** A break iterator the passages may be prepared in (SplittingBreakIterator.prepare: the walk ahead within the budget, or null). */
export interface PassageBreaks extends BreakIterator {
  prepare?(offset: number, budget: Budget): Steps<void> | null;
}

/** Work between two looks at the clock: a match counts 1, a new passage (break iterator calls, scoring) PASSAGE_WORK. */
const PASSAGE_WORK = 64;

/**
 * The best passages of a text for its matches (in offset order), at most `maxPassages`, in text order,
 * within the budget (checked every CHECK_EVERY + 1 units of work, a match one, a new passage
 * PASSAGE_WORK; the break iterator prepared before each new passage). The break iterator must have
 * the text set.
 */
export function* bestPassagesSteps(matches: readonly OffsetMatch[], breaks: PassageBreaks, maxPassages: number, budget: Budget): Steps<Passage[]> {
  const contentLength = breaks.endIndex;
  const queue = new PassageQueue();
  let passage: Passage | null = null;
  let lastPassageEnd = 0;
  // FieldHighlighter.maybeAddPassage
  const offer = (p: Passage): void => {
    p.score = scorePassage(p, contentLength);
    if (queue.size === maxPassages && p.score < queue.peek().score) return; // cannot compete
    queue.offer(p);
    if (queue.size > maxPassages) queue.poll();
  };
  let work = 0;
  for (let i = 0; i < matches.length; i++) {
    const match = matches[i];
    const { start, end } = match;
    if (++work > CHECK_EVERY) {
      work = 0;
      if (budget.due()) yield;
    }
    if (start < contentLength && end > contentLength) continue;
    if (passage === null || start >= passage.end) {
      if (passage !== null) offer(passage);
      passage = null;
      if (start >= contentLength) break;
      work += PASSAGE_WORK;
      const walk = breaks.prepare?.(end, budget) ?? null;
      if (walk !== null) yield* walk;
      const center = start + Math.trunc((end - start) / 2);
      const passageStart = Math.min(start, Math.max(breaks.preceding(Math.max(start + 1, center)), lastPassageEnd));
      lastPassageEnd = Math.max(end, Math.min(breaks.following(Math.min(end - 1, center)), contentLength));
      passage = { start: passageStart, end: lastPassageEnd, score: 0, matches: [] };
    }
    passage.matches.push(match);
  }
  if (passage !== null) offer(passage);
  return yield* sortSteps(queue.items, (a, b) => a.start - b.start, budget);
}

/** bestPassagesSteps run at once. */
export function bestPassages(matches: readonly OffsetMatch[], breaks: PassageBreaks, maxPassages: number): Passage[] {
  return runToEnd(bestPassagesSteps(matches, breaks, maxPassages, UNLIMITED));
}
