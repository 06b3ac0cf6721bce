/**
 * `term`: documents whose field holds exactly the value (not analyzed). Short form
 * `{"term": {"code": "FR"}}`, long form `{"term": {"code": {"value": "FR", "boost": 2,
 * "case_insensitive": true}}}`. Scored with BM25 on text, keyword and boolean fields (a
 * case-insensitive term is constant-score, as in Elasticsearch), constant-score on numbers and dates.
 */
import { hasOwn, isPlainObject } from '../json';
import { withBoost } from '../lucene/query';
import { ClauseParser } from './context';
import { exactQuery } from './fieldQueries';
import { at, boostOf, checkParams, invalid, readBoolean, readName, readScalar, singleField } from './params';

export const parseTerm: ClauseParser = (body, path) => {
  const [field, raw] = singleField('term', body, path);
  const where = at(path, field);
  let value: unknown = raw;
  let boost = 1;
  let caseInsensitive = false;
  if (isPlainObject(raw)) {
    checkParams('term', raw, ['value', 'boost', '_name', 'case_insensitive'], where);
    if (!hasOwn(raw, 'value')) throw invalid(`[term] at ${where} needs a "value"`);
    value = raw.value;
    boost = boostOf('term', raw, where);
    readName('term', raw, where);
    if (hasOwn(raw, 'case_insensitive')) caseInsensitive = readBoolean('term', 'case_insensitive', raw.case_insensitive, at(where, 'case_insensitive'));
  }
  const term = readScalar('term', 'value', value, isPlainObject(raw) ? at(where, 'value') : where);
  return { toLucene: (ctx) => withBoost(exactQuery(ctx, field, term, where, caseInsensitive), boost) };
};
