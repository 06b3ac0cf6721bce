/**
 * The parser of Lucene's classic query syntax (`query_string`): a port of what JavaCC generates
 * from QueryParser.jj (Lucene 9), with its decisions and lookaheads:
 *
 *   Query   ::= ( MultiTerm | Modifiers Clause ) ( MultiTerm | Conjunction Modifiers Clause )*
 *   Clause  ::= [ (<TERM> | "*") ":" ] ( Term | "(" Query ")" [ "^" <NUMBER> ] )
 *   Term    ::= (<TERM> | "*" | <PREFIXTERM> | <WILDTERM> | <REGEXPTERM> | <NUMBER> | <BAREOPER>)
 *                 [ "^" <NUMBER> [<FUZZY_SLOP>] | <FUZZY_SLOP> [ "^" <NUMBER> ] ]
 *             | ("[" | "{") goop "TO" goop ("]" | "}") [ "^" <NUMBER> ]
 *             | <QUOTED> [ "^" <NUMBER> [<FUZZY_SLOP>] | <FUZZY_SLOP> [ "^" <NUMBER> ] ]
 *
 * MultiTerm (splitOnWhitespace false, Lucene's default and Elasticsearch's): two or more <TERM>s
 * in a row, each but the first not followed by ":", "*", "~...", "^", AND or OR, are one text
 * analyzed together (`new york` one query, not two).
 *
 * It gives a syntax tree, not queries: what each piece becomes depends on the index's mapping,
 * which is known when the search runs (classicQuery.ts, as QueryParserBase and Elasticsearch's
 * QueryStringQueryParser build them). What Lucene checks while parsing is checked here, in the same
 * order: escapes (discardEscapeChar), fuzzy distances (handleBareFuzzy), and the syntax, whose
 * errors are ParseException's: `Encountered " <TERM> "foo "" at line 1, column 3.` and the tokens
 * that were expected there (the decisions evaluated at that token, as generateParseException
 * collects them). Parentheses nested too deep and too many terms are refused as they are read
 * (syntaxGuard.ts).
 */
import { javaInt, javaParseFloat } from './javaNumbers';
import { Kind, Lexer, LexicalError, TOKEN_IMAGE, Token, addEscapes } from './lexer';
import { SyntaxGuard, SyntaxLimits } from './syntaxGuard';

export type Conjunction = 'none' | 'and' | 'or';
export type Modifier = 'none' | 'not' | 'req';

/** `Query`: its items in order (the first has conjunction 'none'). */
export interface QueryNode {
  readonly items: readonly QueryItem[];
}

export type QueryItem =
  /** Consecutive terms, joined by spaces, escapes removed: one getFieldQuery. */
  | { readonly kind: 'multi'; readonly text: string }
  | { readonly kind: 'clause'; readonly conj: Conjunction; readonly mods: Modifier; readonly clause: ClauseNode };

/** `Clause`: an optional field (`*` for `*:`), and a term or a group. */
export interface ClauseNode {
  readonly field: string | null;
  readonly body: TermNode | GroupNode;
}

export interface GroupNode {
  readonly kind: 'group';
  readonly query: QueryNode;
  readonly boost: number | null;
}

/** What a bare token is (QueryParserBase.handleBareTokenQuery). */
export type BareTerm =
  | { readonly kind: 'term'; readonly text: string }
  | { readonly kind: 'wildcard'; readonly pattern: string }
  | { readonly kind: 'prefix'; readonly text: string }
  | { readonly kind: 'regexp'; readonly pattern: string }
  /** `edits`: the fuzzy distance as handleBareFuzzy got it (a float, cast to int when used). */
  | { readonly kind: 'fuzzy'; readonly text: string; readonly edits: number };

export type TermNode = (
  | BareTerm
  | { readonly kind: 'range'; readonly lower: string | null; readonly upper: string | null; readonly includeLower: boolean; readonly includeUpper: boolean }
  /** `slop`: from `"..."~N`, null when absent or unreadable (the query's phrase_slop then). */
  | { readonly kind: 'quoted'; readonly text: string; readonly slop: number | null }
) & { readonly boost: number | null };

