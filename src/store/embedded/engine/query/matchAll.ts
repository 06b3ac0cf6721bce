/**
 * `match_all` (every document, scoring its boost, 1 by default) and `match_none` (nothing).
 */
import { MATCH_ALL, matchNone, withBoost } from '../lucene/query';
import { ClauseParser } from './context';
import { boostOf, checkParams, objectBody, readName } from './params';

export const parseMatchAll: ClauseParser = (body, path) => {
  const obj = objectBody('match_all', body, path);
  checkParams('match_all', obj, ['boost', '_name'], path);
  readName('match_all', obj, path);
  const boost = boostOf('match_all', obj, path);
  return { toLucene: () => withBoost(MATCH_ALL, boost) };
};

export const parseMatchNone: ClauseParser = (body, path) => {
  const obj = objectBody('match_none', body, path);
  checkParams('match_none', obj, ['boost', '_name'], path);
  readName('match_none', obj, path);
  boostOf('match_none', obj, path);
  return { toLucene: () => matchNone('match_none') };
};
