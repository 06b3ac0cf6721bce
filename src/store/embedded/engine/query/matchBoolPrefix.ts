/**
 * `match_bool_prefix`: every token a term, the last one a prefix, in a boolean query: the words of
 * a search box in any order, the one being typed a prefix. `{"match_bool_prefix": {"name": "united
 * k"}}` or with `{"query": ..., "operator": "and", "minimum_should_match": "2", "analyzer":
 * "standard", "boost": 2}`.
 *
 * As Elasticsearch's MatchQueryParser (Type.BOOLEAN_PREFIX, createBooleanPrefixQuery) builds it: the
 * text is analyzed with the field's analyzer (or `analyzer`); no token matches nothing (multi_match:
 * its zero_terms_query); one token is a term query, several a BooleanQuery of their term queries
 * (SHOULD, or MUST with operator and), minimum_should_match applied to it. The last token becomes a
 * PrefixQuery (constant score: it scores the boost) only when the text ends with it ("united k": a
 * prefix; "united k " or "united k.": the user moved on, a term). On a keyword field the keyword
 * analyzer keeps the value whole: one PrefixQuery of it; on numeric, date and boolean fields the
 * field's term query. An unmapped field matches nothing. `fuzziness` (with `prefix_length`,
 * `max_expansions`, `fuzzy_transpositions`, `fuzzy_rewrite`) makes each term but the prefix a fuzzy
 * query (fuzzy.ts), as MatchQueryParser.newTermQuery does; the prefix stays a prefix.
 */
import { Analyzer, STANDARD } from '../analysis/analyzers';
import { analyzeText, lastTokenEndsText } from '../analyzer';
import { toText } from '../fieldValues';
import { describe, hasOwn, isPlainObject } from '../json';
import { LQuery, MATCH_ALL, booleanQuery, matchNone, termQuery, withBoost } from '../lucene/query';
import { ZeroTermsQuery } from './analyzedQuery';
import { BuildContext, ClauseParser } from './context';
import { exactQuery, fieldType } from './fieldQueries';
import { leniently, readAnalyzer, readOperator, searchAnalyzer } from './fullText';
import { CONSTANT_SCORE } from './leaves';
import { applyMinimumShouldMatch, readMinimumShouldMatch } from './minimumShouldMatch';
import { FUZZY_MATCH_PARAMS, FuzzyOptions, fuzzyQuery, readFuzzyParams } from './fuzzy';
import { at, boostOf, checkParams, invalid, readName, readScalar, singleField } from './params';
import { prefixLeaf, stringFieldOnly } from './prefix';

export interface BoolPrefixOptions {
  readonly operator: 'or' | 'and';
  readonly zeroTermsQuery: ZeroTermsQuery;
  /** multi_match: a value the field cannot hold matches nothing instead of failing. */
  readonly lenient: boolean;
  /** `analyzer` when given, else null: the field's own (search_analyzer). */
  readonly analyzer: Analyzer | null;
  /** `fuzziness` and its parameters, for the terms (not the prefix). */
  readonly fuzzy: FuzzyOptions | null;
  readonly where: string;
}

/** The terms of the text, and whether the last one ends the text (then it is a prefix: the user is still typing it). */
function boolPrefixTokens(analyzer: Analyzer, text: string): { tokens: string[]; prefixLast: boolean } {
  if (analyzer === STANDARD) return { tokens: analyzeText(text), prefixLast: lastTokenEndsText(text) };
  const tokens = analyzer.tokens(text);
  return { tokens: tokens.map((t) => t.term), prefixLast: tokens.length > 0 && tokens[tokens.length - 1].end === text.length };
}

/** The bool prefix query of one field (MatchQueryParser.parse with Type.BOOLEAN_PREFIX). */
export function boolPrefixQuery(ctx: BuildContext, field: string, value: string | number | boolean, options: BoolPrefixOptions): LQuery {
  const type = fieldType(ctx, field);
  if (type === undefined) return matchNone(`unmapped field ${field}`);
  const text = toText(value);
  if (text === null) throw invalid(`a query text at ${options.where} must be a string, a number or a boolean, got ${describe(value)}`);
  const { maxClauseCount } = ctx.limits;
  const { fuzzy, where } = options;
  const newTermQuery = (token: string): LQuery => {
    if (fuzzy !== null) return leniently(options.lenient, () => fuzzyQuery(ctx, field, token, fuzzy, where));
    return type === 'text' || type === 'keyword' ? termQuery(field, token) : leniently(options.lenient, () => exactQuery(ctx, field, token, where));
  };
  const newPrefixQuery = (token: string): LQuery =>
    leniently(options.lenient, () => (stringFieldOnly(ctx, 'prefix', field, where) ? prefixLeaf(field, token, false, CONSTANT_SCORE, maxClauseCount) : matchNone(`unmapped field ${field}`)));
  if (options.analyzer === null && type !== 'text') {
    // the keyword analyzer keeps the value whole
    return type === 'keyword' ? newPrefixQuery(text) : newTermQuery(text);
  }
  const { tokens, prefixLast } = boolPrefixTokens(searchAnalyzer(ctx, field, options.analyzer, false), text);
  if (tokens.length === 0) return options.zeroTermsQuery === 'all' ? MATCH_ALL : matchNone('no tokens');
  const last = tokens.length - 1;
  const queryOf = (token: string, i: number) => (i === last && prefixLast ? newPrefixQuery(token) : newTermQuery(token));
  if (tokens.length === 1) return queryOf(tokens[0], 0);
  const occur = options.operator === 'and' ? 'must' : 'should';
  return booleanQuery(tokens.map((token, i) => ({ occur, query: queryOf(token, i) })));
}

export const parseMatchBoolPrefix: ClauseParser = (body, path) => {
  const clause = 'match_bool_prefix';
  const [field, raw] = singleField(clause, body, path);
  const where = at(path, field);
  const defaults: BoolPrefixOptions = { operator: 'or', zeroTermsQuery: 'none', lenient: false, analyzer: null, fuzzy: null, where };
  if (!isPlainObject(raw)) {
    const text = readScalar(clause, 'query', raw, where);
    return { toLucene: (ctx) => boolPrefixQuery(ctx, field, text, defaults) };
  }
  checkParams(clause, raw, ['query', 'analyzer', 'operator', 'minimum_should_match', ...FUZZY_MATCH_PARAMS, 'boost', '_name'], where);
  if (!hasOwn(raw, 'query')) throw invalid(`[${clause}] at ${where} needs a "query"`);
  const text = readScalar(clause, 'query', raw.query, at(where, 'query'));
  const options: BoolPrefixOptions = { ...defaults, operator: readOperator(clause, raw, where), analyzer: readAnalyzer(clause, raw, where), fuzzy: readFuzzyParams(clause, raw, where) };
  const msm = hasOwn(raw, 'minimum_should_match') ? readMinimumShouldMatch(clause, raw.minimum_should_match, at(where, 'minimum_should_match')) : null;
  const boost = boostOf(clause, raw, where);
  readName(clause, raw, where);
  return {
    toLucene(ctx) {
      let query = boolPrefixQuery(ctx, field, text, options);
      if (query.type === 'bool') query = applyMinimumShouldMatch(query, msm);
      return withBoost(query, boost);
    },
  };
};