export interface ClassicOptions {
  /** The fuzzy distance of `term~` / `term~N` (QueryParserBase.getFuzzyDistance, as the caller defines it). */
  fuzzyDistance(slopImage: string, term: string): number;
  /** Deepest nesting of parentheses, most terms (syntaxGuard.ts). */
  limits: SyntaxLimits;
}

/** A ParseException: its message without the "Cannot parse '...': " that parse() adds. */
export class ParseError extends Error {}

/** QueryParserBase.discardEscapeChar: `\x` is x, `\uXXXX` the UTF-16 unit. */
export function discardEscapeChar(input: string): string {
  if (!input.includes('\\')) return input;
  let out = '';
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    if (i + 1 >= input.length) throw new ParseError('Term can not end with escape character.');
    const next = input[++i];
    if (next !== 'u') {
      out += next;
      continue;
    }
    let code = 0;
    for (let k = 0; k < 4; k++) {
      if (++i >= input.length) throw new ParseError('Truncated unicode escape sequence.');
      const digit = parseInt(input[i], 16);
      if (!/[0-9a-fA-F]/.test(input[i])) throw new ParseError(`Non-hex character in Unicode escape sequence: ${input[i]}`);
      code = code * 16 + digit;
    }
    out += String.fromCharCode(code);
  }
  return out;
}

// The expected-token sets of the generated parser's decisions (jj_la1_0), by what they decide.
const MODIFIERS = [Kind.NOT, Kind.PLUS, Kind.MINUS];
const TERM_START = [Kind.BAREOPER, Kind.STAR, Kind.QUOTED, Kind.TERM, Kind.PREFIXTERM, Kind.WILDTERM, Kind.REGEXPTERM, Kind.RANGEIN_START, Kind.RANGEEX_START, Kind.NUMBER];
const CLAUSE_START = [...TERM_START, Kind.LPAREN];
const QUERY_START = [...MODIFIERS, ...CLAUSE_START];
const CONJUNCTIONS = [Kind.AND, Kind.OR];
const QUERY_NEXT = [...CONJUNCTIONS, ...QUERY_START];
const GOOP = [Kind.RANGE_GOOP, Kind.RANGE_QUOTED, Kind.RANGE_TO];
const RANGE_END = [Kind.RANGEIN_END, Kind.RANGEEX_END];
const BARE_TERM = new Set([Kind.TERM, Kind.STAR, Kind.PREFIXTERM, Kind.WILDTERM, Kind.REGEXPTERM, Kind.NUMBER, Kind.BAREOPER]);
/** QueryParser.disallowedPostMultiTerm. */
const NOT_AFTER_MULTI_TERM = new Set([Kind.COLON, Kind.STAR, Kind.FUZZY_SLOP, Kind.CARAT, Kind.AND, Kind.OR]);

class Parser {
  private readonly lexer: Lexer;
  /** Index of the next token. */
  private at = 0;
  /** jj_gen: tokens consumed so far. */
  private gen = 0;
  /** The decisions taken without consuming since the last token (jj_la1 entries at jj_gen). */
  private expected: Kind[][] = [];
  private readonly guard: SyntaxGuard;

  constructor(
    input: string,
    private readonly options: ClassicOptions,
  ) {
    this.lexer = new Lexer(input);
    this.guard = new SyntaxGuard(options.limits);
  }

  private peek(i = 1): Token {
    return this.lexer.token(this.at + i - 1);
  }

  /**
   * A decision between `alternatives` and their absence: the next token's kind. When it is none of
   * them, the alternatives are recorded (jj_la1), for an error at this token.
   */
  private choose(alternatives: readonly Kind[]): Kind {
    const kind = this.peek().kind;
    if (!alternatives.includes(kind)) this.expected.push(alternatives as Kind[]);
    return kind;
  }

  /** A decision that must take one of `alternatives`. */
  private require(alternatives: readonly Kind[]): Kind {
    const kind = this.choose(alternatives);
    if (!alternatives.includes(kind)) throw this.error();
    return kind;
  }

