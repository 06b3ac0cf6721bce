/**
 * Compiles the patterns of Elasticsearch 8's term-level queries into RunAutomata:
 * - `regexp`: Lucene 9 RegExp (see regexpParser.ts) as RegexpQueryBuilder calls it: syntax flags
 *   from `flags` (RegexpFlag.resolveValue), `case_insensitive` as RegExp.ASCII_CASE_INSENSITIVE,
 *   `max_determinized_states` as the determinize work limit;
 * - `wildcard`: Lucene's WildcardQuery.toAutomaton (`*`, `?`, `\` escapes, a trailing `\` taken
 *   literally), case-insensitive as Elasticsearch's AutomatonQueries.toCaseInsensitiveWildcardAutomaton
 *   (ASCII letters only; an escaped character stays case-sensitive);
 * - `prefix`: PrefixQuery.toAutomaton, case-insensitive as AutomatonQueries.caseInsensitivePrefix;
 * - a case-insensitive `term`: AutomatonQueries.toCaseInsensitiveString.
 * An empty wildcard, or an empty case-insensitive term, matches nothing: Lucene's
 * Operations.concatenate of no automata gives one that accepts nothing.
 */
import { DEFAULT_DETERMINIZE_WORK_LIMIT, TooComplexError, WorkBudget } from './budget';
import { buildDfa, buildDfaSteps } from './build';
import { Budget, Steps } from '../budget/budget';
import { ANY_CHAR, charCount, charSet, codePointAt } from './codePoints';
import { parseRegexpFlags, RegexpFlag } from './regexpFlags';
import { parseRegexp, RegexpNode } from './regexpParser';
import { PatternKind, RunAutomaton } from './runAutomaton';

export interface RegexpCompileOptions {
  /** RegexpFlag bits, or Elasticsearch's `flags` string; default ALL. */
  readonly flags?: number | string;
  readonly caseInsensitive?: boolean;
  /** Elasticsearch's `max_determinized_states` (a work limit); default 10,000. */
  readonly maxDeterminizedStates?: number;
}

/**
 * Throws RegexpSyntaxError, RegexpFlagError (an unknown flag name) or TooComplexError (also for
 * groups nested deeper than the JavaScript stack allows, some thousands of levels).
 */
export function compileRegexp(pattern: string, options: RegexpCompileOptions = {}): RunAutomaton {
  const flags = typeof options.flags === 'string' ? parseRegexpFlags(options.flags) : (options.flags ?? RegexpFlag.ALL);
  const workLimit = options.maxDeterminizedStates ?? DEFAULT_DETERMINIZE_WORK_LIMIT;
  try {
    return compile(parseRegexp(pattern, { flags, caseInsensitive: options.caseInsensitive }), 'regexp', pattern, workLimit);
  } catch (error) {
    if (error instanceof RangeError) throw new TooComplexError(pattern, workLimit); // stack overflow
    throw error;
  }
}

/** Throws TooComplexError. */
export function compileWildcard(
  pattern: string,
  caseInsensitive = false,
  maxDeterminizedStates: number = DEFAULT_DETERMINIZE_WORK_LIMIT,
): RunAutomaton {
  return compile(wildcardAst(pattern, caseInsensitive), 'wildcard', pattern, maxDeterminizedStates);
}

function wildcardAst(pattern: string, caseInsensitive: boolean): RegexpNode {
  const items: RegexpNode[] = [];
  for (let i = 0; i < pattern.length; ) {
    const c = codePointAt(pattern, i);
    i += charCount(c);
    if (c === 0x2a /* * */) items.push({ type: 'anyString' });
    else if (c === 0x3f /* ? */) items.push({ type: 'chars', ranges: ANY_CHAR });
    else if (c === 0x5c /* \ */ && i < pattern.length) {
      const escaped = codePointAt(pattern, i);
      i += charCount(escaped);
      items.push({ type: 'chars', ranges: charSet(escaped, false) });
    } else items.push({ type: 'chars', ranges: charSet(c, caseInsensitive) });
  }
  return concatenate(items);
}

/** Terms starting with `prefix`. Linear in the prefix: no limit applies. */
export function compilePrefix(prefix: string, caseInsensitive = false): RunAutomaton {
  return compile({ type: 'concat', items: [...literal(prefix, caseInsensitive), { type: 'anyString' }] }, 'prefix', prefix, Infinity);
}

/** The term itself, ASCII letters in either case. */
export function compileCaseInsensitiveTerm(term: string): RunAutomaton {
  return compile(concatenate(literal(term, true)), 'term', term, Infinity);
}

/** Lucene's Operations.concatenate: of no automata at all, it gives one that matches nothing. */
function concatenate(items: RegexpNode[]): RegexpNode {
  return items.length === 0 ? { type: 'emptyLanguage' } : { type: 'concat', items };
}

function literal(text: string, caseInsensitive: boolean): RegexpNode[] {
  const items: RegexpNode[] = [];
  for (let i = 0; i < text.length; ) {
    const c = codePointAt(text, i);
    i += charCount(c);
    items.push({ type: 'chars', ranges: charSet(c, caseInsensitive) });
  }
  return items;
}

function compile(ast: RegexpNode, kind: PatternKind, source: string, workLimit: number): RunAutomaton {
  return new RunAutomaton(buildDfa(ast, new WorkBudget(source, workLimit)), kind, source);
}

function* compileSteps(ast: RegexpNode, kind: PatternKind, source: string, workLimit: number, time: Budget): Steps<RunAutomaton> {
  return new RunAutomaton(yield* buildDfaSteps(ast, new WorkBudget(source, workLimit), time), kind, source);
}

/** compileRegexp within a search's time budget: its determinization pauses between slices. */
export function compileRegexpSteps(pattern: string, options: RegexpCompileOptions, time: Budget): Steps<RunAutomaton> {
  const flags = typeof options.flags === 'string' ? parseRegexpFlags(options.flags) : (options.flags ?? RegexpFlag.ALL);
  const ast = parseRegexp(pattern, { flags, caseInsensitive: options.caseInsensitive });
  return compileSteps(ast, 'regexp', pattern, options.maxDeterminizedStates ?? DEFAULT_DETERMINIZE_WORK_LIMIT, time);
}

/** compileWildcard within a search's time budget. */
export function compileWildcardSteps(pattern: string, caseInsensitive: boolean, maxDeterminizedStates: number, time: Budget): Steps<RunAutomaton> {
  return compileSteps(wildcardAst(pattern, caseInsensitive), 'wildcard', pattern, maxDeterminizedStates, time);
}
