/**
 * `match`: full-text query on one field. `{"match": {"name": "south africa"}}` or
 * `{"match": {"name": {"query": "...", "operator": "and", "minimum_should_match": "75%",
 * "zero_terms_query": "all", "lenient": true, "boost": 2}}}`. The tokens of a text field become a
 * BooleanQuery of term queries (see analyzedQuery.ts), to which minimum_should_match applies; on
 * keyword, numeric, date and boolean fields it is the field's term query. `fuzziness` (with
 * `prefix_length`, `max_expansions`, `fuzzy_transpositions`, `fuzzy_rewrite`) makes each token a
 * fuzzy query (fuzzy.ts).
 */
import { hasOwn, isPlainObject } from '../json';
import { withBoost } from '../lucene/query';
import { analyzedQuery } from './analyzedQuery';
import { ClauseParser } from './context';
import { INERT_PARAMS, readAnalyzer, readInertParams, readLenient, readOperator, readZeroTerms } from './fullText';
import { FUZZY_MATCH_PARAMS, readFuzzyParams } from './fuzzy';
import { applyMinimumShouldMatch, readMinimumShouldMatch } from './minimumShouldMatch';
import { at, boostOf, checkParams, invalid, readName, readScalar, singleField } from './params';

export const parseMatch: ClauseParser = (body, path) => {
  const [field, raw] = singleField('match', body, path);
  const where = at(path, field);
  if (!isPlainObject(raw)) {
    const text = readScalar('match', 'query', raw, where);
    return { toLucene: (ctx) => analyzedQuery(ctx, field, text, { operator: 'or', phrase: false, slop: 0, lenient: false, zeroTermsQuery: 'none', where }) };
  }
  checkParams('match', raw, ['query', 'operator', 'minimum_should_match', 'boost', '_name', 'zero_terms_query', 'lenient', 'analyzer', ...INERT_PARAMS, ...FUZZY_MATCH_PARAMS], where);
  if (!hasOwn(raw, 'query')) throw invalid(`[match] at ${where} needs a "query"`);
  const text = readScalar('match', 'query', raw.query, at(where, 'query'));
  const operator = readOperator('match', raw, where);
  const msm = hasOwn(raw, 'minimum_should_match') ? readMinimumShouldMatch('match', raw.minimum_should_match, at(where, 'minimum_should_match')) : null;
  const boost = boostOf('match', raw, where);
  const zeroTermsQuery = readZeroTerms('match', raw, where);
  const lenient = readLenient('match', raw, where) ?? false;
  const analyzer = readAnalyzer('match', raw, where);
  readInertParams('match', raw, where);
  const fuzzy = readFuzzyParams('match', raw, where);
  readName('match', raw, where);
  return {
    toLucene(ctx) {
      let query = analyzedQuery(ctx, field, text, { operator, phrase: false, slop: 0, lenient, zeroTermsQuery, where, fuzzy, analyzer });
      if (query.type === 'bool') query = applyMinimumShouldMatch(query, msm);
      return withBoost(query, boost);
    },
  };
};