  private consume(kind: Kind): Token {
    const token = this.peek();
    if (token.kind !== kind) throw this.error([kind]);
    this.at++;
    this.gen++;
    this.expected = [];
    return token;
  }

  /** generateParseException: the token met, where, and every kind the decisions at it allowed. */
  private error(also: readonly Kind[] = []): ParseError {
    const token = this.peek();
    const kinds = new Set<Kind>(also);
    for (const set of this.expected) for (const kind of set) kinds.add(kind);
    const expected = [...kinds].sort((a, b) => a - b).map((k) => TOKEN_IMAGE[k]);
    const met = token.kind === Kind.EOF ? TOKEN_IMAGE[Kind.EOF] : ` ${TOKEN_IMAGE[token.kind]} "${addEscapes(token.image)} "`;
    const list = expected.length === 0 ? '' : ` Was expecting${expected.length === 1 ? ':' : ' one of:'} ${expected.join(', ')}`;
    return new ParseError(`Encountered "${met}" at line 1, column ${token.begin}.${list}`);
  }

  /** The LOOKAHEAD of MultiTerm at the next token: TERM, then TERM not followed by a disallowed kind. */
  private multiTermAhead(offset: number): boolean {
    return this.peek(offset).kind === Kind.TERM && this.peek(offset + 1).kind === Kind.TERM && !NOT_AFTER_MULTI_TERM.has(this.peek(offset + 2).kind);
  }

  topLevelQuery(): QueryNode {
    const query = this.query();
    this.consume(Kind.EOF);
    return query;
  }

  private query(): QueryNode {
    const items: QueryItem[] = [];
    if (this.multiTermAhead(1)) {
      items.push(this.multiTerm());
    } else {
      this.require(QUERY_START);
      const mods = this.modifiers();
      items.push({ kind: 'clause', conj: 'none', mods, clause: this.clause() });
    }
    for (;;) {
      if (!QUERY_NEXT.includes(this.choose(QUERY_NEXT))) break;
      if (this.multiTermAhead(1)) {
        items.push(this.multiTerm());
        continue;
      }
      const conj = this.conjunction();
      const mods = this.modifiers();
      items.push({ kind: 'clause', conj, mods, clause: this.clause() });
    }
    return { items };
  }

  private conjunction(): Conjunction {
    const kind = this.choose(CONJUNCTIONS);
    if (kind === Kind.AND || kind === Kind.OR) {
      this.consume(kind);
      return kind === Kind.AND ? 'and' : 'or';
    }
    return 'none';
  }

  private modifiers(): Modifier {
    const kind = this.choose(MODIFIERS);
    if (kind === Kind.PLUS || kind === Kind.MINUS || kind === Kind.NOT) {
      this.consume(kind);
      return kind === Kind.PLUS ? 'req' : 'not';
    }
    return 'none';
  }

  private multiTerm(): QueryItem {
    this.guard.piece();
    let text = this.consume(Kind.TERM).image;
    do {
      this.guard.piece();
      text += ` ${this.consume(Kind.TERM).image}`;
    } while (this.peek(1).kind === Kind.TERM && !NOT_AFTER_MULTI_TERM.has(this.peek(2).kind));
    return { kind: 'multi', text: discardEscapeChar(text) };
  }

  private clause(): ClauseNode {
    let field: string | null = null;
    const first = this.peek(1).kind;
    if ((first === Kind.TERM || first === Kind.STAR) && this.peek(2).kind === Kind.COLON) {
      const token = this.consume(first);
      this.consume(Kind.COLON);
      field = first === Kind.TERM ? discardEscapeChar(token.image) : '*';
    }
    if (this.require(CLAUSE_START) !== Kind.LPAREN) return { field, body: this.term() };
    this.consume(Kind.LPAREN);
    this.guard.enter();
    const query = this.query();
    this.guard.leave();
    this.consume(Kind.RPAREN);
    const boost = this.choose([Kind.CARAT]) === Kind.CARAT ? this.boost() : null;
    return { field, body: { kind: 'group', query, boost } };
  }

