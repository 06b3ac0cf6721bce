/**
 * Where a phrase matches in the tokens of the highlighted text, as the two ways of highlighting see it:
 *
 * - `phraseMatchesSteps`: the matches of the PhraseQuery (or MultiPhraseQuery) itself, each from its first
 *   to its last term, as Weight.matches reports them (ExactPhraseMatcher: every occurrence, in order
 *   of the first term; SloppyPhraseMatcher: the matches its algorithm finds, ../lucene/phrase.ts).
 * - `phraseTermPositionsSteps`: the positions of the phrase's terms inside matches of the SpanNearQuery the
 *   WeightedSpanTermExtractor turns the phrase into (in order when the slop is 0, NearSpansOrdered;
 *   else unordered within the slop, NearSpansUnordered), what PhraseHelper collects when the
 *   highlighter does not use Weight.matches (`require_field_match: false`).
 */
import { Budget, CHECK_EVERY, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { SloppyPhraseMatcher } from '../lucene/phrase';
import { FieldText, tokenAt } from './tokens';

export interface PositionalPhrase {
  /** The terms accepted at each phrase position (one for a PhraseQuery). */
  readonly terms: readonly (readonly string[])[];
  /** The position of each in the phrase. */
  readonly positions: readonly number[];
  readonly slop: number;
}

/** For each phrase position, the document positions of the tokens it accepts, ascending. */
function* termPositions(text: FieldText, phrase: PositionalPhrase, budget: Budget): Steps<number[][]> {
  // by term id, the phrase positions that accept it
  const accepting: (number[] | undefined)[] = [];
  phrase.terms.forEach((terms, p) => {
    for (const term of terms) {
      const id = text.terms.get(term);
      if (id >= 0 && !(accepting[id] ??= []).includes(p)) accepting[id]!.push(p);
    }
  });
  const out: number[][] = phrase.terms.map(() => []);
  for (let i = 0; i < text.size; i++) {
    const which = accepting[text.term[i]];
    if (which !== undefined) for (const p of which) out[p].push(text.position[i]);
    if ((i & CHECK_EVERY) === CHECK_EVERY && budget.due()) yield;
  }
  return out;
}

/** Each match of the phrase as [first position, last position]. */
function positionSpans(positions: number[][], phrase: PositionalPhrase): [number, number][] {
  if (positions.some((p) => p.length === 0)) return [];
  const offsets = phrase.positions;
  if (phrase.slop === 0) {
    const out: [number, number][] = [];
    const sets = positions.map((p) => new Set(p));
    const last = offsets.length - 1;
    for (const p of positions[0]) {
      const start = p - offsets[0];
      let all = true;
      for (let i = 1; i <= last && all; i++) all = sets[i].has(start + offsets[i]);
      if (all) out.push([p, start + offsets[last]]);
    }
    return out;
  }
  return new SloppyPhraseMatcher(phrase.terms, offsets, phrase.slop).spans(positions);
}

/** The matches of a phrase in the tokens, as offsets [start of its first token, end of its last], within the budget. */
export function* phraseMatchesSteps(text: FieldText, phrase: PositionalPhrase, budget: Budget): Steps<[number, number][]> {
  const spans = positionSpans(yield* termPositions(text, phrase, budget), phrase);
  return spans.map(([first, last]) => [text.start[tokenAt(text, first)], text.end[tokenAt(text, last)]]);
}

/** phraseMatchesSteps run at once. */
export function phraseMatches(text: FieldText, phrase: PositionalPhrase): [number, number][] {
  return runToEnd(phraseMatchesSteps(text, phrase, UNLIMITED));
}

/**
 * The document positions of the phrase's terms that take part in a match of its SpanNearQuery (slop
 * plus the gaps between its positions; in order only for slop 0), within the budget.
 */
export function* phraseTermPositionsSteps(text: FieldText, phrase: PositionalPhrase, budget: Budget): Steps<Set<number>> {
  const positions = yield* termPositions(text, phrase, budget);
  const out = new Set<number>();
  if (positions.some((p) => p.length === 0)) return out;
  const gaps = Math.max(0, phrase.positions[phrase.positions.length - 1] - phrase.positions[0] - phrase.positions.length + 1);
  const slop = phrase.slop + gaps;
  const matches = phrase.slop === 0 ? orderedMatches(positions, slop) : unorderedMatches(positions, slop);
  for (const cells of matches) for (const p of cells) out.add(p);
  return out;
}

/** phraseTermPositionsSteps run at once. */
export function phraseTermPositions(text: FieldText, phrase: PositionalPhrase): Set<number> {
  return runToEnd(phraseTermPositionsSteps(text, phrase, UNLIMITED));
}

/**
 * NearSpansOrdered over single-position spans: for each start of the first clause, each next clause
 * at its first position after the previous one's, a match when the gaps add up to at most `slop`.
 */
function orderedMatches(positions: number[][], slop: number): number[][] {
  const out: number[][] = [];
  // each clause's cursor only moves forward (the first clause's positions increase)
  const at = positions.map(() => 0);
  for (const first of positions[0]) {
    const cells = [first];
    let gaps = 0;
    for (let i = 1; i < positions.length; i++) {
      const previous = cells[i - 1];
      const list = positions[i];
      while (at[i] < list.length && list[at[i]] <= previous) at[i]++;
      if (at[i] >= list.length) return out;
      gaps += list[at[i]] - previous - 1;
      cells.push(list[at[i]]);
    }
    if (gaps <= slop) out.push(cells);
  }
  return out;
}

/**
 * NearSpansUnordered over single-position spans: a cell per clause at one of its positions; while
 * no cell is exhausted, a match whenever the window from the least to the greatest position, less the
 * number of clauses, is within `slop`; the least cell advances each time.
 */
function unorderedMatches(positions: number[][], slop: number): number[][] {
  const at = positions.map(() => 0);
  const out: number[][] = [];
  const current = () => positions.map((list, i) => list[at[i]]);
  for (;;) {
    const cells = current();
    const min = Math.min(...cells);
    const max = Math.max(...cells);
    if (max + 1 - min - cells.length <= slop) out.push(cells);
    let least = 0;
    for (let i = 1; i < cells.length; i++) if (cells[i] < cells[least]) least = i;
    if (++at[least] >= positions[least].length) return out;
  }
}
