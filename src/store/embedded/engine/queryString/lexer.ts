/**
 * The token manager of Lucene's classic query syntax (`query_string`), as JavaCC generates it from
 * QueryParser.jj (Lucene 9, lucene/queryparser/.../classic/QueryParser.jj): the longest token wins,
 * a tie goes to the token defined first, and three lexical states:
 *
 * - DEFAULT: whitespace (" \t\n\r\u3000") is skipped; AND (`AND`, `&&`), OR (`OR`, `||`), NOT
 *   (`NOT`, `!`), `+`, `-`, BAREOPER (`+`, `-` or `!` followed by whitespace), `(`, `)`, `:`, `*`,
 *   `^` (to Boost), QUOTED (`"..."`, `\` escapes), TERM, FUZZY_SLOP (`~` and term characters),
 *   PREFIXTERM (`foo*`), WILDTERM (`f?o*`), REGEXPTERM (`/.../`, `\/` inside), `[` and `{` (to Range);
 * - Range: whitespace skipped; `TO`, `]` and `}` (to DEFAULT), RANGE_QUOTED, RANGE_GOOP (anything
 *   but a space, `]` and `}`);
 * - Boost: NUMBER (`2`, `1.5`) and back to DEFAULT; nothing is skipped there.
 *
 * Tokens are made on demand (`peek`), as the generated parser asks for them, so a lexical error is
 * reported only when the parser reaches it, with TokenMgrError's message and position. Columns are
 * FastCharStream's: the UTF-16 offset in the whole query, and line always 1.
 *
 * Written by hand: no npm query parser (lucene, liqe, lucene-query-parser, all PEG grammars that
 * approximate the syntax) has Lucene's tokens, states and error positions, which decide how a
 * query string is read (`foo*` a prefix, `a-b` one term, `a/b` an unterminated regular expression).
 */

/** Token kinds, with the ordinals of Lucene's QueryParserConstants (they order the expected lists). */
export const enum Kind {
  EOF = 0,
  AND = 8,
  OR = 9,
  NOT = 10,
  PLUS = 11,
  MINUS = 12,
  BAREOPER = 13,
  LPAREN = 14,
  RPAREN = 15,
  COLON = 16,
  STAR = 17,
  CARAT = 18,
  QUOTED = 19,
  TERM = 20,
  FUZZY_SLOP = 21,
  PREFIXTERM = 22,
  WILDTERM = 23,
  REGEXPTERM = 24,
  RANGEIN_START = 25,
  RANGEEX_START = 26,
  NUMBER = 27,
  RANGE_TO = 28,
  RANGEIN_END = 29,
  RANGEEX_END = 30,
  RANGE_QUOTED = 31,
  RANGE_GOOP = 32,
}

/** QueryParserConstants.tokenImage, as ParseException prints the kinds. */
export const TOKEN_IMAGE: Readonly<Record<number, string>> = {
  0: '<EOF>',
  8: '<AND>',
  9: '<OR>',
  10: '<NOT>',
  11: '"+"',
  12: '"-"',
  13: '<BAREOPER>',
  14: '"("',
  15: '")"',
  16: '":"',
  17: '"*"',
  18: '"^"',
  19: '<QUOTED>',
  20: '<TERM>',
  21: '<FUZZY_SLOP>',
  22: '<PREFIXTERM>',
  23: '<WILDTERM>',
  24: '<REGEXPTERM>',
  25: '"["',
  26: '"{"',
  27: '<NUMBER>',
  28: '"TO"',
  29: '"]"',
  30: '"}"',
  31: '<RANGE_QUOTED>',
  32: '<RANGE_GOOP>',
};

export interface Token {
  readonly kind: Kind;
  /** The text of the token as written (escapes included). */
  readonly image: string;
  /** Offset of its first UTF-16 unit: the column Lucene reports. */
  readonly begin: number;
}

/** TokenMgrError: no token can start where the parser asked for one. */
export class LexicalError extends Error {}

const enum State {
  DEFAULT,
  RANGE,
  BOOST,
}

/** First characters of AND, OR, NOT, &&, ||. */
const KEYWORD_START = new Uint8Array(128).map((_, c) => ('AON&|'.includes(String.fromCharCode(c)) ? 1 : 0));

const isWhitespace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x3000;

/**
 * ASCII characters in terms: 2 may start a term (_TERM_START_CHAR), 1 only follow (_TERM_CHAR:
 * `-`, `+`), 0 neither (whitespace and the syntax's characters; `\\` escapes the next one). Beyond
 * ASCII every character but the ideographic space is a term character.
 */
