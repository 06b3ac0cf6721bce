/**
 * `multi_match`: a `match` (or `match_phrase`, `match_phrase_prefix`, `match_bool_prefix`) on several fields, `{"multi_match": {"query": "...",
 * "fields": ["name^2", "code", "desc*"], "type": "best_fields", "tie_breaker": 0.3}}`.
 *
 * As Elasticsearch's MultiMatchQueryParser: field patterns are expanded over the mapped fields
 * (`*` alone means every field except metadata ones, and makes the query lenient), a field named
 * twice multiplies its boosts, unmapped fields are skipped (none left: nothing matches). Each field
 * gets the query of its type for the text (`match`; `match_phrase` for phrase; `match_phrase_prefix`
 * for phrase_prefix, with slop and max_expansions; `match_bool_prefix` for bool_prefix, where a
 * slop is refused), minimum_should_match applied per field, then the field boost, and the fields
 * are combined in a DisjunctionMaxQuery: best_fields, phrase and phrase_prefix with tie_breaker 0
 * by default, most_fields and bool_prefix with tie_breaker 1 (which Lucene rewrites into a sum of
 * the fields). cross_fields blends the fields into one (crossFields.ts).
 */
import { describe, hasOwn, isPlainObject } from '../json';
import { LQuery, boostQuery, disMax, matchNone, withBoost } from '../lucene/query';
import { isSimpleMatchPattern, simpleMatch } from '../glob';
import { analyzedQuery } from './analyzedQuery';
import { BuildContext, ClauseParser } from './context';
import { ID_FIELD } from './fieldQueries';
import { INERT_PARAMS, readAnalyzer, readInertParams, readLenient, readOperator, readSlop, readZeroTerms } from './fullText';
import { boolPrefixQuery } from './matchBoolPrefix';
import { phrasePrefixQuery, readMaxExpansions } from './matchPhrasePrefix';
import { FUZZY_MATCH_PARAMS, readFuzzyParams } from './fuzzy';
import { applyMinimumShouldMatch, readMinimumShouldMatch } from './minimumShouldMatch';
import { crossFieldsQuery } from './crossFields';
import { at, boostOf, checkParams, invalid, readEnum, readName, readNumber, readScalar } from './params';

const f = Math.fround;

const TYPES = ['best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix', 'bool_prefix'] as const;
type MultiMatchType = (typeof TYPES)[number];

interface FieldSpec {
  pattern: string;
  boost: number;
}

function parseFieldSpec(spec: unknown, where: string): FieldSpec {
  if (typeof spec !== 'string' || spec === '') throw invalid(`[multi_match] a field at ${where} must be a non-empty string, got ${describe(spec)}`);
  const caret = spec.indexOf('^');
  if (caret === -1) return { pattern: spec, boost: 1 };
  const boostText = spec.slice(caret + 1);
  const boost = Number(boostText);
  if (boostText.trim() === '' || !Number.isFinite(boost)) throw invalid(`[multi_match] invalid boost in field ${JSON.stringify(spec)} at ${where}`);
  if (boost < 0) throw invalid(`negative [boost] are not allowed in [multi_match] field ${JSON.stringify(spec)} at ${where}`);
  return { pattern: spec.slice(0, caret), boost: f(boost) };
}

/** QueryParserHelper.resolveMappingFields: concrete fields and their boosts. */
function resolveFields(ctx: BuildContext, specs: readonly FieldSpec[]): Map<string, number> {
  const resolved = new Map<string, number>();
  for (const { pattern, boost } of specs) {
    const allFields = pattern === '*';
    const names = isSimpleMatchPattern(pattern)
      ? ctx.mapping.fieldNames().filter((name) => simpleMatch(pattern, name) && !(allFields && name.startsWith('_')))
      : pattern === ID_FIELD || ctx.mapping.type(pattern) !== undefined
        ? [pattern]
        : [];
    const forPattern = new Map<string, number>();
    for (const name of names) forPattern.set(name, f((forPattern.get(name) ?? 1) * boost));
    for (const [name, b] of forPattern) resolved.set(name, resolved.has(name) ? f(b * (resolved.get(name) as number)) : b);
  }
  return resolved;
}

