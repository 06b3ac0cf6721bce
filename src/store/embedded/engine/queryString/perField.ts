/**
 * The queries one piece of a query string becomes on its fields, as Elasticsearch's
 * QueryStringQueryParser and SimpleQueryStringQueryParser build them field by field:
 *
 * - text (MultiMatchQueryParser.parse with zero_terms_query NULL): each mapped field's match query
 *   (MatchQueryParser: analyzed on text fields, a term on the others), its boost, then one query,
 *   or a DisjunctionMaxQuery with the tie breaker (most_fields: 1, a sum); a text that analyzes to
 *   nothing is no query at all (null), which the parsers skip;
 * - prefix (getPrefixQuerySingle): normalized by the field's search analyzer (Analyzer.normalize:
 *   lower-cased by most), or with `analyze_wildcard` analyzed into terms and a prefix on the last;
 *   on keyword fields as written, lower-cased by `normalizer: lowercase`;
 * - wildcard (getWildcardQuerySingle, normalizedWildcardQuery): what is not a wildcard or an escape
 *   normalized likewise; `*` alone is an exists query;
 * - regular expression (getRegexpQuerySingle): flags ALL, normalized only by a keyword normalizer;
 * - range (getRangeQuerySingle): bounds normalized likewise, each type's range query.
 *
 * The query's `analyzer` (and for phrases `quote_analyzer`) replaces the fields' search analyzers.
 *
 * On a field of the wrong type (a wildcard on a number, `abc` on a long), a lenient query matches
 * nothing there (Queries.newLenientFieldQuery) and another is a 400. Every query built is counted
 * against the clause limit as it is made, so that no query string builds an unbounded tree.
 */
import { InvalidQueryError, QueryLimitError } from '../../../port';
import { parseRegexp as parseRegexpSyntax, RegexpFlag, RegexpSyntaxError } from '../automaton';
import { Analyzer, AnalyzedTerms, analyzeTerms } from '../analysis/analyzers';
import { tooManyClauses } from '../limits';
import { LQuery, boostQuery, booleanQuery, countClauses, disMax, matchNone, termQuery, withBoost } from '../lucene/query';
import { analyzedQuery } from '../query/analyzedQuery';
import { crossFieldsQuery } from '../query/crossFields';
import { FuzzyOptions, fuzzyQuery } from '../query/fuzzy';
import { boolPrefixQuery } from '../query/matchBoolPrefix';
import { phrasePrefixQuery } from '../query/matchPhrasePrefix';
import { BuildContext } from '../query/context';
import { existsQuery } from '../query/exists';
import { fieldType } from '../query/fieldQueries';
import { PatternRewrite } from '../query/leaves';
import { prefixLeaf, stringFieldOnly } from '../query/prefix';
import { RangeSpec, rangeQuery } from '../query/range';
import { regexpLeaf } from '../query/regexp';
import { normalizeWildcardPattern, wildcardLeaf } from '../query/wildcard';
import { searchAnalyzer } from '../query/fullText';
import { TimeZone } from '../dates';
import { ParseError } from './classicParser';

/** MultiMatchQueryBuilder.Type. */
export type TextType = 'best_fields' | 'most_fields' | 'cross_fields' | 'phrase' | 'phrase_prefix' | 'bool_prefix';

/** MultiMatchQueryBuilder.Type.tieBreaker: the default tie breaker of each type. */
export const TYPE_TIE_BREAKER: Record<TextType, number> = { best_fields: 0, most_fields: 1, cross_fields: 0, phrase: 0, phrase_prefix: 0, bool_prefix: 1 };

/** The fuzzy parameters of a query string (fuzzy_prefix_length, fuzzy_max_expansions, fuzzy_transpositions). */
export type FuzzyParams = Pick<FuzzyOptions, 'prefixLength' | 'maxExpansions' | 'transpositions'>;

/** Counts the leaf clauses of what a query string builds, refusing (too_many_clauses) past the limit. */
export class ClauseCounter {
  private count = 0;

  constructor(private readonly limit: number) {}

