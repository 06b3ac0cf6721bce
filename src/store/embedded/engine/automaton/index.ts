/**
 * Automata for pattern queries (regexp, wildcard, prefix, case-insensitive term), compiled once
 * into a DFA and intersected with a sorted term dictionary, as Lucene does. See README.md.
 */
export { DEFAULT_DETERMINIZE_WORK_LIMIT, TooComplexError } from './budget';
export { CHECKPOINT_INTERVAL, intersectSorted } from './intersect';
export type { SortedTerms, WalkStop } from './intersect';
export { compileCaseInsensitiveTerm, compilePrefix, compileRegexp, compileRegexpSteps, compileWildcard, compileWildcardSteps } from './patterns';
export type { RegexpCompileOptions } from './patterns';
export { parseRegexpFlags, RegexpFlag, RegexpFlagError } from './regexpFlags';
export { parseRegexp, RegexpSyntaxError } from './regexpParser';
export type { RegexpNode, RegexpParseOptions } from './regexpParser';
export { RunAutomaton } from './runAutomaton';
export type { PatternKind } from './runAutomaton';
