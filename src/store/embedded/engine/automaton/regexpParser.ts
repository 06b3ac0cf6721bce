/**
 * Parses Lucene's regular expression syntax (what Elasticsearch's `regexp` query accepts) into an
 * AST. A port of the recursive descent parser of Lucene 9's org.apache.lucene.util.automaton.RegExp
 * (parseUnionExp .. parseCharExp), with its error messages and positions (UTF-16 code unit offsets,
 * as Java's). Every expression is anchored: it matches whole terms.
 *
 * Where Lucene decides something while building the automaton rather than while parsing, the AST
 * keeps it for the builder: character sets are resolved here (classes, negation, `.`, `\d`..`\W`,
 * and ASCII case-insensitivity, which Lucene applies to single characters and quoted strings but not
 * to ranges such as `[a-z]`). `<name>` (a named automaton, which Elasticsearch never provides) fails
 * once the whole pattern has parsed, as Lucene's toAutomaton does: "'name' not found".
 *
 * Lucene merges adjacent single characters and quoted strings into strings while parsing
 * (RegExp.makeConcatenation). That only matters for one quirk, kept here because Elasticsearch
 * answers with it: case-insensitively, a string is built by Operations.concatenate of its
 * characters, and an empty string left on its own (an empty pattern, `()` or `""` not merged with
 * a neighbouring character or string) becomes the empty language (concatenating no automata gives
 * one non-accepting state).
 */
import { ANY_CHAR, charCount, charSet, codePointAt, codePoints, complementRanges, normalizeRanges } from './codePoints';
import { RegexpFlag } from './regexpFlags';

export type RegexpNode =
  /** One character out of a set (sorted flattened ranges); an empty set matches nothing. */
  | { readonly type: 'chars'; readonly ranges: readonly number[] }
  /** The empty string: `()`, `""` or an empty pattern. */
  | { readonly type: 'emptyString' }
  /** `#`: no string at all. */
  | { readonly type: 'emptyLanguage' }
  /** `@`: every string. */
  | { readonly type: 'anyString' }
  | { readonly type: 'concat'; readonly items: readonly RegexpNode[] }
  | { readonly type: 'union'; readonly items: readonly RegexpNode[] }
  /** `a&b&c`: strings all the items match. */
  | { readonly type: 'intersection'; readonly items: readonly RegexpNode[] }
  /** `~e`: every string that e does not match. */
  | { readonly type: 'complement'; readonly sub: RegexpNode }
  /** `e?` */
  | { readonly type: 'optional'; readonly sub: RegexpNode }
  /** `e*` */
  | { readonly type: 'star'; readonly sub: RegexpNode }
  /** `e+` = {1,}, `e{n}` = {n,n}, `e{n,}` (max Infinity), `e{n,m}` (empty language when n > m). */
  | { readonly type: 'repeat'; readonly sub: RegexpNode; readonly min: number; readonly max: number }
  /** `<min-max>`: decimal numbers in the interval; `digits` > 0 fixes their length (zero-padded). */
  | { readonly type: 'interval'; readonly min: number; readonly max: number; readonly digits: number };

export interface RegexpParseOptions {
  /** Optional syntax (RegexpFlag bits); default RegexpFlag.ALL. */
  readonly flags?: number;
  /** Lucene RegExp.ASCII_CASE_INSENSITIVE, what Elasticsearch 8 uses for `case_insensitive`. */
  readonly caseInsensitive?: boolean;
}

/** A syntax error, with Lucene's message (most end with "at position N") and that position. */
export class RegexpSyntaxError extends Error {
  override readonly name = 'RegexpSyntaxError';
  constructor(
    message: string,
    /** UTF-16 code unit offset in the pattern where the parser stood. */
    readonly position: number,
  ) {
    super(message);
  }
}

export function parseRegexp(pattern: string, options: RegexpParseOptions = {}): RegexpNode {
  return new Parser(pattern, options.flags ?? RegexpFlag.ALL, options.caseInsensitive === true).parse();
}

const DIGITS = [0x30, 0x39];
const WHITESPACE = [0x09, 0x0a, 0x0d, 0x0d, 0x20, 0x20];
const WORD = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** Lucene 9's predefined classes (RegExp.expandPredefined). */
const PREDEFINED: Record<string, readonly number[]> = {
  d: DIGITS,
  D: complementRanges(DIGITS),
  s: WHITESPACE,
  S: complementRanges(WHITESPACE),
  w: WORD,
  W: complementRanges(WORD),
};

