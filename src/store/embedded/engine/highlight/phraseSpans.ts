/**
 * Where a phrase matches in the tokens of the highlighted text, as the two ways of highlighting see it:
 *
 * - `phraseMatches`: the matches of the PhraseQuery (or MultiPhraseQuery) itself, each from its first
 *   to its last term, as Weight.matches reports them (ExactPhraseMatcher: every occurrence, in order
 *   of the first term; SloppyPhraseMatcher: the matches its algorithm finds, ../lucene/phrase.ts).
 * - `phraseTermPositions`: the positions of the phrase's terms inside matches of the SpanNearQuery the
 *   WeightedSpanTermExtractor turns the phrase into (in order when the slop is 0, NearSpansOrdered;
 *   else unordered within the slop, NearSpansUnordered), what PhraseHelper collects when the
 *   highlighter does not use Weight.matches (`require_field_match: false`).
 */
import { SloppyPhraseMatcher } from '../lucene/phrase';
import { Token } from './tokens';

export interface PositionalPhrase {
  /** The terms accepted at each phrase position (one for a PhraseQuery). */
  readonly terms: readonly (readonly string[])[];
  /** The position of each in the phrase. */
  readonly positions: readonly number[];
  readonly slop: number;
}

/** For each phrase position, the document positions of the tokens it accepts, ascending. */
function termPositions(tokens: readonly Token[], phrase: PositionalPhrase): number[][] {
  const sets = phrase.terms.map((terms) => new Set(terms));
  const out: number[][] = sets.map(() => []);
  for (const token of tokens) {
    for (let i = 0; i < sets.length; i++) if (sets[i].has(token.term)) out[i].push(token.position);
  }
  return out;
}

/** The tokens by position (one token per position with these analyzers). */
function byPosition(tokens: readonly Token[]): Map<number, Token> {
  const map = new Map<number, Token>();
  for (const token of tokens) if (!map.has(token.position)) map.set(token.position, token);
  return map;
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

/** The matches of a phrase in the tokens, as offsets [start of its first token, end of its last]. */
export function phraseMatches(tokens: readonly Token[], phrase: PositionalPhrase): [number, number][] {
  const at = byPosition(tokens);
  return positionSpans(termPositions(tokens, phrase), phrase).map(([first, last]) => [(at.get(first) as Token).start, (at.get(last) as Token).end]);
}

/**
 * The document positions of the phrase's terms that take part in a match of its SpanNearQuery (slop
 * plus the gaps between its positions; in order only for slop 0).
 */
export function phraseTermPositions(tokens: readonly Token[], phrase: PositionalPhrase): Set<number> {
  const positions = termPositions(tokens, phrase);
  const out = new Set<number>();
  if (positions.some((p) => p.length === 0)) return out;
  const gaps = Math.max(0, phrase.positions[phrase.positions.length - 1] - phrase.positions[0] - phrase.positions.length + 1);
  const slop = phrase.slop + gaps;
  const matches = phrase.slop === 0 ? orderedMatches(positions, slop) : unorderedMatches(positions, slop);
  for (const cells of matches) for (const p of cells) out.add(p);
  return out;
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
