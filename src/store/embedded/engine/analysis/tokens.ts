/** A token of an analyzer's stream, as Lucene's attributes describe it. */
export interface Token {
  term: string;
  /** Offsets of the token in the analyzed text (code units). */
  start: number;
  end: number;
  /** Positions from the previous token (1; more after removed stop words). */
  positionIncrement: number;
  /** StandardTokenizer's type (`<ALPHANUM>`, `<IDEOGRAPHIC>`...), `word` for the other tokenizers, CJKBigramFilter's `<SINGLE>` and `<DOUBLE>`. */
  type: string;
}
