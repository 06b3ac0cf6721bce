/**
 * `prefix`: documents with a term starting with the value (not analyzed), `{"prefix": {"code": "F"}}`
 * or `{"prefix": {"code": {"value": "f", "case_insensitive": true, "boost": 2}}}`. On keyword fields
 * and on the terms of text fields; constant-score (Elasticsearch's default constant_score rewrite;
 * `rewrite` may ask for the others: leaves.ts PatternRewrite).
 * The prefix is an automaton (Lucene's PrefixQuery.toAutomaton; case-insensitive as Elasticsearch's
 * AutomatonQueries.caseInsensitivePrefix) walked over the sorted term dictionary: only the terms
 * near the prefix are read.
 */
import { QueryLimitError } from '../../../port';
import { RunAutomaton, TooComplexError, compilePrefix } from '../automaton';
import { hasOwn, isPlainObject } from '../json';
import { LQuery, matchNone, withBoost } from '../lucene/query';
import { toText } from '../fieldValues';
import { BuildContext, ClauseParser } from './context';
import { fieldType } from './fieldQueries';
import { CONSTANT_SCORE, PatternRewrite, termsAccepted } from './leaves';
import { LazyAutomaton, atOnce, lazyAutomaton } from './patternCache';
import { Budget, Steps } from '../budget/budget';
import { at, boostOf, checkParams, invalid, readBoolean, readName, readScalar, readString, singleField } from './params';

/** Elasticsearch's `rewrite` values (QueryParsers.parseRewriteMethod), as PatternRewrite (leaves.ts). */
export function parseRewrite(clause: string, value: string, where: string): PatternRewrite {
  if (value === 'constant_score' || value === 'constant_score_blended') return CONSTANT_SCORE;
  if (value === 'constant_score_boolean' || value === 'scoring_boolean') return { kind: value };
  const top = /^top_terms_(boost_|blended_freqs_)?(\d+)$/.exec(value);
  if (top !== null) {
    const size = Number(top[2]);
    if (!Number.isSafeInteger(size) || size < 1) throw invalid(`[${clause}] rewrite ${JSON.stringify(value)} at ${where} needs a size of at least 1`);
    if (top[1] === 'blended_freqs_') return { kind: 'top_terms_blended', size };
    return { kind: 'top_terms', size, boostOnly: top[1] === 'boost_' };
  }
  throw invalid(`[${clause}] unknown rewrite ${JSON.stringify(value)} at ${where} (constant_score, constant_score_blended, constant_score_boolean, scoring_boolean, top_terms_N, top_terms_boost_N, top_terms_blended_freqs_N)`);
}

/** Parse the shared shape of prefix, wildcard and regexp: short form or an object with `value` (or the clause's own key). */
export function parseTermPattern(clause: string, valueKeys: readonly string[], body: unknown, path: string, extra: readonly string[] = []) {
  const [field, raw] = singleField(clause, body, path);
  const where = at(path, field);
  let value: unknown = raw;
  let boost = 1;
  let caseInsensitive = false;
  let valueWhere = where;
  let params: Record<string, unknown> = {};
  let rewrite: PatternRewrite = CONSTANT_SCORE;
  if (isPlainObject(raw)) {
    checkParams(clause, raw, [...valueKeys, 'boost', '_name', 'case_insensitive', 'rewrite', ...extra], where);
    const key = valueKeys.find((k) => hasOwn(raw, k));
    if (key === undefined) throw invalid(`[${clause}] at ${where} needs a ${JSON.stringify(valueKeys[0])}`);
    value = raw[key];
    valueWhere = at(where, key);
    boost = boostOf(clause, raw, where);
    readName(clause, raw, where);
    if (hasOwn(raw, 'case_insensitive')) caseInsensitive = readBoolean(clause, 'case_insensitive', raw.case_insensitive, at(where, 'case_insensitive'));
    if (hasOwn(raw, 'rewrite')) rewrite = parseRewrite(clause, readString(clause, 'rewrite', raw.rewrite, at(where, 'rewrite')), at(where, 'rewrite'));
    params = raw;
  }
  const pattern = toText(readScalar(clause, 'value', value, valueWhere)) as string;
  return { field, where, pattern, boost, caseInsensitive, params, rewrite };
}

/** Prefix, wildcard and regexp only apply to string fields. */
export function stringFieldOnly(ctx: BuildContext, clause: string, field: string, where: string): boolean {
  const type = fieldType(ctx, field);
  if (type === undefined) return false;
  if (type !== 'keyword' && type !== 'text') throw invalid(`can only use ${clause} queries on keyword and text fields, not on ${JSON.stringify(field)} of type [${type === 'id' ? '_id' : type}] (at ${where})`);
  return true;
}

/** A pattern too complex to determinize, as its catalogue error. */
export function tooComplex(err: unknown): unknown {
  return err instanceof TooComplexError ? new QueryLimitError('too_complex_to_determinize', { pattern: err.pattern, limit: err.limit }, err.message) : err;
}

/** A pattern compiled lazily within the search's budget (patternCache.ts), too complex as its catalogue error. */
export function lazyPattern(key: string, compile: (budget: Budget) => Steps<RunAutomaton>): LazyAutomaton {
  return lazyAutomaton(key, function* (budget) {
    try {
      return yield* compile(budget);
    } catch (err) {
      throw tooComplex(err);
    }
  });
}

/** The terms of a field starting with `pattern` (PrefixQuery), rewritten as `rewrite` says. */
export function prefixLeaf(field: string, pattern: string, caseInsensitive: boolean, rewrite: PatternRewrite, maxClauseCount: number): LQuery {
  const key = `prefix:${JSON.stringify([pattern, caseInsensitive])}`;
  const automaton = lazyAutomaton(key, () => atOnce(() => compilePrefix(pattern, caseInsensitive)));
  return termsAccepted(field, key, automaton, rewrite, maxClauseCount);
}

export const parsePrefix: ClauseParser = (body, path) => {
  const { field, where, pattern, boost, caseInsensitive, rewrite } = parseTermPattern('prefix', ['value', 'prefix'], body, path);
  return {
    toLucene(ctx) {
      if (!stringFieldOnly(ctx, 'prefix', field, where)) return matchNone(`unmapped field ${field}`);
      // StringFieldType.prefixQuery: indexedValueForSearch, a keyword field's normalizer applied
      return withBoost(prefixLeaf(field, ctx.mapping.normalizeKeyword(field, pattern), caseInsensitive, rewrite, ctx.limits.maxClauseCount), boost);
    },
  };
};