export const parseMultiMatch: ClauseParser = (body, path) => {
  if (!isPlainObject(body)) throw invalid(`[multi_match] at ${path} must be an object, got ${describe(body)}`);
  checkParams(
    'multi_match',
    body,
    ['query', 'fields', 'type', 'operator', 'minimum_should_match', 'tie_breaker', 'boost', '_name', 'lenient', 'zero_terms_query', 'analyzer', 'slop', ...INERT_PARAMS, ...FUZZY_MATCH_PARAMS],
    path,
  );
  if (!hasOwn(body, 'query')) throw invalid(`[multi_match] at ${path} needs a "query"`);
  const text = readScalar('multi_match', 'query', body.query, at(path, 'query'));
  const rawFields = hasOwn(body, 'fields') ? body.fields : ['*'];
  const fieldList = typeof rawFields === 'string' ? [rawFields] : rawFields;
  if (!Array.isArray(fieldList)) throw invalid(`[multi_match] "fields" at ${at(path, 'fields')} must be a string or an array of strings, got ${describe(rawFields)}`);
  // a field listed twice keeps its last boost (fields are a map in Elasticsearch's builder)
  const bySpec = new Map<string, number>();
  fieldList.forEach((spec, i) => {
    const parsed = parseFieldSpec(spec, `${at(path, 'fields')}[${i}]`);
    bySpec.set(parsed.pattern, parsed.boost);
  });
  const specs: FieldSpec[] = [...bySpec].map(([pattern, boost]) => ({ pattern, boost }));
  const type: MultiMatchType = hasOwn(body, 'type') ? readEnum('multi_match', 'type', body.type, TYPES, at(path, 'type')) : 'best_fields';
  let tieBreaker = type === 'most_fields' || type === 'bool_prefix' ? 1 : 0;
  if (hasOwn(body, 'tie_breaker')) {
    tieBreaker = readNumber('multi_match', 'tie_breaker', body.tie_breaker, at(path, 'tie_breaker'));
    if (tieBreaker < 0 || tieBreaker > 1) throw invalid(`[multi_match] tie_breaker at ${at(path, 'tie_breaker')} must be in [0, 1]`);
  }
  const operator = readOperator('multi_match', body, path);
  const msm = hasOwn(body, 'minimum_should_match') ? readMinimumShouldMatch('multi_match', body.minimum_should_match, at(path, 'minimum_should_match')) : null;
  const boost = boostOf('multi_match', body, path);
  const lenientParam = readLenient('multi_match', body, path);
  const zeroTermsQuery = readZeroTerms('multi_match', body, path);
  const slop = readSlop('multi_match', body, path);
  if (slop !== 0 && type === 'bool_prefix') throw invalid(`[multi_match] [slop] not allowed for type [bool_prefix] at ${at(path, 'slop')}`);
  const analyzer = readAnalyzer('multi_match', body, path);
  readInertParams('multi_match', body, path);
  const fuzzy = readFuzzyParams('multi_match', body, path);
  // MultiMatchQueryBuilder.fromXContent
  if (fuzzy !== null && (type === 'phrase' || type === 'phrase_prefix' || type === 'cross_fields')) throw invalid(`[multi_match] Fuzziness not allowed for type [${type}] at ${at(path, 'fuzziness')}`);
  const maxExpansions = readMaxExpansions('multi_match', body, path, 1);
  readName('multi_match', body, path);
  const lenient = lenientParam ?? specs.some((s) => s.pattern === '*');

  return {
    toLucene(ctx) {
      const fields = resolveFields(ctx, specs);
      if (fields.size === 0) return matchNone('no mapped field to query');
      if (type === 'cross_fields') return withBoost(crossFieldsQuery(ctx, fields, text, { operator, minimumShouldMatch: msm, tieBreaker, lenient, zeroTermsQuery, analyzer, where: path }), boost);
      const queries: LQuery[] = [];
      for (const [field, fieldBoost] of fields) {
        const where = at(at(path, 'fields'), field);
        let query =
          type === 'phrase_prefix'
            ? phrasePrefixQuery(ctx, field, text, { slop, maxExpansions, zeroTermsQuery, lenient, analyzer, where })
            : type === 'bool_prefix'
              ? boolPrefixQuery(ctx, field, text, { operator, zeroTermsQuery, lenient, analyzer, fuzzy, where })
              : analyzedQuery(ctx, field, text, { operator, phrase: type === 'phrase', slop, lenient, zeroTermsQuery, where, fuzzy, analyzer });
        if (query.type === 'bool') query = applyMinimumShouldMatch(query, msm);
        if (fieldBoost !== 1 && query.type !== 'matchNone') query = boostQuery(query, fieldBoost);
        queries.push(query);
      }
      return withBoost(queries.length === 1 ? queries[0] : disMax(queries, tieBreaker), boost);
    },
  };
};
