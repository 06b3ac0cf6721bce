/**
 * The fields a query string runs on, as Elasticsearch's QueryParserHelper resolves them against
 * the mapping: `fields` entries with `^` boosts (parseFieldsAndWeights), patterns with `*`
 * (Regex.simpleMatch), `*` alone every field but metadata ones (and any field whose name starts
 * with `_`, as QueryParserHelper.resolveMappingField skips them), the `_id` metadata field by name,
 * boosts multiplied when a field is named twice, and a suffix tried on each field
 * (`quote_field_suffix`: `name` becomes `name.keyword` where that is mapped). Every field type of
 * this engine is searchable as text (TextSearchInfo is never NONE), so none is skipped for its type.
 */
import { isSimpleMatchPattern, simpleMatch } from '../glob';
import { tooManyClauses } from '../limits';
import { BuildContext } from '../query/context';
import { ID_FIELD } from '../query/fieldQueries';
import { invalid } from '../query/params';
import { javaParseFloat } from './javaNumbers';

/** Field (or pattern) -> boost, in the order given. */
export type FieldWeights = ReadonlyMap<string, number>;

const f = Math.fround;

/** Regex.isMatchAllPattern. */
export const isMatchAll = (pattern: string): boolean => pattern === '*';

/**
 * QueryParserHelper.parseFieldsAndWeights: `name^2` is name with boost 2. As there, a name given
 * again keeps the last boost, multiplied by the earlier one only when the earlier entry was
 * written exactly as the new name (`["name^3", "name"]` is name^3, `["name", "name^3"]` name^3).
 */
export function parseFieldsAndWeights(clause: string, specs: readonly unknown[], where: string): Map<string, number> {
  const weights = new Map<string, number>();
  specs.forEach((spec, i) => {
    if (typeof spec !== 'string') throw invalid(`[${clause}] a field at ${where}[${i}] must be a string`);
    const caret = spec.indexOf('^');
    let name = spec;
    let boost = 1;
    if (caret !== -1) {
      name = spec.slice(0, caret);
      boost = javaParseFloat(spec.slice(caret + 1));
      if (Number.isNaN(boost)) throw invalid(`[${clause}] invalid boost in field ${JSON.stringify(spec)} at ${where}[${i}]`);
    }
    if (weights.has(spec)) boost = f(boost * (weights.get(spec) as number));
    if (boost < 0) throw invalid(`negative [boost] are not allowed in [${clause}] field ${JSON.stringify(spec)} at ${where}[${i}]`);
    weights.set(name, boost);
  });
  return weights;
}

/** SearchExecutionContext.getMatchingFieldNames: the mapped fields a name or pattern names (`_id` included). */
function matchingFieldNames(ctx: BuildContext, pattern: string): string[] {
  if (!isSimpleMatchPattern(pattern)) return pattern === ID_FIELD || ctx.mapping.type(pattern) !== undefined ? [pattern] : [];
  return [...ctx.mapping.fieldNames(), ID_FIELD].filter((name) => simpleMatch(pattern, name));
}

const isMapped = (ctx: BuildContext, field: string) => field === ID_FIELD || ctx.mapping.type(field) !== undefined;

/**
 * QueryParserHelper.resolveMappingField: the fields a name or pattern stands for, each with
 * `weight`; metadata fields (a name starting with `_`) only when `acceptMetadata`.
 */
export function resolveField(ctx: BuildContext, pattern: string, weight: number, acceptMetadata: boolean, suffix: string | null): Map<string, number> {
  const fields = new Map<string, number>();
  for (let name of matchingFieldNames(ctx, pattern)) {
    if (suffix !== null && isMapped(ctx, name + suffix)) name += suffix;
    if (!acceptMetadata && name.startsWith('_')) continue;
    fields.set(name, f((fields.get(name) ?? 1) * weight));
  }
  return fields;
}

/** QueryParserHelper.checkForTooManyFields: at most maxClauseCount fields. */
export function checkFieldCount(ctx: BuildContext, count: number, pattern: string | null): void {
  const limit = ctx.limits.maxClauseCount;
  if (count > limit) throw tooManyClauses(limit, ` (field expansion ${pattern === null ? '' : `for [${pattern}] `}matches too many fields, limit: ${limit}, got: ${count})`);
}

/** QueryParserHelper.resolveMappingFields: every entry resolved, boosts of a field named twice multiplied. */
export function resolveFields(ctx: BuildContext, weights: FieldWeights, suffix: string | null = null): Map<string, number> {
  const resolved = new Map<string, number>();
  for (const [pattern, weight] of weights) {
    for (const [name, boost] of resolveField(ctx, pattern, weight, !isMatchAll(pattern), suffix)) {
      resolved.set(name, resolved.has(name) ? f(boost * (resolved.get(name) as number)) : boost);
    }
  }
  checkFieldCount(ctx, resolved.size, null);
  return resolved;
}

/** Whether any entry is `*` (QueryParserHelper.hasAllFieldsWildcard): the query is then lenient by default. */
export const hasAllFields = (patterns: Iterable<string>): boolean => [...patterns].some(isMatchAll);