const TERM_CHAR = new Uint8Array(128).map((_, c) => (' \t\n\r+-!():^[]"{}~*?\\/'.includes(String.fromCharCode(c)) ? (c === 0x2b || c === 0x2d ? 1 : 0) : 2));

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** ParseException.add_escapes / TokenMgrError.addEscapes. */
export function addEscapes(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const named: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r', 34: '\\"', 39: "\\'", 92: '\\\\' };
    if (named[c] !== undefined) out += named[c];
    else if (c < 0x20 || c > 0x7e) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += text[i];
  }
  return out;
}

export class Lexer {
  private readonly tokens: Token[] = [];
  private position = 0;
  private state = State.DEFAULT;

  constructor(readonly input: string) {}

  /** The i-th token (0 the first), made when first asked for. */
  token(i: number): Token {
    while (this.tokens.length <= i) this.tokens.push(this.next());
    return this.tokens[i];
  }

  private next(): Token {
    const text = this.input;
    if (this.state !== State.BOOST) while (this.position < text.length && isWhitespace(text.charCodeAt(this.position))) this.position++;
    const begin = this.position;
    if (begin >= text.length) return { kind: Kind.EOF, image: '', begin };
    const [kind, length] = this.state === State.DEFAULT ? this.matchDefault(begin) : this.state === State.RANGE ? this.matchRange(begin) : this.matchBoost(begin);
    if (length === 0) throw this.lexicalError(begin, this.state === State.BOOST);
    this.position = begin + length;
    if (kind === Kind.CARAT) this.state = State.BOOST;
    else if (kind === Kind.RANGEIN_START || kind === Kind.RANGEEX_START) this.state = State.RANGE;
    else if (kind === Kind.NUMBER || kind === Kind.RANGEIN_END || kind === Kind.RANGEEX_END) this.state = State.DEFAULT;
    return { kind, image: text.slice(begin, begin + length), begin };
  }

  /** Length of one term character at `at` (an escaped pair is two), 0 when there is none; `start`: a _TERM_START_CHAR. */
  private termChar(at: number, start: boolean): number {
    const text = this.input;
    if (at >= text.length) return 0;
    const c = text.charCodeAt(at);
    if (c === 0x5c) return at + 1 < text.length ? 2 : 0;
    if (c >= 128) return c === 0x3000 ? 0 : 1;
    return TERM_CHAR[c] === 2 || (TERM_CHAR[c] === 1 && !start) ? 1 : 0;
  }

  /** Length of a run of term characters (or also `*` and `?`) from `at`. */
  private termRun(at: number, wildcards: boolean): number {
    const text = this.input;
    let end = at;
    for (;;) {
      const c = text.charCodeAt(end);
      if (c < 128 && TERM_CHAR[c] > 0 && c !== 0x5c) end++;
      else if (wildcards && (c === 0x2a || c === 0x3f)) end++;
      else {
        const n = this.termChar(end, false);
        if (n === 0) return end - at;
        end += n;
      }
    }
  }

