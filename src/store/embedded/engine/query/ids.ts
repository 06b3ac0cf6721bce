/**
 * `ids`: documents by `_id`, `{"ids": {"values": ["a", "b"]}}`. Constant-score.
 */
import { describe, hasOwn } from '../json';
import { withBoost } from '../lucene/query';
import { toText } from '../fieldValues';
import { ClauseParser } from './context';
import { idsIn } from './leaves';
import { at, boostOf, checkParams, invalid, objectBody, readName } from './params';

export const parseIds: ClauseParser = (body, path) => {
  const obj = objectBody('ids', body, path);
  checkParams('ids', obj, ['values', 'boost', '_name'], path);
  if (!hasOwn(obj, 'values')) throw invalid(`[ids] at ${path} needs "values"`);
  const raw = obj.values;
  if (!Array.isArray(raw)) throw invalid(`[ids] "values" at ${at(path, 'values')} must be an array, got ${describe(raw)}`);
  const ids = raw.map((v, i) => {
    const id = typeof v === 'string' || typeof v === 'number' ? toText(v) : null;
    if (id === null) throw invalid(`[ids] value at ${at(path, 'values')}[${i}] must be a string, got ${describe(v)}`);
    return id;
  });
  const boost = boostOf('ids', obj, path);
  readName('ids', obj, path);
  return { toLucene: () => withBoost(idsIn(ids), boost) };
};
