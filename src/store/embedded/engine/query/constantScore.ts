/**
 * `constant_score`: the documents of a filter, all scoring the boost (1 by default),
 * `{"constant_score": {"filter": {...}, "boost": 1.5}}`.
 */
import { hasOwn } from '../json';
import { constantScore, withBoost } from '../lucene/query';
import { ClauseParser } from './context';
import { at, boostOf, checkParams, invalid, objectBody, readName } from './params';

export const parseConstantScore: ClauseParser = (body, path, ctx) => {
  const obj = objectBody('constant_score', body, path);
  checkParams('constant_score', obj, ['filter', 'boost', '_name'], path);
  if (!hasOwn(obj, 'filter')) throw invalid(`[constant_score] at ${path} requires a "filter"`);
  const filter = ctx.parseQuery(obj.filter, at(path, 'filter'));
  const boost = boostOf('constant_score', obj, path);
  readName('constant_score', obj, path);
  return { toLucene: (buildCtx) => withBoost(constantScore(filter.toLucene(buildCtx)), boost) };
};