  /** Longest of the delimited tokens QUOTED (`\` escapes) and REGEXPTERM / RANGE_QUOTED (only `\<close>` escapes, longest match). */
  private delimited(at: number, close: number, escapesAll: boolean, minContent: number): number {
    const text = this.input;
    if (escapesAll) {
      for (let i = at + 1; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x5c) {
          if (i + 1 >= text.length) return 0;
          i++;
        } else if (c === close) return i + 1 - at;
      }
      return 0;
    }
    // (~[close] | "\\" close)*: a close char ends the token unless a backslash stands before it,
    // where it may also be content: the longest way wins
    let best = 0;
    for (let i = at + 1; i < text.length; i++) {
      if (text.charCodeAt(i) !== close) continue;
      if (i - at - 1 >= minContent) best = i + 1 - at;
      if (text.charCodeAt(i - 1) !== 0x5c) break;
    }
    return best;
  }

  private matchDefault(at: number): [Kind, number] {
    const text = this.input;
    const c = text.charCodeAt(at);
    // the tokens a character alone decides
    switch (c) {
      case 0x28:
        return [Kind.LPAREN, 1];
      case 0x29:
        return [Kind.RPAREN, 1];
      case 0x3a:
        return [Kind.COLON, 1];
      case 0x5e:
        return [Kind.CARAT, 1];
      case 0x5b:
        return [Kind.RANGEIN_START, 1];
      case 0x7b:
        return [Kind.RANGEEX_START, 1];
      case 0x22:
        return [Kind.QUOTED, this.delimited(at, 0x22, true, 0)];
      case 0x2f:
        return [Kind.REGEXPTERM, this.delimited(at, 0x2f, false, 0)];
      case 0x7e:
        return [Kind.FUZZY_SLOP, 1 + this.termRun(at + 1, false)];
      case 0x2b:
      case 0x2d:
      case 0x21:
        if (at + 1 < text.length && isWhitespace(text.charCodeAt(at + 1))) return [Kind.BAREOPER, 2];
        return [c === 0x2b ? Kind.PLUS : c === 0x2d ? Kind.MINUS : Kind.NOT, 1];
    }
    const start = this.termChar(at, true);
    const term = start === 0 ? 0 : start + this.termRun(at + start, false);
    // most tokens: a term that is no keyword and that no wildcard follows
    const after = text.charCodeAt(at + term);
    if (term > 0 && after !== 0x2a && after !== 0x3f && (c >= 128 || KEYWORD_START[c] === 0)) return [Kind.TERM, term];
    // the rest, in the order of definition, the longest winning: AND OR NOT, "*", TERM, PREFIXTERM, WILDTERM
    let best: [Kind, number] = [Kind.EOF, 0];
    const offer = (kind: Kind, length: number) => {
      if (length > best[1]) best = [kind, length];
    };
    if (text.startsWith('AND', at)) offer(Kind.AND, 3);
    else if (text.startsWith('&&', at)) offer(Kind.AND, 2);
    else if (text.startsWith('OR', at) || text.startsWith('||', at)) offer(Kind.OR, 2);
    else if (text.startsWith('NOT', at)) offer(Kind.NOT, 3);
    if (c === 0x2a) offer(Kind.STAR, 1);
    offer(Kind.TERM, term);
    if (c === 0x2a) offer(Kind.PREFIXTERM, 1);
    else if (term > 0 && text.charCodeAt(at + term) === 0x2a) offer(Kind.PREFIXTERM, term + 1);
    const wildStart = c === 0x2a || c === 0x3f ? 1 : start;
    if (wildStart > 0) offer(Kind.WILDTERM, wildStart + this.termRun(at + wildStart, true));
    return best;
  }

  private matchRange(at: number): [Kind, number] {
    const text = this.input;
    const candidates: [Kind, number][] = [];
    if (text.startsWith('TO', at)) candidates.push([Kind.RANGE_TO, 2]);
    if (text[at] === ']') candidates.push([Kind.RANGEIN_END, 1]);
    if (text[at] === '}') candidates.push([Kind.RANGEEX_END, 1]);
    if (text[at] === '"') candidates.push([Kind.RANGE_QUOTED, this.delimited(at, 0x22, false, 1)]);
    let goop = at;
    while (goop < text.length && text[goop] !== ' ' && text[goop] !== ']' && text[goop] !== '}') goop++;
    candidates.push([Kind.RANGE_GOOP, goop - at]);
    return longest(candidates);
  }

  private matchBoost(at: number): [Kind, number] {
    const text = this.input;
    let end = at;
    while (isDigit(text.charCodeAt(end))) end++;
    if (end > at && text[end] === '.' && isDigit(text.charCodeAt(end + 1))) {
      end += 2;
      while (isDigit(text.charCodeAt(end))) end++;
    }
    return [Kind.NUMBER, end - at];
  }

  /**
   * TokenMgrError's message. The token manager read characters as long as a token could still
   * match (to the end of the input for an unterminated quote, regular expression or escape, else
   * the one character no token starts with), then tried to read one more: at the end of the input
   * it reports <EOF> one column further, else the character it stopped at.
   */
  private lexicalError(at: number, boost: boolean): LexicalError {
    const text = this.input;
    const c = text.charCodeAt(at);
    const end = !boost && (c === 0x22 || c === 0x2f || c === 0x5c) ? text.length : at + 1;
    if (end < text.length) return new LexicalError(`Lexical error at line 1, column ${end}.  Encountered: "${addEscapes(text[at])}" (${c}), after : ""`);
    const last = text.charCodeAt(end - 1);
    const [line, column] = last === 0x0a || last === 0x0d ? [2, 0] : [1, end + 1];
    const after = end - at > 1 ? text.slice(at, end) : '';
    return new LexicalError(`Lexical error at line ${line}, column ${column}.  Encountered: <EOF> after : "${addEscapes(after)}"`);
  }
}

/** The longest candidate; the first defined among equals. */
function longest(candidates: readonly [Kind, number][]): [Kind, number] {
  let best: [Kind, number] = [Kind.EOF, 0];
  for (const candidate of candidates) if (candidate[1] > best[1]) best = candidate;
  return best;
}
