/**
 * `prefix`: documents with a term starting with the value (not analyzed), `{"prefix": {"code": "F"}}`
 * or `{"prefix": {"code": {"value": "f", "case_insensitive": true, "boost": 2}}}`. On keyword fields
 * and on the terms of text fields; constant-score (Elasticsearch's default constant_score rewrite).
 * The prefix is an automaton (Lucene's PrefixQuery.toAutomaton; case-insensitive as Elasticsearch's
 * AutomatonQueries.caseInsensitivePrefix) walked over the sorted term dictionary: only the terms
 * near the prefix are read.
 */
import { QueryLimitError } from '../../../port';
import { TooComplexError, compilePrefix } from '../automaton';
import { hasOwn, isPlainObject } from '../json';
import { matchNone, withBoost } from '../lucene/query';
import { toText } from '../fieldValues';
import { BuildContext, ClauseParser } from './context';
import { fieldType } from './fieldQueries';
import { termsAccepted } from './leaves';
import { at, boostOf, checkParams, invalid, readBoolean, readName, readScalar, readString, singleField } from './params';

/** The rewrites Elasticsearch accepts for multi-term queries; all but the constant-score ones are refused here. */
const CONSTANT_SCORE_REWRITES = new Set(['constant_score', 'constant_score_blended', 'constant_score_boolean']);
const OTHER_REWRITES = /^(scoring_boolean|top_terms_(boost_|blended_freqs_)?\d+)$/;

/** Parse the shared shape of prefix, wildcard and regexp: short form or an object with `value` (or the clause's own key). */
export function parseTermPattern(clause: string, valueKeys: readonly string[], body: unknown, path: string, extra: readonly string[] = []) {
  const [field, raw] = singleField(clause, body, path);
  const where = at(path, field);
  let value: unknown = raw;
  let boost = 1;
  let caseInsensitive = false;
  let valueWhere = where;
  let params: Record<string, unknown> = {};
  if (isPlainObject(raw)) {
    checkParams(clause, raw, [...valueKeys, 'boost', '_name', 'case_insensitive', 'rewrite', ...extra], where);
    const key = valueKeys.find((k) => hasOwn(raw, k));
    if (key === undefined) throw invalid(`[${clause}] at ${where} needs a ${JSON.stringify(valueKeys[0])}`);
    value = raw[key];
    valueWhere = at(where, key);
    boost = boostOf(clause, raw, where);
    readName(clause, raw, where);
    if (hasOwn(raw, 'case_insensitive')) caseInsensitive = readBoolean(clause, 'case_insensitive', raw.case_insensitive, at(where, 'case_insensitive'));
    if (hasOwn(raw, 'rewrite')) {
      const rewrite = readString(clause, 'rewrite', raw.rewrite, at(where, 'rewrite'));
      if (OTHER_REWRITES.test(rewrite)) throw invalid(`[${clause}] rewrite ${JSON.stringify(rewrite)} is not supported at ${at(where, 'rewrite')} (only constant_score, constant_score_blended and constant_score_boolean)`);
      if (!CONSTANT_SCORE_REWRITES.has(rewrite)) throw invalid(`[${clause}] unknown rewrite ${JSON.stringify(rewrite)} at ${at(where, 'rewrite')}`);
    }
    params = raw;
  }
  const pattern = toText(readScalar(clause, 'value', value, valueWhere)) as string;
  return { field, where, pattern, boost, caseInsensitive, params };
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

export const parsePrefix: ClauseParser = (body, path) => {
  const { field, where, pattern, boost, caseInsensitive } = parseTermPattern('prefix', ['value', 'prefix'], body, path);
  const automaton = compilePrefix(pattern, caseInsensitive);
  const key = `prefix:${JSON.stringify([pattern, caseInsensitive])}`;
  return {
    toLucene(ctx) {
      if (!stringFieldOnly(ctx, 'prefix', field, where)) return matchNone(`unmapped field ${field}`);
      return withBoost(termsAccepted(field, key, automaton), boost);
    },
  };
};
