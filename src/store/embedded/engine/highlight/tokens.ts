/**
 * The text a field is highlighted in, and its tokens with their offsets: what the unified highlighter
 * analyzes when a field has no offsets in its index (Elasticsearch's default, OffsetSource.ANALYSIS).
 *
 * - The field's values are joined with U+0000 (CustomUnifiedHighlighter.MULTIVAL_SEP_CHAR), and each
 *   value is analyzed alone, its offsets shifted to where it sits in the joined text, the first token
 *   of each value after the first one position_increment_gap (100) positions further
 *   (AnalysisOffsetStrategy.MultiValueTokenStream).
 * - Text fields: the field's index analyzer (the unified highlighter re-analyzes with it): the
 *   standard analyzer (../analyzer.ts) unless the mapping names another (analysis/analyzers.ts, a
 *   value analyzed at once), the same tokens the index holds, with their offsets in the value and
 *   their positions (a removed stop word leaves a gap). Keyword (and other) fields: the keyword
 *   analyzer, the whole value one token (lower-cased with `normalizer: lowercase`).
 * - `maxOffset` (the request's `max_analyzed_offset`): in each value, analysis stops at the first
 *   token starting beyond it (LimitTokenOffsetFilter, Elasticsearch's LimitTokenOffsetAnalyzer).
 *
 * A field may hold 1,000,000 characters (MAX_ANALYZED_OFFSET), some 170,000 tokens: they are kept in
 * typed arrays, each token's term a number in a dictionary of the field's distinct terms (found from
 * the text without cutting a string out of it for ASCII words: ../termHash.ts), and the analysis runs
 * as steps that check the search's budget every thousand tokens or piece of text.
 */
