/**
 * `prefix`: documents with a term starting with the value (not analyzed), `{"prefix": {"code": "F"}}`
 * or `{"prefix": {"code": {"value": "f", "case_insensitive": true, "boost": 2}}}`. On keyword fields
 * and on the terms of text fields; constant-score (Elasticsearch's default constant_score rewrite).
 */
import { hasOwn, isPlainObject } from '../json';
import { lowercaseTerm } from '../analyzer';
import { matchNone, withBoost } from '../lucene/query';
import { toText } from '../fieldValues';
import { BuildContext, ClauseParser } from './context';
import { fieldType } from './fieldQueries';
import { termsMatching } from './leaves';
import { at, boostOf, checkParams, invalid, readBoolean, readName, readScalar, readString, singleField } from './params';

/** Parse the shared shape of prefix and wildcard: short form or an object with `value` (or `key`). */
export function parseTermPattern(clause: string, valueKeys: readonly string[], body: unknown, path: string) {
  const [field, raw] = singleField(clause, body, path);
  const where = at(path, field);
  let value: unknown = raw;
  let boost = 1;
  let caseInsensitive = false;
  let valueWhere = where;
  if (isPlainObject(raw)) {
    checkParams(clause, raw, [...valueKeys, 'boost', '_name', 'case_insensitive', 'rewrite'], where);
    const key = valueKeys.find((k) => hasOwn(raw, k));
    if (key === undefined) throw invalid(`[${clause}] at ${where} needs a ${JSON.stringify(valueKeys[0])}`);
    value = raw[key];
    valueWhere = at(where, key);
    boost = boostOf(clause, raw, where);
    readName(clause, raw, where);
    if (hasOwn(raw, 'case_insensitive')) caseInsensitive = readBoolean(clause, 'case_insensitive', raw.case_insensitive, at(where, 'case_insensitive'));
    if (hasOwn(raw, 'rewrite')) readString(clause, 'rewrite', raw.rewrite, at(where, 'rewrite'));
  }
  const pattern = toText(readScalar(clause, 'value', value, valueWhere)) as string;
  return { field, where, pattern, boost, caseInsensitive };
}

/** Prefix and wildcard only apply to string fields. */
export function stringFieldOnly(ctx: BuildContext, clause: string, field: string, where: string): boolean {
  const type = fieldType(ctx, field);
  if (type === undefined) return false;
  if (type !== 'keyword' && type !== 'text') throw invalid(`can only use ${clause} queries on keyword and text fields, not on ${JSON.stringify(field)} of type [${type === 'id' ? '_id' : type}] (at ${where})`);
  return true;
}

export const parsePrefix: ClauseParser = (body, path) => {
  const { field, where, pattern, boost, caseInsensitive } = parseTermPattern('prefix', ['value', 'prefix'], body, path);
  const lowered = lowercaseTerm(pattern);
  return {
    toLucene(ctx) {
      if (!stringFieldOnly(ctx, 'prefix', field, where)) return matchNone(`unmapped field ${field}`);
      const query = caseInsensitive
        ? termsMatching(field, `prefixCI:${JSON.stringify(lowered)}`, (t) => lowercaseTerm(t).startsWith(lowered))
        : termsMatching(field, `prefix:${JSON.stringify(pattern)}`, (t) => t.startsWith(pattern));
      return withBoost(query, boost);
    },
  };
};
