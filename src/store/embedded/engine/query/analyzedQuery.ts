/**
 * The query a full-text clause (`match`, `match_phrase`, each field of `multi_match`) builds for one
 * field, as Elasticsearch's MatchQueryParser does on top of Lucene's QueryBuilder:
 *
 * - text field: the value is analyzed with the field's analyzer (standard); no token gives
 *   zero_terms_query (none: nothing, all: everything); one token a TermQuery; several tokens a
 *   BooleanQuery of TermQuery clauses (SHOULD for operator or, MUST for and), or for a phrase a
 *   PhraseQuery (slop) on the tokens' positions;
 * - keyword field: the keyword analyzer keeps the value whole: a TermQuery;
 * - numeric, date, boolean fields: the field's term query on the value; a value of the wrong type
 *   is an error, unless `lenient` (then nothing matches);
 * - unmapped field: nothing matches.
 */
import { InvalidQueryError } from '../../../port';
import { analyzeText } from '../analyzer';
import { toText } from '../fieldValues';
import { describe } from '../json';
import { LQuery, MATCH_ALL, PhraseQuery, booleanQuery, matchNone, termQuery } from '../lucene/query';
import { BuildContext } from './context';
import { exactQuery, fieldType } from './fieldQueries';
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
}

export function analyzedQuery(ctx: BuildContext, field: string, value: string | number | boolean, options: AnalyzedOptions): LQuery {
  const type = fieldType(ctx, field);
  if (type === undefined) return matchNone(`unmapped field ${field}`);
  const text = toText(value);
  if (text === null) throw invalid(`a query text at ${options.where} must be a string, a number or a boolean, got ${describe(value)}`);
  if (type !== 'text') {
    try {
      return exactQuery(ctx, field, text, options.where);
    } catch (e) {
      if (options.lenient && e instanceof InvalidQueryError) return matchNone(`lenient: ${e.message}`);
      throw e;
    }
  }
  const tokens = analyzeText(text);
  if (tokens.length === 0) return options.zeroTermsQuery === 'all' ? MATCH_ALL : matchNone('no tokens');
  if (tokens.length === 1) return termQuery(field, tokens[0]);
  if (options.phrase) {
    const phrase: PhraseQuery = { type: 'phrase', field, terms: tokens, positions: tokens.map((_, i) => i), slop: options.slop };
    return phrase;
  }
  const occur = options.operator === 'and' ? 'must' : 'should';
  return booleanQuery(tokens.map((t) => ({ occur, query: termQuery(field, t) })));
}
