/**
 * `exists`: documents with a value in a field, `{"exists": {"field": "code"}}`. The field may be a
 * pattern (`"na*"`) or an object (`"modifier"`: any of its sub-fields), as ExistsQueryBuilder
 * resolves it. An empty string counts as a value on text fields (norms are written), a keyword value
 * longer than ignore_above (the `.keyword` of a long text) does not. Constant-score.
 */
import { hasOwn } from '../json';
import { LQuery, MATCH_ALL, booleanQuery, constantScore, matchNone, withBoost } from '../lucene/query';
import { isSimpleMatchPattern, simpleMatch } from '../glob';
import { BuildContext, ClauseParser } from './context';
import { ID_FIELD } from './fieldQueries';
import { fieldExists } from './leaves';
import { at, boostOf, checkParams, invalid, objectBody, readName, readString } from './params';

function matchingFields(ctx: BuildContext, pattern: string): string[] {
  const names = ctx.mapping.fieldNames();
  const match = (p: string) => (isSimpleMatchPattern(p) ? names.filter((n) => simpleMatch(p, n)) : ctx.mapping.type(p) !== undefined ? [p] : []);
  const direct = match(pattern);
  return direct.length > 0 ? direct : match(`${pattern}.*`);
}

export const parseExists: ClauseParser = (body, path) => {
  const obj = objectBody('exists', body, path);
  checkParams('exists', obj, ['field', 'boost', '_name'], path);
  if (!hasOwn(obj, 'field')) throw invalid(`[exists] at ${path} needs a "field"`);
  const field = readString('exists', 'field', obj.field, at(path, 'field'));
  if (field === '') throw invalid(`[exists] "field" at ${at(path, 'field')} must not be empty`);
  const boost = boostOf('exists', obj, path);
  readName('exists', obj, path);
  return { toLucene: (ctx) => withBoost(existsQuery(ctx, field), boost) };
};

/** ExistsQueryBuilder.newFilter: documents with a value in the field, or in a field the pattern (or object) names. */
export function existsQuery(ctx: BuildContext, field: string): LQuery {
  if (field === ID_FIELD) return MATCH_ALL;
  const fields = matchingFields(ctx, field);
  if (fields.length === 0) return matchNone(`no field matches ${field}`);
  if (fields.length === 1) return fieldExists(fields[0]);
  return constantScore(booleanQuery(fields.map((f) => ({ occur: 'should' as const, query: fieldExists(f) }))));
}
