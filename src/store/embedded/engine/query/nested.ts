/**
 * `nested` (Elasticsearch's NestedQueryBuilder): `query` matched within each object of the nested
 * field `path` on its own (its hidden document: nested/nestedDocs.ts), a document matching when one
 * of its objects does, scored from its matching objects per `score_mode` (`avg` by default, `max`,
 * `min`, `sum`, `none`: Lucene's ToParentBlockJoinQuery, lucene/blockJoin.ts):
 * `{"nested": {"path": "parts", "query": {...}, "score_mode": "max", "inner_hits": {}}}`.
 *
 * As NestedQueryBuilder.doToQuery: a path no mapping knows is a 400 "[nested] failed to find nested
 * object under path [x]" (with `ignore_unmapped: true`, no match); a path mapped as anything but a
 * nested field "[nested] nested object under path [x] is not of nested type".
 *
 * Nested fields inside nested fields: a `nested` query at the root on `driver.vehicle` joins the
 * vehicles to the root documents directly (NestedQueryBuilder's parent filter is the non-nested
 * documents' when no nested scope encloses it); inside a `nested` query on `driver`, it joins them
 * to the drivers (the enclosing scope's documents), which the outer query joins to the root. A path
 * that is not under the enclosing nested query's is refused (Lucene's join would fail: its children
 * would not be in the parents' blocks).
 */
import { hasOwn, isPlainObject } from '../json';
import { parseInnerHits } from '../collapse';
import { NestedQuery, NestedScoreMode, matchNone, withBoost } from '../lucene/query';
import { ClauseParser } from './context';
import { InnerHitsRequest } from '../collapse';
import { parseHighlight } from '../highlight/options';
import { QueryLimits } from '../limits';
import { at, boostOf, checkParams, invalid, objectBody, readBoolean, readName, readString } from './params';

const SCORE_MODES: readonly NestedScoreMode[] = ['avg', 'max', 'min', 'sum', 'none'];

/** A nested query's `inner_hits`: collapse's members (collapse.ts), and `highlight` on the objects' fields (full paths), as a search's highlight reads it. */
function parseNestedInnerHits(value: unknown, path: string, where: string, limits: QueryLimits): InnerHitsRequest {
  if (!isPlainObject(value) || !hasOwn(value, 'highlight')) return parseInnerHits(value, path, where);
  const { highlight, ...rest } = value;
  return { ...parseInnerHits(rest, path, where), highlight: parseHighlight(highlight, limits) };
}

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
  const innerHits = hasOwn(obj, 'inner_hits') ? parseNestedInnerHits(obj.inner_hits, nestedPath, at(path, 'inner_hits'), ctx.limits) : null;
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
      // the nested fields from the root down to the path, then from the enclosing scope's
      const chain: string[] = [];
      for (let level: string | undefined = nestedPath; level !== undefined; level = mapping.nestedParent(level)) chain.unshift(level);
      const scope = buildCtx.nestedPath;
      if (scope !== undefined) {
        const at = chain.indexOf(scope);
        if (at < 0 || scope === nestedPath) throw invalid(`[nested] nested path [${nestedPath}] is not a child of the enclosing nested path [${scope}]`);
        chain.splice(0, at + 1);
      }
      const node: NestedQuery = { type: 'nested', path: nestedPath, chain, query: query.toLucene({ ...buildCtx, nestedPath }), scoreMode, innerHits, parsed: query };
      return withBoost(node, boost);
    },
  };
};