  add<T extends LQuery | null>(query: T): T {
    if (query !== null) {
      this.count += countClauses(query);
      if (this.count > this.limit) throw tooManyClauses(this.limit, ' (in what the query string expands to)');
    }
    return query;
  }
}

/** What the builders need: the index's mapping and limits, and the query's settings. */
export interface FieldEnv {
  readonly build: BuildContext;
  readonly counter: ClauseCounter;
  readonly lenient: boolean;
  readonly operator: 'or' | 'and';
  readonly rewrite: PatternRewrite;
  readonly timeZone: TimeZone | null;
  /** The query's own determinization limit for regular expressions (at most MAX_DETERMINIZED_STATES), null for that. */
  readonly maxDeterminizedStates: number | null;
  /** Where the clause is, for messages. */
  readonly where: string;
  /** The query's `analyzer`, replacing the fields' search analyzers (null or absent: theirs). */
  readonly analyzer?: Analyzer | null;
  /** For phrases: `quote_analyzer` (or `analyzer`), replacing the fields' search_quote_analyzer. */
  readonly quoteAnalyzer?: Analyzer | null;
  /** query_string's enable_position_increments (default true; false: a phrase's terms at consecutive positions). */
  readonly positionIncrements?: boolean;
}

/** A term as the field's search analyzer normalizes it (Analyzer.normalize): the query's analyzer or a text field's, a keyword field's normalizer. */
function normalizeFor(env: FieldEnv, field: string, text: string, forced = true): string {
  const type = fieldType(env.build, field);
  if (forced && env.analyzer) return env.analyzer.normalize(text);
  if (type === 'text') return env.build.mapping.analyzersOf(field).search.normalize(text);
  return type === 'keyword' ? env.build.mapping.normalizeKeyword(field, text) : text;
}

/** The field's query, or, when lenient, nothing where its type refuses it (Queries.newLenientFieldQuery). */
function leniently<T extends LQuery | null>(env: FieldEnv, field: string, make: () => T): T | LQuery {
  try {
    return env.counter.add(make());
  } catch (err) {
    if (!env.lenient || !(err instanceof InvalidQueryError) || err instanceof QueryLimitError) throw err;
    return matchNone(`failed [${field}] query, caused by ${err.message}`);
  }
}

/** One query, or the disjunction of several (DisjunctionMaxQuery; a sum with tie breaker 1). */
export function disjunction(queries: readonly LQuery[], tieBreaker: number): LQuery | null {
  if (queries.length === 0) return null;
  return queries.length === 1 ? queries[0] : disMax(queries, tieBreaker);
}

/**
 * MatchQueryParser.parse on one field (BOOLEAN or PHRASE), null when the text has no token. Text
 * fields mostly share their analyzer: `tokens` analyzes the text once per analyzer.
 */
function matchField(env: FieldEnv, field: string, text: string, tokens: (analyzer: Analyzer) => AnalyzedTerms, phrase: boolean, slop: number): LQuery | null {
  const forced = (phrase ? env.quoteAnalyzer : env.analyzer) ?? null;
  if (fieldType(env.build, field) !== 'text') return analyzedQuery(env.build, field, text, { operator: env.operator, phrase, slop, lenient: env.lenient, zeroTermsQuery: 'none', where: env.where, analyzer: forced });
  const { terms, positions } = tokens(searchAnalyzer(env.build, field, forced, phrase));
  if (terms.length <= 1) return terms.length === 0 ? null : termQuery(field, terms[0]);
  if (phrase) return { type: 'phrase', field, terms, positions: env.positionIncrements === false ? terms.map((_, i) => i) : positions, slop };
  const occur = env.operator === 'and' ? 'must' : 'should';
  return booleanQuery(terms.map((term) => ({ occur, query: termQuery(field, term) })));
}

/** MatchQueryParser.parse of the prefix types on one field: match_phrase_prefix, match_bool_prefix. */
function prefixTypeField(env: FieldEnv, field: string, text: string, type: 'phrase_prefix' | 'bool_prefix', slop: number): LQuery {
  const common = { zeroTermsQuery: 'none' as const, lenient: env.lenient, analyzer: env.analyzer ?? null, where: env.where };
  // MatchQueryParser's max_expansions, which query_string leaves at its default
  if (type === 'phrase_prefix') return phrasePrefixQuery(env.build, field, text, { ...common, analyzer: env.quoteAnalyzer ?? null, slop, maxExpansions: 50 });
  // no fuzziness for the words (query_string's applies to term~ only)
  const options = { ...common, operator: env.operator, fuzzy: null };
  return boolPrefixQuery(env.build, field, text, options);
}

