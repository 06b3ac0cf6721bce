/**
 * `nested` (Elasticsearch's NestedQueryBuilder): `query` matched within each object of the nested
 * field `path` on its own (its hidden document: nested/nestedDocs.ts), a document matching when one
 * of its objects does, scored from its matching objects per `score_mode` (`avg` by default, `max`,
 * `min`, `sum`, `none`: Lucene's ToParentBlockJoinQuery, lucene/blockJoin.ts):
 * `{"nested": {"path": "parts", "query": {...}, "score_mode": "max", "inner_hits": {}}}`.
 *
 * As NestedQueryBuilder.doToQuery: a path no mapping knows is a 400 "[nested] failed to find nested
 * object under path [x]" (with `ignore_unmapped: true`, no match); a path mapped as anything but a
 * nested field "[nested] nested object under path [x] is not of nested type". A nested field
 * inside another one (multi-level nesting), and a `nested` query inside another, are refused: the
 * embedded engine indexes a nested field's objects one level deep (an inner nested field's objects
 * are fields of its outer objects' documents).
 */
import { hasOwn } from '../json';
import { parseInnerHits } from '../collapse';
import { NestedQuery, NestedScoreMode, matchNone, withBoost } from '../lucene/query';
import { ClauseParser } from './context';
import { at, boostOf, checkParams, invalid, objectBody, readBoolean, readName, readString } from './params';

const SCORE_MODES: readonly NestedScoreMode[] = ['avg', 'max', 'min', 'sum', 'none'];

export const parseNested: ClauseParser = (body, path, ctx) => {
  const obj = objectBody('nested', body, path);
  checkParams('nested', obj, ['path', 'query', 'score_mode', 'ignore_unmapped', 'inner_hits', 'boost', '_name'], path);
  if (!hasOwn(obj, 'path')) throw invalid(`[nested] at ${path} requires 'path' field`);
  if (!hasOwn(obj, 'query')) throw invalid(`[nested] at ${path} requires 'query' field`);
  const nestedPath = readString('nested', 'path', obj.path, at(path, 'path'));
  const query = ctx.parseQuery(obj.query, at(path, 'query'));
  let scoreMode: NestedScoreMode = 'avg';
  if (hasOwn(obj, 'score_mode')) {
    const mode = obj.score_mode;
    if (typeof mode !== 'string' || !SCORE_MODES.includes(mode as NestedScoreMode)) throw invalid(`illegal score_mode for nested query [${String(mode)}] at ${at(path, 'score_mode')} (avg, max, min, sum or none)`);
    scoreMode = mode as NestedScoreMode;
  }
  const ignoreUnmapped = hasOwn(obj, 'ignore_unmapped') ? readBoolean('nested', 'ignore_unmapped', obj.ignore_unmapped, at(path, 'ignore_unmapped')) : false;
  const innerHits = hasOwn(obj, 'inner_hits') ? parseInnerHits(obj.inner_hits, nestedPath, at(path, 'inner_hits')) : null;
  const boost = boostOf('nested', obj, path);
  readName('nested', obj, path);
  return {
    toLucene: (buildCtx) => {
      const { mapping } = buildCtx;
      if (!mapping.isNested(nestedPath)) {
        if (mapping.isObject(nestedPath)) throw invalid(`[nested] nested object under path [${nestedPath}] is not of nested type`);
        if (ignoreUnmapped) return matchNone(`[nested] failed to find nested object under path [${nestedPath}]`);
        throw invalid(`[nested] failed to find nested object under path [${nestedPath}]`);
      }
      const outer = mapping.nestedParent(nestedPath);
      if (outer !== undefined) throw invalid(`[nested] the nested object under path [${nestedPath}] is inside the nested object [${outer}]: multi-level nested queries are not supported by the embedded store`);
      if (buildCtx.nestedPath !== undefined) throw invalid(`[nested] a nested query on path [${nestedPath}] inside the nested query on path [${buildCtx.nestedPath}] is not supported by the embedded store (multi-level nesting)`);
      const node: NestedQuery = { type: 'nested', path: nestedPath, query: query.toLucene({ ...buildCtx, nestedPath }), scoreMode, innerHits };
      return withBoost(node, boost);
    },
  };
};
