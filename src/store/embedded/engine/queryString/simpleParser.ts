/**
 * The scanner of Lucene's SimpleQueryParser (`simple_query_string`), ported from
 * lucene/queryparser/.../simple/SimpleQueryParser.java (parseSubQuery, consumeSubQuery,
 * consumePhrase, consumeToken, parseFuzziness, tokenFinished). It never fails: `+` AND, `|` OR,
 * `-` NOT (twice cancels out), `"..."` phrases with `~N` slop, `term*` prefixes, `term~N` fuzzy
 * terms, `(...)` precedence and `\` escapes, each only when its flag is on; a quote or parenthesis
 * that is never closed is skipped, and the rest read as if it were not there.
 *
 * Lucene builds the query while it scans, and whether a token gives a query (or nothing, when it
 * analyzes to no term) decides how the operators around it apply; that depends on the fields'
 * mapping, known when the search runs. So the scan gives the steps of that construction in order
 * (simpleQuery.ts replays them against the mapping), and it runs once, when the query is parsed.
 */
import { SyntaxGuard, SyntaxLimits } from './syntaxGuard';

/** SimpleQueryParser's flags (Elasticsearch's SimpleQueryStringFlag values). */
export const SimpleFlag = {
  AND: 1 << 0,
  NOT: 1 << 1,
  OR: 1 << 2,
  PREFIX: 1 << 3,
  PHRASE: 1 << 4,
  PRECEDENCE: 1 << 5,
  ESCAPE: 1 << 6,
  WHITESPACE: 1 << 7,
  FUZZY: 1 << 8,
  NEAR: 1 << 9,
  ALL: -1,
  NONE: 0,
} as const;

export type Branch =
  | { readonly kind: 'term'; readonly text: string }
  | { readonly kind: 'prefix'; readonly text: string }
  | { readonly kind: 'fuzzy'; readonly text: string; readonly edits: number }
  | { readonly kind: 'phrase'; readonly text: string; readonly slop: number }
  | { readonly kind: 'group'; readonly steps: readonly Step[] };

/** One step of the construction (SimpleQueryParser.State changes, in order). */
export type Step =
  /** `+` or `|`: sets the operation for the next branch, if none is set and a query came before. */
  | { readonly kind: 'operator'; readonly occur: 'must' | 'should' }
  /** `()` or `""`: the operation set for them is dropped. */
  | { readonly kind: 'reset' }
  /** A term, prefix, fuzzy term, phrase or group, negated when `not` is odd (buildQueryTree). */
  | { readonly kind: 'branch'; readonly not: number; readonly branch: Branch };

/** `*` alone (SimpleQueryParser.parse), or the steps. */
export type SimpleAst = { readonly kind: 'all' } | { readonly kind: 'steps'; readonly steps: readonly Step[] };

/** LevenshteinAutomata.MAXIMUM_SUPPORTED_DISTANCE. */
const MAX_EDITS = 2;

class Scanner {
  private readonly guard: SyntaxGuard;
  /**
   * Where the parenthesis opened at each offset closes (-1: never), found once: Lucene scans forward
   * from each `(` for its `)`, which is quadratic when they never close (a string of 100,000 `(`).
   * The scan counts unescaped parentheses only, and no backslash run crosses a `(`, so whether a
   * character is escaped does not depend on where a scan starts: the matching is a plain stack's.
   */
  private readonly closing: Int32Array;

  constructor(
    private readonly data: string,
    private readonly flags: number,
    limits: SyntaxLimits,
  ) {
    this.guard = new SyntaxGuard(limits);
    this.closing = new Int32Array(this.has(SimpleFlag.PRECEDENCE) ? data.length : 0).fill(-1);
    if (!this.has(SimpleFlag.PRECEDENCE)) return;
    const open: number[] = [];
    for (let i = 0; i < data.length; i++) {
      const c = data[i];
      if (c === '\\' && this.has(SimpleFlag.ESCAPE)) i++;
      else if (c === '(') open.push(i);
      else if (c === ')' && open.length > 0) this.closing[open.pop() as number] = i;
    }
  }

  private has(flag: number): boolean {
    return (this.flags & flag) !== 0;
  }

  private isWhitespace(c: string): boolean {
    return (c === ' ' || c === '\t' || c === '\n' || c === '\r') && this.has(SimpleFlag.WHITESPACE);
  }

  /** SimpleQueryParser.tokenFinished. */
  private tokenFinished(c: string): boolean {
    return (
      (c === '"' && this.has(SimpleFlag.PHRASE)) ||
      (c === '|' && this.has(SimpleFlag.OR)) ||
      (c === '+' && this.has(SimpleFlag.AND)) ||
      ((c === '(' || c === ')') && this.has(SimpleFlag.PRECEDENCE)) ||
      this.isWhitespace(c)
    );
  }