/**
 * MultiMatchQueryParser.parse: each field's query of the type for the text, with its boost,
 * combined in a DisjunctionMaxQuery (cross_fields: the fields blended, crossFields.ts); null
 * when the text has no token (zero_terms_query NULL).
 */
export function textQuery(env: FieldEnv, fields: ReadonlyMap<string, number>, text: string, type: TextType, slop: number, tieBreaker: number): LQuery | null {
  const mapped = [...fields].filter(([field]) => fieldType(env.build, field) !== undefined);
  if (mapped.length === 0) return matchNone(`unmapped fields [${[...fields.keys()].join(', ')}]`);
  const analyzed = new Map<Analyzer, AnalyzedTerms>();
  const tokens = (analyzer: Analyzer) => {
    let terms = analyzed.get(analyzer);
    if (terms === undefined) analyzed.set(analyzer, (terms = analyzeTerms(analyzer, text)));
    return terms;
  };
  const quoted = type === 'phrase' || type === 'phrase_prefix';
  const noToken = (field: string) => fieldType(env.build, field) === 'text' && tokens(searchAnalyzer(env.build, field, (quoted ? env.quoteAnalyzer : env.analyzer) ?? null, quoted)).terms.length === 0;
  if (type === 'cross_fields') {
    if (mapped.every(([field]) => noToken(field))) return null;
    const options = { operator: env.operator, minimumShouldMatch: null, tieBreaker, lenient: env.lenient, zeroTermsQuery: 'none' as const, analyzer: env.analyzer ?? null, where: env.where };
    return env.counter.add(crossFieldsQuery(env.build, new Map(mapped), text, options));
  }
  const queries: LQuery[] = [];
  for (const [field, boost] of mapped) {
    let query: LQuery | null;
    if (type === 'phrase_prefix' || type === 'bool_prefix') query = noToken(field) ? null : prefixTypeField(env, field, text, type, slop);
    else query = matchField(env, field, text, tokens, type === 'phrase', slop);
    if (env.counter.add(query) !== null) queries.push(withBoost(query as LQuery, boost));
  }
  return disjunction(queries, tieBreaker);
}

/** The disjunction of one query per field, each boosted (null queries skipped). */
export function perField(fields: ReadonlyMap<string, number>, make: (field: string) => LQuery | null, tieBreaker: number): LQuery | null {
  const queries: LQuery[] = [];
  for (const [field, boost] of fields) {
    const query = make(field);
    if (query !== null) queries.push(withBoost(query, boost));
  }
  return disjunction(queries, tieBreaker);
}

const unmapped = (field: string) => matchNone(`unmapped fields [${field}]`);

/**
 * A prefix on one field: on text fields lowercased, or with `analyze` the text's terms, the last
 * one a prefix (getPossiblyAnalyzedPrefixQuery); on keyword fields as written.
 */
export function prefixField(env: FieldEnv, field: string, text: string, analyze: boolean): LQuery | null {
  const type = fieldType(env.build, field);
  if (type === undefined) return unmapped(field);
  const prefix = (term: string) => prefixLeaf(field, term, false, env.rewrite, env.build.limits.maxClauseCount);
  return leniently(env, field, () => {
    stringFieldOnly(env.build, 'prefix', field, env.where);
    if (type !== 'text') return prefix(normalizeFor(env, field, text, false));
    if (!analyze) return prefix(normalizeFor(env, field, text));
    const tokens = analyzeTerms(searchAnalyzer(env.build, field, env.analyzer ?? null, false), text).terms;
    if (tokens.length === 0) return null;
    if (tokens.length === 1) return prefix(tokens[0]);
    const occur = env.operator === 'and' ? 'must' : 'should';
    return booleanQuery(tokens.map((token, i) => ({ occur, query: i === tokens.length - 1 ? prefix(token) : termQuery(field, token) })));
  });
}

