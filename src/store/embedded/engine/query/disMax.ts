/**
 * `dis_max`: the best of several queries, plus tie_breaker times the others' scores,
 * `{"dis_max": {"queries": [...], "tie_breaker": 0.3}}` (Lucene's DisjunctionMaxQuery: the sum of
 * the others is taken in double, then rounded to float with the max).
 */
import { describe, hasOwn, isPlainObject } from '../json';
import { disMax, withBoost } from '../lucene/query';
import { ClauseParser, ParsedQuery } from './context';
import { at, boostOf, checkParams, invalid, objectBody, readName, readNumber } from './params';

export const parseDisMax: ClauseParser = (body, path, ctx) => {
  const obj = objectBody('dis_max', body, path);
  checkParams('dis_max', obj, ['queries', 'tie_breaker', 'boost', '_name'], path);
  const where = at(path, 'queries');
  const raw = obj.queries;
  let queries: ParsedQuery[];
  if (Array.isArray(raw)) queries = raw.map((q, i) => ctx.parseQuery(q, `${where}[${i}]`));
  else if (isPlainObject(raw)) queries = [ctx.parseQuery(raw, where)];
  else throw invalid(`[dis_max] requires "queries" (a query or an array of queries) at ${where}, got ${describe(raw)}`);
  if (queries.length === 0) throw invalid(`[dis_max] requires at least one query in "queries" at ${where}`);
  let tieBreaker = 0;
  if (hasOwn(obj, 'tie_breaker')) {
    tieBreaker = readNumber('dis_max', 'tie_breaker', obj.tie_breaker, at(path, 'tie_breaker'));
    if (tieBreaker < 0 || tieBreaker > 1) throw invalid(`[dis_max] tie_breaker at ${at(path, 'tie_breaker')} must be in [0, 1]`);
  }
  const boost = boostOf('dis_max', obj, path);
  readName('dis_max', obj, path);
  return { toLucene: (buildCtx) => withBoost(disMax(queries.map((q) => q.toLucene(buildCtx)), tieBreaker), boost) };
};
