/**
 * `bool`: `must` and `should` clauses score (their scores add), `filter` and `must_not` do not.
 * Each occur takes one clause object or an array of them. Built as BoolQueryBuilder.doToQuery:
 * clauses in the order must, must_not, should, filter; no clause at all is `match_all` (score: the
 * boost); only `must_not` clauses get a match-all FILTER (so the query scores 0);
 * minimum_should_match counts the SHOULD clauses. Without `must` or `filter`, one SHOULD clause must
 * match; with them, SHOULD clauses are optional unless minimum_should_match says otherwise.
 */
import { describe, hasOwn, isPlainObject } from '../json';
import { Clause, MATCH_ALL, Occur, booleanQuery, withBoost } from '../lucene/query';
import { ClauseParser, ParsedQuery } from './context';
import { applyMinimumShouldMatch, readMinimumShouldMatch } from './minimumShouldMatch';
import { at, boostOf, checkParams, invalid, objectBody, readBoolean, readName } from './params';

const OCCURS: readonly [string, Occur][] = [
  ['must', 'must'],
  ['must_not', 'must_not'],
  ['should', 'should'],
  ['filter', 'filter'],
];

export const parseBool: ClauseParser = (body, path, ctx) => {
  const obj = objectBody('bool', body, path);
  checkParams('bool', obj, ['must', 'should', 'filter', 'must_not', 'minimum_should_match', 'boost', '_name', 'adjust_pure_negative'], path);
  const parsed: { occur: Occur; query: ParsedQuery }[] = [];
  for (const [key, occur] of OCCURS) {
    if (!hasOwn(obj, key)) continue;
    const value = obj[key];
    const where = at(path, key);
    if (Array.isArray(value)) {
      value.forEach((clause, i) => parsed.push({ occur, query: ctx.parseQuery(clause, `${where}[${i}]`) }));
    } else if (isPlainObject(value)) {
      parsed.push({ occur, query: ctx.parseQuery(value, where) });
    } else {
      throw invalid(`[bool] ${JSON.stringify(key)} at ${where} must be a query object or an array of them, got ${describe(value)}`);
    }
  }
  const msm = hasOwn(obj, 'minimum_should_match') ? readMinimumShouldMatch('bool', obj.minimum_should_match, at(path, 'minimum_should_match')) : null;
  const adjustPureNegative = hasOwn(obj, 'adjust_pure_negative') ? readBoolean('bool', 'adjust_pure_negative', obj.adjust_pure_negative, at(path, 'adjust_pure_negative')) : true;
  const boost = boostOf('bool', obj, path);
  readName('bool', obj, path);
  return {
    toLucene(buildCtx) {
      if (parsed.length === 0) return withBoost(MATCH_ALL, boost);
      const clauses: Clause[] = parsed.map(({ occur, query }) => ({ occur, query: query.toLucene(buildCtx) }));
      let query = applyMinimumShouldMatch(booleanQuery(clauses), msm);
      if (adjustPureNegative && clauses.every((c) => c.occur === 'must_not')) {
        query = booleanQuery([...query.clauses, { occur: 'filter', query: MATCH_ALL }], query.minimumShouldMatch);
      }
      return withBoost(query, boost);
    },
  };
};