/** A term as the field's search analyzer normalizes it (Analyzer.normalize: lower-cased on most text fields, by a keyword normalizer). */
export function normalizeTerm(env: FieldEnv, field: string, text: string): string {
  return normalizeFor(env, field, text);
}

export { normalizeWildcardPattern };

/** A wildcard pattern on one field (`*` alone: the field exists). */
export function wildcardField(env: FieldEnv, field: string, pattern: string, allowLeadingWildcard: boolean): LQuery {
  if (pattern === '*') return env.counter.add(existsQuery(env.build, field));
  const type = fieldType(env.build, field);
  if (type === undefined) return unmapped(field);
  if (!allowLeadingWildcard && (pattern.startsWith('*') || pattern.startsWith('?'))) throw new ParseError("'*' or '?' not allowed as first character in WildcardQuery");
  return leniently(env, field, () => {
    stringFieldOnly(env.build, 'wildcard', field, env.where);
    // normalizedWildcardQuery: the field's own search analyzer (or normalizer), whatever the query's analyzer
    const normalized = type === 'text' || type === 'keyword' ? normalizeWildcardPattern(pattern, (part) => normalizeFor(env, field, part, false)) : pattern;
    return wildcardLeaf(field, normalized, false, env.rewrite, env.build.limits);
  });
}

/** A regular expression (Lucene's syntax, flags ALL) on one field, not normalized. */
export function regexpField(env: FieldEnv, field: string, pattern: string): LQuery {
  if (fieldType(env.build, field) === undefined) return unmapped(field);
  const maxDeterminizedStates = env.maxDeterminizedStates ?? env.build.limits.maxDeterminizedStates;
  return leniently(env, field, () => {
    stringFieldOnly(env.build, 'regexp', field, env.where);
    try {
      parseRegexpSyntax(pattern, { flags: RegexpFlag.ALL, caseInsensitive: false });
    } catch (err) {
      if (err instanceof RegexpSyntaxError) throw new InvalidQueryError(`${err.message} (in /${pattern}/ at ${env.where})`);
      throw err;
    }
    return regexpLeaf(field, env.build.mapping.normalizeKeyword(field, pattern), { flags: RegexpFlag.ALL, caseInsensitive: false, maxDeterminizedStates }, env.rewrite, env.build.limits.maxClauseCount);
  });
}

/** A range on one field: `null` bounds are open; text fields lowercase the bounds (the analyzer's normalize). */
export function rangeField(env: FieldEnv, field: string, lower: string | null, upper: string | null, includeLower: boolean, includeUpper: boolean): LQuery {
  const type = fieldType(env.build, field);
  if (type === undefined) return unmapped(field);
  const normalize = (bound: string | null) => (bound !== null && (type === 'text' || type === 'keyword') ? normalizeFor(env, field, bound) : bound);
  const spec: RangeSpec = { from: normalize(lower), to: normalize(upper), includeLower, includeUpper, timeZone: type === 'date' ? env.timeZone : null, formats: null };
  return leniently(env, field, () => rangeQuery(env.build, field, spec, env.where));
}

/**
 * A fuzzy term on one field (StringFieldType.fuzzyQuery with Fuzziness.fromEdits): the term
 * normalized by the field's analyzer, FuzzyQuery's default rewrite; on a field of another type
 * nothing when lenient, else a 400.
 */
export function fuzzyField(env: FieldEnv, field: string, text: string, edits: number, params: FuzzyParams): LQuery {
  if (fieldType(env.build, field) === undefined) return unmapped(field);
  const options: FuzzyOptions = { ...params, fuzziness: { auto: false, edits }, rewrite: null };
  return leniently(env, field, () => fuzzyQuery(env.build, field, normalizeTerm(env, field, text), options, env.where));
}

/** BoostQuery wrapping as the classic parser's handleBoost does it (always, when a boost was written). */
export function boosted(query: LQuery | null, boost: number | null): LQuery | null {
  return query === null || boost === null ? query : boostQuery(query, boost);
}
