/**
 * `wildcard`: documents with a term matching a pattern (not analyzed): `*` any sequence, `?` one
 * character, `\` escapes. `{"wildcard": {"code": "F*"}}` or `{"wildcard": {"code": {"value": "f?",
 * "case_insensitive": true}}}` (`wildcard` is accepted in place of `value`). On keyword fields and on
 * the terms of text fields; constant-score.
 */
import { matchNone, withBoost } from '../lucene/query';
import { ClauseParser } from './context';
import { termsMatching } from './leaves';
import { parseTermPattern, stringFieldOnly } from './prefix';

/** The regular expression of a Lucene wildcard pattern (over code points). */
export function wildcardRegExp(pattern: string, caseInsensitive: boolean): RegExp {
  let source = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '*') source += '[^]*';
    else if (c === '?') source += '.';
    else if (c === '\\' && i + 1 < chars.length) source += escapeRegExp(chars[++i]);
    else source += escapeRegExp(c);
  }
  return new RegExp(`^(?:${source})$`, caseInsensitive ? 'isu' : 'su');
}

function escapeRegExp(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

export const parseWildcard: ClauseParser = (body, path) => {
  const { field, where, pattern, boost, caseInsensitive } = parseTermPattern('wildcard', ['value', 'wildcard'], body, path);
  const regexp = wildcardRegExp(pattern, caseInsensitive);
  return {
    toLucene(ctx) {
      if (!stringFieldOnly(ctx, 'wildcard', field, where)) return matchNone(`unmapped field ${field}`);
      return withBoost(termsMatching(field, `wildcard:${JSON.stringify([pattern, caseInsensitive])}`, (t) => regexp.test(t)), boost);
    },
  };
};