class Parser {
  private pos = 0;
  /** Nodes that are Lucene literals (REGEXP_CHAR or REGEXP_STRING), with their code points. */
  private readonly literals = new Map<RegexpNode, readonly number[]>();
  /** Concatenations as Lucene nests them: pair(e1, pair(e2, ...)) as [e1, e2, ...]. */
  private readonly pairs = new Map<RegexpNode, readonly RegexpNode[]>();

  constructor(
    private readonly text: string,
    private readonly flags: number,
    private readonly caseInsensitive: boolean,
  ) {}

  /** The first `<name>` met: Lucene fails on it when building, after parsing. */
  private named: { name: string; position: number } | undefined;

  parse(): RegexpNode {
    if (this.text.length === 0) return this.literal([]);
    const e = this.parseUnionExp();
    if (this.pos < this.text.length) this.fail(`end-of-string expected at position ${this.pos}`);
    if (this.named) this.fail(`'${this.named.name}' not found`, this.named.position);
    return e;
  }

  private parseUnionExp(): RegexpNode {
    const items = [this.parseInterExp()];
    while (this.match('|')) items.push(this.parseInterExp());
    return items.length === 1 ? items[0] : union(flatten('union', items));
  }

  private parseInterExp(): RegexpNode {
    const items = [this.parseConcatExp()];
    while (this.check(RegexpFlag.INTERSECTION) && this.match('&')) items.push(this.parseConcatExp());
    return items.length === 1 ? items[0] : { type: 'intersection', items };
  }

  private parseConcatExp(): RegexpNode {
    const items = [this.parseRepeatExp()];
    while (this.more() && !this.peek(')|') && (!this.check(RegexpFlag.INTERSECTION) || !this.peek('&'))) items.push(this.parseRepeatExp());
    return this.concatenation(items);
  }

  /**
   * Lucene's right-recursive parseConcatExp / makeConcatenation: a literal next to a literal merges
   * into one string, and so does a literal at the edge of a parenthesized concatenation next to a
   * literal. Runs of literals are merged first: the same strings, in linear time.
   */
  private concatenation(parsed: RegexpNode[]): RegexpNode {
    const items: RegexpNode[] = [];
    let run: number[] | undefined;
    for (const item of parsed) {
      const codePoints = this.literals.get(item);
      if (codePoints !== undefined) (run ??= []).push(...codePoints);
      else {
        if (run !== undefined) items.push(this.literal(run));
        run = undefined;
        items.push(item);
      }
    }
    if (run !== undefined) items.push(this.literal(run));
    // Fold from the right. `reversed` holds Lucene's pair(n1, pair(n2, ...)) as [..., n2, n1]; a
    // parenthesized concatenation on the right end is the same as its own items there.
    const last = items[items.length - 1];
    const reversed = [...(this.pairs.get(last) ?? [last])].reverse();
    for (let i = items.length - 2; i >= 0; i--) {
      const item = items[i];
      const first = this.literals.get(reversed[reversed.length - 1]);
      const itemLiteral = this.literals.get(item);
      const itemPair = this.pairs.get(item);
      const itemEnd = itemPair?.length === 2 ? this.literals.get(itemPair[1]) : undefined;
      if (itemLiteral && first) reversed[reversed.length - 1] = this.literal([...itemLiteral, ...first]);
      else if (itemEnd && first && reversed.length === 1) reversed.splice(0, 1, this.literal([...itemEnd, ...first]), itemPair![0]);
      else reversed.push(item);
    }
    if (reversed.length === 1) return reversed[0];
    const elements = reversed.reverse();
    const node: RegexpNode = { type: 'concat', items: flatten('concat', elements) };
    this.pairs.set(node, elements);
    return node;
  }

  /** A literal: its characters (each case-insensitive when asked), see the quirk above. */
  private literal(codePoints: readonly number[]): RegexpNode {
    const items: RegexpNode[] = codePoints.map((c) => ({ type: 'chars', ranges: charSet(c, this.caseInsensitive) }));
    let node: RegexpNode;
    if (items.length === 0) node = this.caseInsensitive ? { type: 'emptyLanguage' } : { type: 'emptyString' };
    else node = items.length === 1 ? items[0] : { type: 'concat', items };
    this.literals.set(node, codePoints);
    return node;
  }