  private boost(): number {
    this.consume(Kind.CARAT);
    return javaParseFloat(this.consume(Kind.NUMBER).image);
  }

  /** The optional `^N` and `~...` after a term or a phrase, in either order. */
  private suffixes(): { boost: number | null; slop: Token | null } {
    let boost: number | null = null;
    let slop: Token | null = null;
    const kind = this.choose([Kind.CARAT, Kind.FUZZY_SLOP]);
    if (kind === Kind.CARAT) {
      boost = this.boost();
      if (this.choose([Kind.FUZZY_SLOP]) === Kind.FUZZY_SLOP) slop = this.consume(Kind.FUZZY_SLOP);
    } else if (kind === Kind.FUZZY_SLOP) {
      slop = this.consume(Kind.FUZZY_SLOP);
      if (this.choose([Kind.CARAT]) === Kind.CARAT) boost = this.boost();
    }
    return { boost, slop };
  }

  private term(): TermNode {
    const kind = this.require(TERM_START);
    this.guard.piece();
    if (BARE_TERM.has(kind)) {
      const token = this.consume(kind);
      const image = kind === Kind.BAREOPER ? token.image.slice(0, 1) : token.image;
      const { boost, slop } = this.suffixes();
      return { ...this.bareToken(kind, image, slop), boost };
    }
    if (kind === Kind.RANGEIN_START || kind === Kind.RANGEEX_START) {
      this.consume(kind);
      const lower = this.consume(this.require(GOOP));
      this.consume(Kind.RANGE_TO);
      const upper = this.consume(this.require(GOOP));
      const end = this.consume(this.require(RANGE_END)).kind;
      const boost = this.choose([Kind.CARAT]) === Kind.CARAT ? this.boost() : null;
      const bound = (t: Token) => (t.kind === Kind.RANGE_QUOTED ? discardEscapeChar(t.image.slice(1, -1)) : t.image === '*' ? null : discardEscapeChar(t.image));
      return { kind: 'range', lower: bound(lower), upper: bound(upper), includeLower: kind === Kind.RANGEIN_START, includeUpper: end === Kind.RANGEIN_END, boost };
    }
    const token = this.consume(Kind.QUOTED);
    const { boost, slop } = this.suffixes();
    // handleQuotedTerm: the slop is (int) Float.parseFloat of what follows "~", else the default
    const parsed = slop === null ? NaN : javaParseFloat(slop.image.slice(1));
    return { kind: 'quoted', text: discardEscapeChar(token.image.slice(1, -1)), slop: Number.isNaN(parsed) ? null : javaInt(parsed), boost };
  }

  /** QueryParserBase.handleBareTokenQuery (and handleBareFuzzy's checks). */
  private bareToken(kind: Kind, image: string, slop: Token | null): BareTerm {
    const text = discardEscapeChar(image);
    if (kind === Kind.STAR || kind === Kind.WILDTERM) return { kind: 'wildcard', pattern: image };
    if (kind === Kind.PREFIXTERM) return { kind: 'prefix', text: discardEscapeChar(image.slice(0, -1)) };
    if (kind === Kind.REGEXPTERM) return { kind: 'regexp', pattern: image.slice(1, -1) };
    if (slop === null) return { kind: 'term', text };
    const edits = this.options.fuzzyDistance(slop.image, text);
    if (edits < 0) throw new ParseError('Minimum similarity for a FuzzyQuery has to be between 0.0f and 1.0f !');
    if (edits >= 1 && edits !== javaInt(edits)) throw new ParseError('Fractional edit distances are not allowed!');
    return { kind: 'fuzzy', text, edits };
  }
}

/**
 * QueryParserBase.parse: the syntax tree of a query string, or a ParseError whose message is
 * Lucene's ("Cannot parse 'a AND': Encountered ...").
 */
export function parseClassic(query: string, options: ClassicOptions): QueryNode {
  try {
    return new Parser(query, options).topLevelQuery();
  } catch (err) {
    if (err instanceof ParseError || err instanceof LexicalError) throw new ParseError(`Cannot parse '${query}': ${err.message}`);
    throw err;
  }
}