  /** parseSubQuery over data[from, to). */
  steps(from: number, to: number): Step[] {
    const steps: Step[] = [];
    let index = from;
    let not = 0;
    const branch = (b: Branch) => {
      if (b.kind !== 'group') this.guard.piece();
      steps.push({ kind: 'branch', not, branch: b });
    };
    while (index < to) {
      const c = this.data[index];
      if (c === '(' && this.has(SimpleFlag.PRECEDENCE)) {
        index = this.subQuery(index, steps, branch);
      } else if (c === ')' && this.has(SimpleFlag.PRECEDENCE)) {
        index++;
      } else if (c === '"' && this.has(SimpleFlag.PHRASE)) {
        index = this.phrase(index, to, steps, branch);
      } else if ((c === '+' && this.has(SimpleFlag.AND)) || (c === '|' && this.has(SimpleFlag.OR))) {
        steps.push({ kind: 'operator', occur: c === '+' ? 'must' : 'should' });
        index++;
      } else if (c === '-' && this.has(SimpleFlag.NOT)) {
        not++;
        index++;
        continue;
      } else if (this.isWhitespace(c)) {
        index++;
      } else {
        index = this.token(index, to, branch);
      }
      not = 0;
    }
    return steps;
  }

  /**
   * Walks data[from, to) as the consume methods do: with ESCAPE, `\\` makes the next character
   * plain text (and is told to `onEscape`); `stop` sees each other character and ends the walk
   * there; `keep` gets every character that is not a stop. Returns where the walk ended.
   */
  private walk(from: number, to: number, stop: (c: string) => boolean, keep: (c: string) => void, onEscape = () => {}): number {
    let escaped = false;
    for (let index = from; index < to; index++) {
      const c = this.data[index];
      if (!escaped && c === '\\' && this.has(SimpleFlag.ESCAPE)) {
        escaped = true;
        onEscape();
        continue;
      }
      if (!escaped && stop(c)) return index;
      keep(c);
      escaped = false;
    }
    return to;
  }

  /** consumeSubQuery: a balanced `(...)`; a `(` that never closes is skipped. */
  private subQuery(open: number, steps: Step[], branch: (b: Branch) => void): number {
    const start = open + 1;
    const index = this.closing[open];
    if (index < 0) return start;
    if (index === start) {
      steps.push({ kind: 'reset' });
      return index + 1;
    }
    this.guard.enter();
    branch({ kind: 'group', steps: this.steps(start, index) });
    this.guard.leave();
    return index + 1;
  }

  /** consumePhrase: `"..."` with an optional `~N`; a `"` that never closes is skipped. */
  private phrase(open: number, to: number, steps: Step[], branch: (b: Branch) => void): number {
    const start = open + 1;
    let text = '';
    let index = this.walk(start, to, (c) => c === '"', (c) => (text += c));
    let hasSlop = false;
    if (index < to && to > index + 1 && this.data[index + 1] === '~' && this.has(SimpleFlag.NEAR)) {
      index++;
      hasSlop = to > index + 1;
    }
    if (index === to) return start;
    if (index === start) {
      steps.push({ kind: 'reset' });
      return index + 1;
    }
    let slop = 0;
    if (hasSlop) [slop, index] = this.fuzziness(index, to);
    branch({ kind: 'phrase', text, slop });
    return index + 1;
  }

  /** consumeToken: a term, `term*` (a prefix) or `term~N` (fuzzy). */
  private token(from: number, to: number, branch: (b: Branch) => void): number {
    let text = '';
    let prefix = false;
    let fuzzy = false;
    const stop = (c: string) => {
      if (this.tokenFinished(c)) return true;
      if (text.length > 0 && c === '~' && this.has(SimpleFlag.FUZZY)) return (fuzzy = true);
      prefix = text.length > 0 && c === '*' && this.has(SimpleFlag.PREFIX);
      return false;
    };
    // an escape ends a prefix: `a*\\` is the term a*
    let index = this.walk(from, to, stop, (c) => (text += c), () => (prefix = false));
    if (text.length === 0) return index;
    if (fuzzy) {
      let edits: number;
      [edits, index] = this.fuzziness(index, to);
      edits = Math.min(edits, MAX_EDITS);
      branch(edits === 0 ? { kind: 'term', text } : { kind: 'fuzzy', text, edits });
    } else if (prefix) {
      branch({ kind: 'prefix', text: text.slice(0, -1) });
    } else {
      branch({ kind: 'term', text });
    }
    return index;
  }

  /**
   * parseFuzziness at a `~`: the characters up to the end of the token as an integer; none is 2,
   * anything unreadable or negative 0. Returns it and where the scan stopped.
   */
  private fuzziness(at: number, to: number): [number, number] {
    let index = at;
    let text = '';
    if (this.data[index] !== '~') return [0, index];
    while (index < to) {
      index++;
      if (index < to) {
        if (this.tokenFinished(this.data[index])) break;
        text += this.data[index];
      }
    }
    if (text === '') return [2, index];
    // Integer.parseInt
    const value = /^[+-]?\d+$/.test(text) ? Number(text) : 0;
    return [value < 0 || value > 2147483647 ? 0 : value, index];
  }
}

/** SimpleQueryParser.parse: `*` alone matches everything; otherwise the steps of its query. */
export function parseSimple(query: string, flags: number, limits: SyntaxLimits): SimpleAst {
  // eslint-disable-next-line no-control-regex
  if (query.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '') === '*') return { kind: 'all' };
  return { kind: 'steps', steps: new Scanner(query, flags, limits).steps(0, query.length) };
}