import { Analyzer } from '../analysis/analyzers';
import { lowerCase } from '../analysis/lowerCase';
import { TokenBounds, TokenSink, tokenizePiece } from '../analyzer';
import { Budget, CHECK_EVERY, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { POSITION_INCREMENT_GAP } from '../fieldIndex';
import { grow } from '../growable';
import { advance } from '../lucene/matches';
import { TermHash } from '../termHash';

export const VALUE_SEPARATOR = '\u0000';

/** One token, as objects (tests, small texts). */
export interface Token {
  readonly term: string;
  readonly position: number;
  readonly start: number;
  readonly end: number;
}

export interface FieldText {
  /** The values joined with U+0000. */
  readonly text: string;
  /** The number of tokens. */
  readonly size: number;
  /** Per token, in order of position (and offset): its term's id in `terms`, its position and offsets. */
  readonly term: Int32Array;
  readonly position: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  /** The distinct terms (ids in order of first sight; may hold terms no token has any more, see subset). */
  readonly terms: TermHash;
}

/** A text field's analyzer ('standard': its fast path; another analyzer), or a keyword field's whole value ('lowercase': with `normalizer: lowercase`). */
export type Analysis = 'standard' | 'keyword' | 'lowercase' | Analyzer;

/** Whether the field is a text field (its values cut into words, position_increment_gap between them). */
export const isTextAnalysis = (analysis: Analysis): boolean => analysis !== 'keyword' && analysis !== 'lowercase';

/** Receives a token of a value: its term's id, its offsets in the value; false stops the analysis of the value. */
type Emit = (id: number, start: number, end: number) => boolean;

/**
 * The standard analyzer's tokens of one value (the tokens analyzeText gives), their terms interned in
 * `dict`, a piece of the text at a time (../analyzer.ts tokenizePiece), the budget checked after each.
 */
function* standardValue(value: string, dict: TermHash, emit: Emit, budget: Budget): Steps<void> {
  // its own bounds: another search may scan between two slices of this one
  const bounds: TokenBounds = { data: new Int32Array(96), whole: 0 };
  let stopped = false;
  const sink: TokenSink = (term, start, end, upper, hash) => {
    if (!stopped) stopped = !emit(term === null ? dict.internHashed(value, start, end, upper, hash) : dict.intern(term), start, end);
  };
  for (let from = 0; from < value.length && !stopped; ) {
    from = tokenizePiece(value, from, bounds, sink);
    if (budget.due()) yield;
  }
}

/** The standard analyzer's tokens of one value with their offsets in it (the tokens analyzeText gives). */
export function standardTokens(value: string, emit: (term: string, start: number, end: number) => boolean): void {
  const dict = new TermHash();
  runToEnd(standardValue(value, dict, (id, start, end) => emit(dict.term(id), start, end), UNLIMITED));
}

/** Growable token arrays. */
class TokenArrays {
  size = 0;
  term = new Int32Array(256);
  position = new Int32Array(256);
  start = new Int32Array(256);
  end = new Int32Array(256);

  push(term: number, position: number, start: number, end: number): void {
    const i = this.size++;
    if (i === this.term.length) {
      this.term = grow(this.term, i + 1);
      this.position = grow(this.position, i + 1);
      this.start = grow(this.start, i + 1);
      this.end = grow(this.end, i + 1);
    }
    this.term[i] = term;
    this.position[i] = position;
    this.start[i] = start;
    this.end[i] = end;
  }

  done(text: string, terms: TermHash): FieldText {
    const n = this.size;
    return { text, size: n, term: this.term.subarray(0, n), position: this.position.subarray(0, n), start: this.start.subarray(0, n), end: this.end.subarray(0, n), terms };
  }
}

/** The joined text of a field's values and its tokens, within the budget. */
export function* fieldTextSteps(values: readonly string[], analysis: Analysis, maxOffset: number, budget: Budget): Steps<FieldText> {
  const text = values.join(VALUE_SEPARATOR);
  const dict = new TermHash();
  const out = new TokenArrays();
  let position = -1;
  let valueStart = 0;
  for (let v = 0; v < values.length; v++) {
    const value = values[v];
    if (v > 0) position += isTextAnalysis(analysis) ? POSITION_INCREMENT_GAP : 0;
    const emit: Emit = (id, start, end) => {
      if (start > maxOffset) return false;
      out.push(id, ++position, valueStart + start, valueStart + end);
      return true;
    };
    if (analysis === 'standard') yield* standardValue(value, dict, emit, budget);
    else if (analysis === 'keyword' || analysis === 'lowercase') emit(dict.intern(analysis === 'keyword' ? value : lowerCase(value)), 0, value.length);
    else {
      for (const token of analysis.tokens(value)) {
        position += token.positionIncrement - 1;
        if (!emit(dict.intern(token.term), token.start, token.end)) break;
      }
      if (budget.due()) yield;
    }
    valueStart += value.length + 1;
  }
  return out.done(text, dict);
}

/** fieldTextSteps run at once. */
export function fieldText(values: readonly string[], analysis: Analysis, maxOffset = Infinity): FieldText {
  return runToEnd(fieldTextSteps(values, analysis, maxOffset, UNLIMITED));
}

/** The tokens whose term `keep` marks (by term id), within the budget (the same dictionary). */
export function* subset(text: FieldText, keep: Uint8Array, budget: Budget): Steps<FieldText> {
  const out = new TokenArrays();
  for (let i = 0; i < text.size; i++) {
    if (keep[text.term[i]] === 1) out.push(text.term[i], text.position[i], text.start[i], text.end[i]);
    if ((i & CHECK_EVERY) === CHECK_EVERY && budget.due()) yield;
  }
  return out.done(text.text, text.terms);
}

/** The tokens grouped by term: those of term id t are order[first[t]], ..., order[first[t + 1] - 1], in text order. */
export interface TermGroups {
  readonly first: Int32Array;
  readonly order: Int32Array;
}

export function* groupByTerm(text: FieldText, budget: Budget): Steps<TermGroups> {
  const first = new Int32Array(text.terms.size + 1);
  for (let i = 0; i < text.size; i++) first[text.term[i] + 1]++;
  for (let t = 0; t < text.terms.size; t++) first[t + 1] += first[t];
  if (budget.due()) yield;
  const next = first.slice(0, text.terms.size);
  const order = new Int32Array(text.size);
  for (let i = 0; i < text.size; i++) {
    order[next[text.term[i]]++] = i;
    if ((i & CHECK_EVERY) === CHECK_EVERY && budget.due()) yield;
  }
  return { first, order };
}

/** The tokens as objects. */
export function tokenList(text: FieldText): Token[] {
  return Array.from({ length: text.size }, (_, i) => ({ term: text.terms.term(text.term[i]), position: text.position[i], start: text.start[i], end: text.end[i] }));
}

/** The index of the token at `position` (positions increase with the index), or -1. */
export function tokenAt(text: FieldText, position: number): number {
  const at = advance(text.position, 0, text.size, position);
  return at < text.size && text.position[at] === position ? at : -1;
}
