/**
 * `boosting` (Elasticsearch's BoostingQueryBuilder, Lucene's FunctionScoreQuery.boostByQuery): the
 * documents of `positive`, those also matching `negative` with their score multiplied by
 * `negative_boost`, `{"boosting": {"positive": {...}, "negative": {...}, "negative_boost": 0.5}}`.
 */
import { hasOwn } from '../json';
import { FLOAT_MAX, FunctionScoreQuery, withBoost } from '../lucene/query';
import { ClauseParser } from './context';
import { at, boostOf, checkParams, invalid, objectBody, readName, readNumber } from './params';

export const parseBoosting: ClauseParser = (body, path, ctx) => {
  const obj = objectBody('boosting', body, path);
  checkParams('boosting', obj, ['positive', 'negative', 'negative_boost', 'boost', '_name'], path);
  if (!hasOwn(obj, 'positive')) throw invalid(`[boosting] at ${path} requires a "positive" query`);
  if (!hasOwn(obj, 'negative')) throw invalid(`[boosting] at ${path} requires a "negative" query`);
  if (!hasOwn(obj, 'negative_boost')) throw invalid(`[boosting] at ${path} requires a "negative_boost"`);
  const positive = ctx.parseQuery(obj.positive, at(path, 'positive'));
  const negative = ctx.parseQuery(obj.negative, at(path, 'negative'));
  const negativeBoost = Math.fround(readNumber('boosting', 'negative_boost', obj.negative_boost, at(path, 'negative_boost')));
  if (negativeBoost < 0) throw invalid(`[boosting] "negative_boost" at ${at(path, 'negative_boost')} must be a non-negative number, got ${negativeBoost}`);
  const boost = boostOf('boosting', obj, path);
  readName('boosting', obj, path);
  return {
    toLucene: (buildCtx) => {
      const node: FunctionScoreQuery = {
        type: 'functionScore',
        query: positive.toLucene(buildCtx),
        functions: [{ filter: negative.toLucene(buildCtx), weight: 1, key: `boost${negativeBoost}`, text: `boost by ${negativeBoost}`, bind: () => () => negativeBoost }],
        scoreMode: 'first',
        boostMode: 'multiply',
        maxBoost: FLOAT_MAX,
        minScore: null,
        boostOutside: true,
      };
      return withBoost(node, boost);
    },
  };
};
