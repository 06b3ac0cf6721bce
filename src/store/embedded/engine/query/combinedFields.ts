/**
 * `combined_fields` (Elasticsearch 8's CombinedFieldsQueryBuilder): a text looked for in several text
 * fields as if they had been indexed into one, `{"combined_fields": {"query": "database systems",
 * "fields": ["title^2", "abstract", "body*"], "operator": "and", "minimum_should_match": "2",
 * "zero_terms_query": "all"}}`.
 *
 * As Elasticsearch builds it: the field patterns are resolved against the mapping
 * (QueryParserHelper: `^boost` weights, which must be >= 1, patterns with `*`, a field named twice
 * multiplies its boosts); unmapped fields are skipped, none mapped matches nothing; every mapped field
 * must be `text` ("Field [code] of type [keyword] does not support [combined_fields] queries") and
 * all must share one search analyzer (a 400 otherwise). The text is analyzed once, with it (Lucene's QueryBuilder): no token
 * gives zero_terms_query, one token a CombinedFieldQuery of that term over the fields, several a
 * BooleanQuery of one CombinedFieldQuery per token (SHOULD for operator or, MUST for and), to which
 * minimum_should_match applies. Each CombinedFieldQuery scores BM25F (lucene/combinedField.ts).
 * `auto_generate_synonyms_phrase_query` is read and has no effect (no analyzer here makes synonyms).
 */
import { describe, hasOwn } from '../json';
import { LQuery, MATCH_ALL, booleanQuery, matchNone, withBoost } from '../lucene/query';
import { CombinedFieldQuery } from '../lucene/query';
import { analyzeTerms } from '../analysis/analyzers';
import { parseFieldsAndWeights, resolveFields } from '../queryString/fields';
import { ClauseParser } from './context';
import { fieldType } from './fieldQueries';
import { readOperator, readZeroTerms } from './fullText';
import { applyMinimumShouldMatch, readMinimumShouldMatch } from './minimumShouldMatch';
import { at, boostOf, checkParams, invalid, objectBody, readBoolean, readName } from './params';

const CLAUSE = 'combined_fields';

export const parseCombinedFields: ClauseParser = (body, path) => {
  const obj = objectBody(CLAUSE, body, path);
  checkParams(CLAUSE, obj, ['query', 'fields', 'operator', 'minimum_should_match', 'zero_terms_query', 'auto_generate_synonyms_phrase_query', 'boost', '_name'], path);
  if (!hasOwn(obj, 'query') || obj.query === null) throw invalid(`[${CLAUSE}] requires query value at ${path}`);
  if (typeof obj.query !== 'string') throw invalid(`[${CLAUSE}] "query" at ${at(path, 'query')} must be a string, got ${describe(obj.query)}`);
  const text = obj.query;
  const rawFields = hasOwn(obj, 'fields') ? obj.fields : [];
  const fieldList = typeof rawFields === 'string' ? [rawFields] : rawFields;
  if (!Array.isArray(fieldList)) throw invalid(`[${CLAUSE}] "fields" at ${at(path, 'fields')} must be an array of strings, got ${describe(rawFields)}`);
  const weights = parseFieldsAndWeights(CLAUSE, fieldList, at(path, 'fields'));
  if (weights.size === 0) throw invalid(`In [${CLAUSE}] query at ${path}, at least one field must be provided`);
  for (const [name, weight] of weights) {
    if (weight < 1) throw invalid(`[${CLAUSE}] requires field boosts to be >= 1.0, got ${name}^${weight} at ${at(path, 'fields')}`);
  }
  const operator = readOperator(CLAUSE, obj, path);
  const msm = hasOwn(obj, 'minimum_should_match') && obj.minimum_should_match !== null ? readMinimumShouldMatch(CLAUSE, obj.minimum_should_match, at(path, 'minimum_should_match')) : null;
  const zeroTermsQuery = readZeroTerms(CLAUSE, obj, path);
  if (hasOwn(obj, 'auto_generate_synonyms_phrase_query')) readBoolean(CLAUSE, 'auto_generate_synonyms_phrase_query', obj.auto_generate_synonyms_phrase_query, at(path, 'auto_generate_synonyms_phrase_query'));
  const boost = boostOf(CLAUSE, obj, path);
  readName(CLAUSE, obj, path);

  return {
    toLucene(ctx) {
      const resolved = resolveFields(ctx, weights);
      const fields: { field: string; weight: number }[] = [];
      for (const [field, weight] of resolved) {
        const type = fieldType(ctx, field);
        if (type === undefined) continue;
        if (type !== 'text') throw invalid(`Field [${field}] of type [${type === 'id' ? '_id' : type}] does not support [${CLAUSE}] queries (at ${path})`);
        fields.push({ field, weight });
      }
      if (fields.length === 0) return matchNone(`unmapped fields ${[...resolved.keys()].join(', ')}`);
      // the fields share one search analyzer (CombinedFieldsQueryBuilder), which analyzes the text once
      const analyzer = ctx.mapping.analyzersOf(fields[0].field).search;
      if (fields.some((f) => ctx.mapping.analyzersOf(f.field).search.name !== analyzer.name)) {
        throw invalid(`All fields in [${CLAUSE}] query must have the same search analyzer (at ${path}: ${fields.map((f) => `${f.field} ${ctx.mapping.analyzersOf(f.field).search.name}`).join(', ')})`);
      }
      // in String.compareTo order (CombinedFieldQuery's TreeMap): UTF-16 code units
      fields.sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
      const tokens = analyzeTerms(analyzer, text).terms;
      if (tokens.length === 0) return zeroTermsQuery === 'all' ? MATCH_ALL : matchNone('Matching no documents because no terms present');
      const termQuery = (term: string): CombinedFieldQuery => ({ type: 'combinedField', fields, terms: [term] });
      let query: LQuery;
      if (tokens.length === 1) {
        query = termQuery(tokens[0]);
      } else {
        const occur = operator === 'and' ? 'must' : 'should';
        query = applyMinimumShouldMatch(booleanQuery(tokens.map((t) => ({ occur, query: termQuery(t) }))), msm);
      }
      return withBoost(query, boost);
    },
  };
};
