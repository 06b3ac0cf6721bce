/**
 * `multi_match` with `type: cross_fields`: the fields as one big field, for text spread over
 * several of them (a first and a last name). As Elasticsearch's MultiMatchQueryParser
 * (buildCrossFieldQuery, CrossFieldsQueryBuilder, blendTerms):
 *
 * - the fields are grouped by their search analyzer: text fields by theirs (standard unless the
 *   mapping names another), keyword fields with `normalizer: lowercase` together, all the others
 *   (keyword analyzer: the value whole) together; an `analyzer` given puts every field in one group;
 * - in each group the text is analyzed once; with one field, the group is that field's `match`
 *   query (its boost applied around it); with several, each token is a BlendedTermQuery over the
 *   group's fields (blendedTerm.ts: blended document frequencies, each field's boost on its
 *   TermQuery, tie_breaker between the fields), and a field whose query for the token is not a
 *   plain TermQuery (numbers, dates, `_id`) joins as its own disjunct; the tokens' queries form a
 *   BooleanQuery (SHOULD, or MUST with operator and) to which minimum_should_match applies; no
 *   token gives zero_terms_query;
 * - the groups are combined in a DisjunctionMaxQuery (tie_breaker, 0 by default).
 *
 * A value a field cannot hold (a word for a number) is an error, or matches nothing there when
 * lenient (the default with `fields: ["*"]`).
 */
import { Analyzer } from '../analysis/analyzers';
import { toText } from '../fieldValues';
import { describe } from '../json';
import { LQuery, MATCH_ALL, booleanQuery, disMax, matchNone, withBoost } from '../lucene/query';
import { ZeroTermsQuery } from './analyzedQuery';
import { blendedTermQuery } from './blendedTerm';
import { BuildContext } from './context';
import { exactQuery, fieldType } from './fieldQueries';
import { leniently, searchAnalyzer } from './fullText';
import { applyMinimumShouldMatch } from './minimumShouldMatch';
import { invalid } from './params';

export interface CrossFieldsOptions {
  readonly operator: 'or' | 'and';
  readonly minimumShouldMatch: string | null;
  readonly tieBreaker: number;
  readonly lenient: boolean;
  readonly zeroTermsQuery: ZeroTermsQuery;
  /** `analyzer` when given, else null: each field's own. */
  readonly analyzer: Analyzer | null;
  readonly where: string;
}

/** The field's term query for a token (MappedFieldType.termQuery), or nothing when lenient and it cannot hold it. */
function fieldTermQuery(ctx: BuildContext, field: string, token: string, options: CrossFieldsOptions): LQuery {
  return leniently(options.lenient, () => exactQuery(ctx, field, token, options.where));
}

/** blendTerms: the token over the fields of a group. */
function blendToken(ctx: BuildContext, token: string, fields: readonly [string, number][], options: CrossFieldsOptions): LQuery {
  const blended: { field: string; boost: number }[] = [];
  const others: LQuery[] = [];
  for (const [field, boost] of fields) {
    const query = fieldTermQuery(ctx, field, token, options);
    if (query.type === 'term') blended.push({ field, boost });
    else others.push(withBoost(query, boost));
  }
  const queries = blended.length > 0 ? [...others, blendedTermQuery(token, blended, options.tieBreaker)] : others;
  return queries.length === 1 ? queries[0] : disMax(queries, options.tieBreaker);
}

/** One group's query: its tokens, each a term query (one field) or blended (several). */
function groupQuery(ctx: BuildContext, text: string, fields: readonly [string, number][], analyzer: Analyzer | null, options: CrossFieldsOptions): LQuery {
  const tokens = analyzer === null ? [text] : analyzer.terms(text);
  const tokenQuery = (token: string): LQuery => (fields.length === 1 ? fieldTermQuery(ctx, fields[0][0], token, options) : blendToken(ctx, token, fields, options));
  let query: LQuery;
  if (tokens.length === 0) query = options.zeroTermsQuery === 'all' ? MATCH_ALL : matchNone('no tokens');
  else if (tokens.length === 1) query = tokenQuery(tokens[0]);
  else {
    const occur = options.operator === 'and' ? 'must' : 'should';
    query = booleanQuery(tokens.map((token) => ({ occur, query: tokenQuery(token) })));
  }
  if (query.type === 'bool') query = applyMinimumShouldMatch(query, options.minimumShouldMatch);
  return fields.length === 1 ? withBoost(query, fields[0][1]) : query;
}

/** The cross_fields query over the resolved fields (mapped, with their boosts). */
export function crossFieldsQuery(ctx: BuildContext, fields: ReadonlyMap<string, number>, value: string | number | boolean, options: CrossFieldsOptions): LQuery {
  const text = toText(value);
  if (text === null) throw invalid(`a query text at ${options.where} must be a string, a number or a boolean, got ${describe(value)}`);
  // by search analyzer, in order of first field (null: the keyword analyzer, or a keyword field's normalizer, whose terms exactQuery normalizes)
  const byAnalyzer = new Map<string, { analyzer: Analyzer | null; fields: [string, number][] }>();
  for (const [field, boost] of fields) {
    const analyzer = options.analyzer !== null || fieldType(ctx, field) === 'text' ? searchAnalyzer(ctx, field, options.analyzer, false) : null;
    const key = analyzer !== null ? `analyzer:${analyzer.name}` : ctx.mapping.isLowercased(field) ? 'normalizer:lowercase' : 'keyword';
    let group = byAnalyzer.get(key);
    if (group === undefined) byAnalyzer.set(key, (group = { analyzer, fields: [] }));
    group.fields.push([field, boost]);
  }
  const groups = [...byAnalyzer.values()].map((group) => groupQuery(ctx, text, group.fields, group.analyzer, options));
  if (groups.length === 0) return options.zeroTermsQuery === 'all' ? MATCH_ALL : matchNone('no field');
  return groups.length === 1 ? groups[0] : disMax(groups, options.tieBreaker);
}
