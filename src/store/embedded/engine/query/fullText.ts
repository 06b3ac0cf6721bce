/**
 * Parameters shared by the full-text clauses (`match`, `match_phrase`, `multi_match`).
 */
import { InvalidQueryError } from '../../../port';
import { JsonObject, hasOwn } from '../json';
import { ANALYZER_NAMES, Analyzer, analyzerByName } from '../analysis/analyzers';
import { LQuery, matchNone } from '../lucene/query';
import { ZeroTermsQuery } from './analyzedQuery';
import { BuildContext } from './context';
import { at, invalid, readBoolean, readEnum, readInteger, readString } from './params';

/** A query's own `analyzer` (or `quote_analyzer`): one of the named analyzers (analysis/analyzers.ts), null when not given. */
export function readAnalyzer(clause: string, obj: JsonObject, path: string, key = 'analyzer'): Analyzer | null {
  if (!hasOwn(obj, key)) return null;
  const name = readString(clause, key, obj[key], at(path, key));
  const analyzer = analyzerByName(name);
  if (analyzer === undefined) throw invalid(`[${clause}] analyzer [${name}] not found at ${at(path, key)} (built-in analyzers: ${ANALYZER_NAMES.join(', ')})`);
  return analyzer;
}

/**
 * The analyzer a full-text query analyzes its text with on a text field (MatchQueryParser.getAnalyzer):
 * the query's own `analyzer` when given, else the field's `search_quote_analyzer` for phrases, its
 * `search_analyzer` otherwise.
 */
export function searchAnalyzer(ctx: BuildContext, field: string, override: Analyzer | null, quoted: boolean): Analyzer {
  if (override !== null) return override;
  const analyzers = ctx.mapping.analyzersOf(field);
  return quoted ? analyzers.searchQuote : analyzers.search;
}

export function readZeroTerms(clause: string, obj: JsonObject, path: string): ZeroTermsQuery {
  return hasOwn(obj, 'zero_terms_query') ? readEnum(clause, 'zero_terms_query', obj.zero_terms_query, ['none', 'all'] as const, at(path, 'zero_terms_query')) : 'none';
}

export function readOperator(clause: string, obj: JsonObject, path: string): 'or' | 'and' {
  return hasOwn(obj, 'operator') ? readEnum(clause, 'operator', obj.operator, ['or', 'and'] as const, at(path, 'operator')) : 'or';
}

export function readLenient(clause: string, obj: JsonObject, path: string): boolean | null {
  return hasOwn(obj, 'lenient') ? readBoolean(clause, 'lenient', obj.lenient, at(path, 'lenient')) : null;
}

export function readSlop(clause: string, obj: JsonObject, path: string): number {
  return hasOwn(obj, 'slop') ? readInteger(clause, 'slop', obj.slop, at(path, 'slop')) : 0;
}

/** Parameters that only matter with fuzziness or synonyms, neither of which exists here: checked, then ignored. */
export function readInertParams(clause: string, obj: JsonObject, path: string): void {
  if (hasOwn(obj, 'auto_generate_synonyms_phrase_query')) readBoolean(clause, 'auto_generate_synonyms_phrase_query', obj.auto_generate_synonyms_phrase_query, at(path, 'auto_generate_synonyms_phrase_query'));
  if (hasOwn(obj, 'fuzzy_transpositions')) readBoolean(clause, 'fuzzy_transpositions', obj.fuzzy_transpositions, at(path, 'fuzzy_transpositions'));
  if (hasOwn(obj, 'prefix_length')) readInteger(clause, 'prefix_length', obj.prefix_length, at(path, 'prefix_length'));
  if (hasOwn(obj, 'max_expansions')) readInteger(clause, 'max_expansions', obj.max_expansions, at(path, 'max_expansions'), 1);
}

export const INERT_PARAMS = ['auto_generate_synonyms_phrase_query', 'fuzzy_transpositions', 'prefix_length', 'max_expansions'];

/** A field's query built by `build`, or nothing there when `lenient` and the field refuses the value (Queries.newLenientFieldQuery). */
export function leniently(lenient: boolean, build: () => LQuery): LQuery {
  try {
    return build();
  } catch (e) {
    if (lenient && e instanceof InvalidQueryError) return matchNone(`lenient: ${e.message}`);
    throw e;
  }
}
