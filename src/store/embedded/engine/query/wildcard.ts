/**
 * `wildcard`: documents with a term matching a pattern (not analyzed): `*` any sequence, `?` one
 * character, `\\` escapes. `{"wildcard": {"code": "F*"}}` or `{"wildcard": {"code": {"value": "f?",
 * "case_insensitive": true}}}` (`wildcard` is accepted in place of `value`). On keyword fields and on
 * the terms of text fields; constant-score. Compiled once into a DFA (Lucene's
 * WildcardQuery.toAutomaton) and walked over the sorted term dictionary: no backtracking, whatever
 * the stars (a pattern whose DFA would exceed MAX_DETERMINIZED_STATES' effort is refused). On a keyword
 * field with `normalizer: lowercase` the pattern's text is lower-cased (not its escaped characters).
 */
import { lowerCase } from '../analysis/lowerCase';
import { compileWildcardSteps } from '../automaton';
import { LQuery, matchNone, withBoost } from '../lucene/query';
import { QueryLimits } from '../limits';
import { ClauseParser } from './context';
import { PatternRewrite, termsAccepted } from './leaves';
import { lazyPattern, parseTermPattern, stringFieldOnly } from './prefix';

/**
 * StringFieldType.normalizeWildcardPattern: the pattern's text normalized by the field's search
 * analyzer (lower-cased, by a text field's standard analyzer or a keyword field's `lowercase`
 * normalizer), its wildcards and escaped characters as written.
 */
export function normalizeWildcardPattern(pattern: string, normalize: (text: string) => string = lowerCase): string {
  return pattern.replace(/(\\.)|([?*]+)|([^\\?*]+)/gs, (all, escaped, wildcards) => (escaped !== undefined || wildcards !== undefined ? all : normalize(all)));
}

/** The terms of a field matching a wildcard pattern (WildcardQuery), rewritten as `rewrite` says. */
export function wildcardLeaf(field: string, pattern: string, caseInsensitive: boolean, rewrite: PatternRewrite, limits: QueryLimits): LQuery {
  const key = `wildcard:${JSON.stringify([pattern, caseInsensitive])}`;
  const { maxDeterminizedStates } = limits;
  const automaton = lazyPattern(`${key}:${maxDeterminizedStates}`, (budget) => compileWildcardSteps(pattern, caseInsensitive, maxDeterminizedStates, budget));
  return termsAccepted(field, key, automaton, rewrite, limits.maxClauseCount);
}

export const parseWildcard: ClauseParser = (body, path) => {
  const { field, where, pattern, boost, caseInsensitive, rewrite } = parseTermPattern('wildcard', ['value', 'wildcard'], body, path);
  return {
    toLucene(build) {
      if (!stringFieldOnly(build, 'wildcard', field, where)) return matchNone(`unmapped field ${field}`);
      // KeywordFieldType.wildcardQuery: a keyword field's normalizer applies to the pattern's text
      const normalized = build.mapping.isLowercased(field) ? normalizeWildcardPattern(pattern) : pattern;
      return withBoost(wildcardLeaf(field, normalized, caseInsensitive, rewrite, build.limits), boost);
    },
  };
};
