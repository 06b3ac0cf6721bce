/**
 * The query a full-text clause (`match`, `match_phrase`, each field of `multi_match`) builds for one
 * field, as Elasticsearch's MatchQueryParser does on top of Lucene's QueryBuilder:
 *
 * - text field: the value is analyzed with the query's `analyzer`, else the field's search analyzer
 *   (search_quote_analyzer for a phrase; standard unless the mapping names another); no token gives
 *   zero_terms_query (none: nothing, all: everything); one token a TermQuery; several tokens a
 *   BooleanQuery of TermQuery clauses (SHOULD for operator or, MUST for and), or for a phrase a
 *   PhraseQuery (slop) on the tokens' positions (a removed stop word leaves its position empty);
 * - keyword field: the keyword analyzer keeps the value whole (lower-cased by `normalizer:
 *   lowercase`): a TermQuery; with the query's own `analyzer`, the value is analyzed by it as on a
 *   text field;
 * - with `fuzzy` (fuzziness), a fuzzy query in place of each TermQuery (fuzzy.ts; refused on the
 *   types that are neither text nor keyword, unless `lenient`);
 * - numeric, date, boolean fields: the field's term query on the value; a value of the wrong type
 *   is an error, unless `lenient` (then nothing matches);
 * - unmapped field: nothing matches.
 */
import { InvalidQueryError } from '../../../port';
import { Analyzer, analyzeTerms } from '../analysis/analyzers';
import { toText } from '../fieldValues';
import { describe } from '../json';
import { LQuery, MATCH_ALL, PhraseQuery, booleanQuery, matchNone, termQuery } from '../lucene/query';
import { BuildContext } from './context';
import { exactQuery, fieldType } from './fieldQueries';
import { searchAnalyzer } from './fullText';
import { FuzzyOptions, fuzzyQuery } from './fuzzy';
import { invalid } from './params';

export type ZeroTermsQuery = 'none' | 'all';

export interface AnalyzedOptions {
  operator: 'or' | 'and';
  /** Build a phrase query from several tokens (match_phrase). */
  phrase: boolean;
  slop: number;
  lenient: boolean;
  zeroTermsQuery: ZeroTermsQuery;
  where: string;
  /** `fuzziness` and its parameters: each token (or the value of a keyword field) becomes a fuzzy query. */
  fuzzy?: FuzzyOptions | null;
  /** The query's own `analyzer` (null or absent: the field's). */
  analyzer?: Analyzer | null;
}

export function analyzedQuery(ctx: BuildContext, field: string, value: string | number | boolean, options: AnalyzedOptions): LQuery {
  const type = fieldType(ctx, field);
  if (type === undefined) return matchNone(`unmapped field ${field}`);
  const text = toText(value);
  if (text === null) throw invalid(`a query text at ${options.where} must be a string, a number or a boolean, got ${describe(value)}`);
  // a keyword field is analyzed like a text field only by a query's own analyzer (else its normalizer or the keyword analyzer: the whole value)
  if (type !== 'text' && !(type === 'keyword' && options.analyzer)) {
    try {
      return options.fuzzy ? fuzzyQuery(ctx, field, text, options.fuzzy, options.where) : exactQuery(ctx, field, text, options.where);
    } catch (e) {
      if (options.lenient && e instanceof InvalidQueryError) return matchNone(`lenient: ${e.message}`);
      throw e;
    }
  }
  const { terms: tokens, positions } = analyzeTerms(searchAnalyzer(ctx, field, options.analyzer ?? null, options.phrase), text);
  if (tokens.length === 0) return options.zeroTermsQuery === 'all' ? MATCH_ALL : matchNone('no tokens');
  const fuzzy = options.fuzzy;
  const termOf = (token: string): LQuery => (fuzzy ? fuzzyQuery(ctx, field, token, fuzzy, options.where) : termQuery(field, token));
  if (tokens.length === 1) return termOf(tokens[0]);
  if (options.phrase) {
    const phrase: PhraseQuery = { type: 'phrase', field, terms: tokens, positions, slop: options.slop };
    return phrase;
  }
  const occur = options.operator === 'and' ? 'must' : 'should';
  return booleanQuery(tokens.map((t) => ({ occur, query: termOf(t) })));
}