  private parseRepeatExp(): RegexpNode {
    let e = this.parseComplExp();
    while (this.peek('?*+{')) {
      if (this.match('?')) e = { type: 'optional', sub: e };
      else if (this.match('*')) e = { type: 'star', sub: e };
      else if (this.match('+')) e = { type: 'repeat', sub: e, min: 1, max: Infinity };
      else if (this.match('{')) {
        let start = this.pos;
        while (this.peek('0123456789')) this.next();
        if (start === this.pos) this.fail(`integer expected at position ${this.pos}`);
        const n = this.parseRepeatCount(start);
        let m = -1;
        if (this.match(',')) {
          start = this.pos;
          while (this.peek('0123456789')) this.next();
          if (start !== this.pos) m = this.parseRepeatCount(start);
        } else m = n;
        if (!this.match('}')) this.fail(`expected '}' at position ${this.pos}`);
        e = { type: 'repeat', sub: e, min: n, max: m === -1 ? Infinity : m };
      }
    }
    return e;
  }

  /** Java's Integer.parseInt over the ASCII digits just read (it fails past 2^31 - 1). */
  private parseRepeatCount(start: number): number {
    const digits = this.text.slice(start, this.pos);
    const value = javaParseInt(digits);
    if (value === undefined) throw new RegexpSyntaxError(`For input string: "${digits}"`, start);
    return value;
  }

  private parseComplExp(): RegexpNode {
    let complements = 0;
    while (this.check(RegexpFlag.COMPLEMENT) && this.match('~')) complements++;
    const e = this.parseCharClassExp();
    // ~~e is e: the same strings, without determinizing twice.
    return complements % 2 === 1 ? { type: 'complement', sub: e } : e;
  }

  private parseCharClassExp(): RegexpNode {
    if (!this.match('[')) return this.parseSimpleExp();
    const negate = this.match('^');
    const items = [this.parseCharClass()];
    while (this.more() && !this.peek(']')) items.push(this.parseCharClass());
    if (!this.match(']')) this.fail(`expected ']' at position ${this.pos}`);
    if (!negate && items.length === 1 && typeof items[0] === 'number') return this.literal([items[0]]); // one REGEXP_CHAR
    const ranges = normalizeRanges(items.flatMap((item) => (typeof item === 'number' ? charSet(item, this.caseInsensitive) : item)));
    return { type: 'chars', ranges: negate ? complementRanges(ranges) : ranges };
  }

  /** One item of a class: a single character (a number), or a range or predefined class (ranges). */
  private parseCharClass(): number | readonly number[] {
    const predefined = this.matchPredefinedCharacterClass();
    if (predefined !== undefined) return predefined;
    const c = this.parseCharExp();
    if (!this.match('-')) return c;
    const to = this.parseCharExp();
    // Lucene's makeCharRange; ranges are not made case-insensitive.
    if (c > to) this.fail(`invalid range: from (${c}) cannot be > to (${to})`);
    return [c, to];
  }

  /** After `\`: a predefined class (its ranges), `\\` (a backslash), or undefined. */
  private matchPredefinedCharacterClass(): number | readonly number[] | undefined {
    if (!this.match('\\')) return undefined;
    if (this.peek('dDwWsS')) return PREDEFINED[String.fromCodePoint(this.next())];
    if (this.peek('\\')) return this.next();
    if (this.peek('abcefghijklmnopqrtuvxyz') || this.peek('ABCEFGHIJKLMNOPQRTUVXYZ')) {
      const position = this.pos;
      // Java appends the int code point: "\a" reads "invalid character class \97".
      throw new RegexpSyntaxError(`invalid character class \\${this.next()}`, position);
    }
    return undefined;
  }

  private parseSimpleExp(): RegexpNode {
    if (this.match('.')) return { type: 'chars', ranges: ANY_CHAR };
    if (this.check(RegexpFlag.EMPTY) && this.match('#')) return { type: 'emptyLanguage' };
    if (this.check(RegexpFlag.ANYSTRING) && this.match('@')) return { type: 'anyString' };
    if (this.match('"')) {
      const start = this.pos;
      while (this.more() && !this.peek('"')) this.next();
      if (!this.match('"')) this.fail(`expected '"' at position ${this.pos}`);
      return this.literal(codePoints(this.text.slice(start, this.pos - 1)));
    }
    if (this.match('(')) {
      if (this.match(')')) return this.literal([]);
      const e = this.parseUnionExp();
      if (!this.match(')')) this.fail(`expected ')' at position ${this.pos}`);
      return e;
    }
    if ((this.check(RegexpFlag.AUTOMATON) || this.check(RegexpFlag.INTERVAL)) && this.match('<')) return this.parseAngle();
    const predefined = this.matchPredefinedCharacterClass();
    if (typeof predefined === 'object') return { type: 'chars', ranges: predefined };
    return this.literal([predefined ?? this.parseCharExp()]);
  }

