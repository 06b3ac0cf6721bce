/**
 * `regexp`: documents with a term matching a regular expression in Lucene's syntax (anchored: the
 * whole term must match), as Elasticsearch 8's RegexpQueryBuilder runs it:
 * `{"regexp": {"name.keyword": "fr.*"}}` or `{"regexp": {"name": {"value": "fr[a-z]+", "flags":
 * "ALL", "case_insensitive": true, "max_determinized_states": 10000, "rewrite": "constant_score",
 * "boost": 2}}}`. `flags`: `ALL` (default), `NONE`, or `|`-separated `INTERSECTION`, `COMPLEMENT`,
 * `EMPTY`, `ANYSTRING`, `INTERVAL` (`flags_value`, their bits, is accepted too). `case_insensitive`
 * folds ASCII letters (Lucene's RegExp.ASCII_CASE_INSENSITIVE).
 *
 * Limits: the pattern is at most MAX_REGEX_LENGTH characters (index.max_regex_length,
 * regex_too_long); determinizing it may take at most `max_determinized_states` effort (default and
 * ceiling MAX_DETERMINIZED_STATES; too_complex_to_determinize). Compiled once into a DFA and walked
 * over the sorted term dictionary; constant-score. On keyword fields and the terms of text fields.
 */
import { QueryLimitError } from '../../../port';
import { RegexpCompileOptions, RegexpFlagError, RegexpSyntaxError, compileRegexpSteps, parseRegexp as parseRegexpSyntax, parseRegexpFlags } from '../automaton';
import { hasOwn } from '../json';
import { LQuery, matchNone, withBoost } from '../lucene/query';
import { ClauseParser } from './context';
import { PatternRewrite, termsAccepted } from './leaves';
import { at, invalid, readString } from './params';
import { lazyPattern, parseTermPattern, stringFieldOnly } from './prefix';

export const parseRegexp: ClauseParser = (body, path, ctx) => {
  const { field, where, pattern, boost, caseInsensitive, params, rewrite } = parseTermPattern('regexp', ['value', 'regexp'], body, path, ['flags', 'flags_value', 'max_determinized_states']);
  const { maxRegexLength, maxDeterminizedStates } = ctx.limits;
  let flags: string | number = 'ALL';
  if (hasOwn(params, 'flags')) flags = readString('regexp', 'flags', params.flags, at(where, 'flags'));
  if (hasOwn(params, 'flags_value')) {
    const value = params.flags_value;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(`[regexp] "flags_value" at ${at(where, 'flags_value')} must be an integer`);
    flags = value;
  }
  let workLimit = maxDeterminizedStates;
  if (hasOwn(params, 'max_determinized_states')) {
    const value = params.max_determinized_states;
    const at_ = at(where, 'max_determinized_states');
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalid(`[regexp] "max_determinized_states" at ${at_} must be a positive integer`);
    if (value > maxDeterminizedStates) throw invalid(`[regexp] "max_determinized_states" at ${at_} may not exceed ${maxDeterminizedStates} (MAX_DETERMINIZED_STATES)`);
    workLimit = value;
  }
  // RegexpQueryBuilder.doToQuery: index.max_regex_length, in UTF-16 characters as Java counts them
  if (pattern.length > maxRegexLength) {
    throw new QueryLimitError('regex_too_long', { length: pattern.length, clause: 'Regexp', limit: maxRegexLength }, `The length of regex [${pattern.length}] used in the Regexp Query request has exceeded the allowed maximum of [${maxRegexLength}]`);
  }
  // the syntax and the flags are checked now (a 400 before anything runs); the automaton is built
  // when the search first evaluates the clause (patternCache.ts), where its budget is checked
  let flagBits: number;
  try {
    flagBits = typeof flags === 'string' ? parseRegexpFlags(flags) : flags;
  } catch (err) {
    if (err instanceof RegexpFlagError) throw invalid(`[regexp] ${err.message} (in ${JSON.stringify(pattern)} at ${where})`);
    throw err;
  }
  checkSyntax(pattern, flagBits, caseInsensitive, where);
  return {
    toLucene(build) {
      if (!stringFieldOnly(build, 'regexp', field, where)) return matchNone(`unmapped field ${field}`);
      // StringFieldType.regexpQuery: the pattern is indexedValueForSearch, a keyword field's normalizer applied to all of it
      const normalized = build.mapping.normalizeKeyword(field, pattern);
      if (normalized !== pattern) checkSyntax(normalized, flagBits, caseInsensitive, where);
      return withBoost(regexpLeaf(field, normalized, { flags: flagBits, caseInsensitive, maxDeterminizedStates: workLimit }, rewrite, build.limits.maxClauseCount), boost);
    },
  };
};

/** A 400 when the pattern is no regular expression of Lucene's syntax with these flags. */
function checkSyntax(pattern: string, flags: number, caseInsensitive: boolean, where: string): void {
  try {
    parseRegexpSyntax(pattern, { flags, caseInsensitive });
  } catch (err) {
    if (err instanceof RegexpSyntaxError) throw invalid(`[regexp] ${err.message} (in ${JSON.stringify(pattern)} at ${where})`);
    throw err;
  }
}

/** The terms of a field matching a regular expression whose syntax was checked (RegexpQuery), rewritten as `rewrite` says. */
export function regexpLeaf(field: string, pattern: string, options: RegexpCompileOptions, rewrite: PatternRewrite, maxClauseCount: number): LQuery {
  const key = `regexp:${JSON.stringify([pattern, options.flags, options.caseInsensitive])}`;
  const automaton = lazyPattern(`${key}:${options.maxDeterminizedStates}`, (budget) => compileRegexpSteps(pattern, options, budget));
  return termsAccepted(field, key, automaton, rewrite, maxClauseCount);
}
