/**
 * `match_phrase_prefix`: the tokens in order, the last one a prefix: what a search box sends as the
 * user types. `{"match_phrase_prefix": {"name": "united k"}}` or with `{"query": ..., "slop": 1,
 * "max_expansions": 50, "zero_terms_query": "none", "analyzer": "standard", "boost": 2}`.
 *
 * As Elasticsearch's MatchQueryParser (Type.PHRASE_PREFIX) builds it: the text is analyzed with the
 * field's analyzer (or `analyzer`); no token gives zero_terms_query; otherwise, on a text field,
 * MultiPhrasePrefixQuery (multiPhrasePrefix.ts: the last token expanded to the first max_expansions
 * terms of the dictionary that start with it, default 50), even for one token. Any other field type
 * is refused as Elasticsearch refuses it ("Can only use phrase prefix queries on text fields"),
 * unless lenient (multi_match), which then matches nothing there. An unmapped field matches nothing.
 */
import { Analyzer, analyzeTerms } from '../analysis/analyzers';
import { toText } from '../fieldValues';
import { describe, hasOwn, isPlainObject } from '../json';
import { LQuery, MATCH_ALL, matchNone, withBoost } from '../lucene/query';
import { ZeroTermsQuery } from './analyzedQuery';
import { BuildContext, ClauseParser } from './context';
import { fieldType } from './fieldQueries';
import { readAnalyzer, readSlop, readZeroTerms, searchAnalyzer } from './fullText';
import { multiPhrasePrefix } from './multiPhrasePrefix';
import { at, boostOf, checkParams, invalid, readInteger, readName, readScalar, singleField } from './params';

/** FuzzyQuery.defaultMaxExpansions, Elasticsearch's default for max_expansions. */
export const DEFAULT_MAX_EXPANSIONS = 50;

export interface PhrasePrefixOptions {
  readonly slop: number;
  readonly maxExpansions: number;
  readonly zeroTermsQuery: ZeroTermsQuery;
  /** multi_match: a field of another type matches nothing instead of failing. */
  readonly lenient: boolean;
  /** `analyzer` when given, else null: the field's own (search_quote_analyzer). */
  readonly analyzer: Analyzer | null;
  readonly where: string;
}

/** Elasticsearch's type names in messages. */
export function typeName(type: string): string {
  return type === 'id' ? '_id' : type;
}

/** The phrase prefix query of one field (MatchQueryParser.parse with Type.PHRASE_PREFIX). */
export function phrasePrefixQuery(ctx: BuildContext, field: string, value: string | number | boolean, options: PhrasePrefixOptions): LQuery {
  const type = fieldType(ctx, field);
  if (type === undefined) return matchNone(`unmapped field ${field}`);
  const text = toText(value);
  if (text === null) throw invalid(`a query text at ${options.where} must be a string, a number or a boolean, got ${describe(value)}`);
  // the field's own analyzer (its search_quote_analyzer, as MatchQueryParser quotes a phrase prefix) for text, keyword (the whole value, one token) for the others
  const { terms: tokens, positions } = type === 'text' || options.analyzer !== null ? analyzeTerms(searchAnalyzer(ctx, field, options.analyzer, true), text) : { terms: [text], positions: [0] };
  if (tokens.length === 0) return options.zeroTermsQuery === 'all' ? MATCH_ALL : matchNone('no tokens');
  if (type !== 'text') {
    const refusal = invalid(`failed to create query: Can only use phrase prefix queries on text fields - not on [${field}] which is of type [${typeName(type)}] (at ${options.where})`);
    if (options.lenient) return matchNone(`lenient: ${refusal.message}`);
    throw refusal;
  }
  return multiPhrasePrefix({ field, tokens, positions, slop: options.slop, maxExpansions: options.maxExpansions });
}

/** max_expansions of match_phrase_prefix: any non-negative integer (MatchPhrasePrefixQueryBuilder). */
export function readMaxExpansions(clause: string, raw: Record<string, unknown>, where: string, min: number): number {
  return hasOwn(raw, 'max_expansions') ? readInteger(clause, 'max_expansions', raw.max_expansions, at(where, 'max_expansions'), min) : DEFAULT_MAX_EXPANSIONS;
}

export const parseMatchPhrasePrefix: ClauseParser = (body, path) => {
  const clause = 'match_phrase_prefix';
  const [field, raw] = singleField(clause, body, path);
  const where = at(path, field);
  const defaults: PhrasePrefixOptions = { slop: 0, maxExpansions: DEFAULT_MAX_EXPANSIONS, zeroTermsQuery: 'none', lenient: false, analyzer: null, where };
  if (!isPlainObject(raw)) {
    const text = readScalar(clause, 'query', raw, where);
    return { toLucene: (ctx) => phrasePrefixQuery(ctx, field, text, defaults) };
  }
  checkParams(clause, raw, ['query', 'analyzer', 'slop', 'max_expansions', 'zero_terms_query', 'boost', '_name'], where);
  if (!hasOwn(raw, 'query')) throw invalid(`[${clause}] at ${where} needs a "query"`);
  const text = readScalar(clause, 'query', raw.query, at(where, 'query'));
  const options: PhrasePrefixOptions = {
    ...defaults,
    slop: readSlop(clause, raw, where),
    maxExpansions: readMaxExpansions(clause, raw, where, 0),
    zeroTermsQuery: readZeroTerms(clause, raw, where),
    analyzer: readAnalyzer(clause, raw, where),
  };
  const boost = boostOf(clause, raw, where);
  readName(clause, raw, where);
  return { toLucene: (ctx) => withBoost(phrasePrefixQuery(ctx, field, text, options), boost) };
};
