/**
 * `wildcard`: documents with a term matching a pattern (not analyzed): `*` any sequence, `?` one
 * character, `\\` escapes. `{"wildcard": {"code": "F*"}}` or `{"wildcard": {"code": {"value": "f?",
 * "case_insensitive": true}}}` (`wildcard` is accepted in place of `value`). On keyword fields and on
 * the terms of text fields; constant-score. Compiled once into a DFA (Lucene's
 * WildcardQuery.toAutomaton) and walked over the sorted term dictionary: no backtracking, whatever
 * the stars (a pattern whose DFA would exceed MAX_DETERMINIZED_STATES' effort is refused).
 */
import { compileWildcardSteps } from '../automaton';
import { matchNone, withBoost } from '../lucene/query';
import { ClauseParser } from './context';
import { termsAccepted } from './leaves';
import { lazyPattern, parseTermPattern, stringFieldOnly } from './prefix';

export const parseWildcard: ClauseParser = (body, path, ctx) => {
  const { field, where, pattern, boost, caseInsensitive, rewrite } = parseTermPattern('wildcard', ['value', 'wildcard'], body, path);
  const key = `wildcard:${JSON.stringify([pattern, caseInsensitive])}`;
  const { maxDeterminizedStates } = ctx.limits;
  const automaton = lazyPattern(`${key}:${maxDeterminizedStates}`, (budget) => compileWildcardSteps(pattern, caseInsensitive, maxDeterminizedStates, budget));
  return {
    toLucene(build) {
      if (!stringFieldOnly(build, 'wildcard', field, where)) return matchNone(`unmapped field ${field}`);
      return withBoost(termsAccepted(field, key, automaton, rewrite, build.limits.maxClauseCount), boost);
    },
  };
};