  /** After `<`: a numeric interval `<n-m>` or a named automaton `<name>`. */
  private parseAngle(): RegexpNode {
    const start = this.pos;
    while (this.more() && !this.peek('>')) this.next();
    if (!this.match('>')) this.fail(`expected '>' at position ${this.pos}`);
    const s = this.text.slice(start, this.pos - 1);
    const dash = s.indexOf('-');
    if (dash === -1) {
      if (!this.check(RegexpFlag.AUTOMATON)) this.fail(`interval syntax error at position ${this.pos - 1}`, this.pos - 1);
      this.named ??= { name: s, position: start - 1 };
      return { type: 'emptyLanguage' }; // never built
    }
    if (!this.check(RegexpFlag.INTERVAL)) this.fail(`illegal identifier at position ${this.pos - 1}`, this.pos - 1);
    const smin = s.slice(0, dash);
    const smax = s.slice(dash + 1);
    let min = dash === 0 || dash === s.length - 1 || dash !== s.lastIndexOf('-') ? undefined : javaParseInt(smin);
    let max = min === undefined ? undefined : javaParseInt(smax);
    if (min === undefined || max === undefined) this.fail(`interval syntax error at position ${this.pos - 1}`, this.pos - 1);
    const digits = smin.length === smax.length ? smin.length : 0;
    if (min! > max!) [min, max] = [max, min];
    return { type: 'interval', min: min!, max: max!, digits };
  }

  private parseCharExp(): number {
    this.match('\\');
    return this.next();
  }

  private check(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }

  private more(): boolean {
    return this.pos < this.text.length;
  }

  private peek(chars: string): boolean {
    if (!this.more()) return false;
    const c = codePointAt(this.text, this.pos);
    for (let i = 0; i < chars.length; i++) if (chars.charCodeAt(i) === c) return true;
    return false;
  }

  private match(ch: string): boolean {
    if (!this.more() || codePointAt(this.text, this.pos) !== ch.charCodeAt(0)) return false;
    this.pos += 1;
    return true;
  }

  private next(): number {
    if (!this.more()) this.fail('unexpected end-of-string');
    const c = codePointAt(this.text, this.pos);
    this.pos += charCount(c);
    return c;
  }

  private fail(message: string, position = this.pos): never {
    throw new RegexpSyntaxError(message, position);
  }
}

/** A union, its single characters merged into one set (as Lucene's minimized `a|b` is `[ab]`). */
function union(items: RegexpNode[]): RegexpNode {
  const sets = items.filter((item) => item.type === 'chars');
  if (sets.length < 2) return { type: 'union', items };
  const merged: RegexpNode = { type: 'chars', ranges: normalizeRanges(sets.flatMap((item) => item.ranges)) };
  const rest = items.filter((item) => item.type !== 'chars');
  return rest.length === 0 ? merged : { type: 'union', items: [merged, ...rest] };
}

function flatten(type: 'concat' | 'union', items: RegexpNode[]): RegexpNode[] {
  return items.flatMap((item) => (item.type === type ? item.items : [item]));
}

/**
 * Java's Integer.parseInt(s, 10): an optional sign, then decimal digits (Character.digit, which
 * takes any Unicode decimal digit of the BMP), at most 2^31 - 1. Undefined where Java throws.
 */
function javaParseInt(s: string): number | undefined {
  let i = s.startsWith('+') || s.startsWith('-') ? 1 : 0;
  const negative = s.startsWith('-');
  if (i === s.length) return undefined;
  let value = 0;
  for (; i < s.length; i++) {
    const d = decimalDigit(s.charCodeAt(i));
    if (d < 0) return undefined;
    value = value * 10 + d;
    if (value > (negative ? 2147483648 : 2147483647)) return undefined;
  }
  return negative ? -value : value;
}

const ND = /\p{Nd}/u;

/** The value of a decimal digit code unit (Unicode Nd digits come in runs of ten, 0 to 9), or -1. */
function decimalDigit(unit: number): number {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  if (unit < 0x80 || !ND.test(String.fromCharCode(unit))) return -1;
  let first = unit;
  while (ND.test(String.fromCharCode(first - 1))) first--;
  return (unit - first) % 10;
}
