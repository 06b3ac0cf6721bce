/**
 * The text a field is highlighted in, and its tokens with their offsets: what the unified highlighter
 * analyzes when a field has no offsets in its index (Elasticsearch's default, OffsetSource.ANALYSIS).
 *
 * - The field's values are joined with U+0000 (CustomUnifiedHighlighter.MULTIVAL_SEP_CHAR), and each
 *   value is analyzed alone, its offsets shifted to where it sits in the joined text, the first token
 *   of each value after the first one position_increment_gap (100) positions further
 *   (AnalysisOffsetStrategy.MultiValueTokenStream).
 * - Text fields: the standard analyzer (../analyzer.ts), the same tokens the index holds, with their
 *   offsets in the value. Keyword (and other) fields: the keyword analyzer, the whole value one token.
 * - `maxOffset` (the request's `max_analyzed_offset`): in each value, analysis stops at the first
 *   token starting beyond it (LimitTokenOffsetFilter, Elasticsearch's LimitTokenOffsetAnalyzer).
 */
import { TokenBounds, lowercaseTerm, scanAscii } from '../analyzer';
import { POSITION_INCREMENT_GAP } from '../fieldIndex';

export const VALUE_SEPARATOR = '\u0000';

export interface Token {
  readonly term: string;
  readonly position: number;
  readonly start: number;
  readonly end: number;
}

export interface FieldText {
  /** The values joined with U+0000. */
  readonly text: string;
  /** In order of position (and offset). */
  readonly tokens: readonly Token[];
}

export type Analysis = 'standard' | 'keyword';

/** StandardTokenizer's max_token_length: longer tokens are cut in pieces (as ../analyzer.ts does). */
const MAX_TOKEN_LENGTH = 255;
const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
const BOUNDS: TokenBounds = { data: new Int32Array(96), whole: 0 };

/** The standard analyzer's tokens of one value with their offsets in it (the tokens analyzeText gives). */
export function standardTokens(value: string, emit: (term: string, start: number, end: number) => boolean): void {
  const count = scanAscii(value, BOUNDS);
  if (count >= 0) {
    const data = BOUNDS.data;
    for (let i = 0; i < count; i++) {
      const start = data[4 * i];
      const end = data[4 * i + 1];
      const token = value.slice(start, end);
      if (!emit(data[4 * i + 2] === 1 ? token.toLowerCase() : token, start, end)) return;
    }
    return;
  }
  // the segmenter's word-like segments, lower-cased, cut every MAX_TOKEN_LENGTH code units
  for (const { segment, index, isWordLike } of segmenter.segment(value)) {
    if (!isWordLike) continue;
    const term = lowercaseTerm(segment);
    for (let piece = 0; piece < term.length; piece += MAX_TOKEN_LENGTH) {
      const start = index + piece;
      const end = index + Math.min(segment.length, piece + MAX_TOKEN_LENGTH);
      if (!emit(term.length <= MAX_TOKEN_LENGTH ? term : term.slice(piece, piece + MAX_TOKEN_LENGTH), start, end)) return;
    }
  }
}

/** The joined text of a field's values and its tokens. */
export function fieldText(values: readonly string[], analysis: Analysis, maxOffset = Infinity): FieldText {
  const text = values.join(VALUE_SEPARATOR);
  const tokens: Token[] = [];
  let position = -1;
  let valueStart = 0;
  for (let v = 0; v < values.length; v++) {
    const value = values[v];
    if (v > 0) position += analysis === 'standard' ? POSITION_INCREMENT_GAP : 0;
    const emit = (term: string, start: number, end: number): boolean => {
      if (start > maxOffset) return false;
      position += 1;
      tokens.push({ term, position, start: valueStart + start, end: valueStart + end });
      return true;
    };
    if (analysis === 'standard') standardTokens(value, emit);
    else emit(value, 0, value.length);
    valueStart += value.length + 1;
  }
  return { text, tokens };
}
