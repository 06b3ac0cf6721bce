/**
 * `match_phrase`: the tokens in order, `{"match_phrase": {"name": "french guiana"}}` or with
 * `{"query": ..., "slop": 2, "zero_terms_query": ..., "boost": ...}`. Scored as Lucene's PhraseQuery:
 * the idf is the sum of the terms' idfs and the frequency the number of occurrences (exact) or the
 * sum of 1 / (1 + distance) over the sloppy matches. One token is a plain term query.
 */
import { hasOwn, isPlainObject } from '../json';
import { withBoost } from '../lucene/query';
import { analyzedQuery } from './analyzedQuery';
import { ClauseParser } from './context';
import { readAnalyzer, readSlop, readZeroTerms } from './fullText';
import { at, boostOf, checkParams, invalid, readName, readScalar, singleField } from './params';

export const parseMatchPhrase: ClauseParser = (body, path) => {
  const [field, raw] = singleField('match_phrase', body, path);
  const where = at(path, field);
  if (!isPlainObject(raw)) {
    const text = readScalar('match_phrase', 'query', raw, where);
    return { toLucene: (ctx) => analyzedQuery(ctx, field, text, { operator: 'or', phrase: true, slop: 0, lenient: false, zeroTermsQuery: 'none', where }) };
  }
  checkParams('match_phrase', raw, ['query', 'slop', 'boost', '_name', 'zero_terms_query', 'analyzer'], where);
  if (!hasOwn(raw, 'query')) throw invalid(`[match_phrase] at ${where} needs a "query"`);
  const text = readScalar('match_phrase', 'query', raw.query, at(where, 'query'));
  const slop = readSlop('match_phrase', raw, where);
  const boost = boostOf('match_phrase', raw, where);
  const zeroTermsQuery = readZeroTerms('match_phrase', raw, where);
  const analyzer = readAnalyzer('match_phrase', raw, where);
  readName('match_phrase', raw, where);
  return { toLucene: (ctx) => withBoost(analyzedQuery(ctx, field, text, { operator: 'or', phrase: true, slop, lenient: false, zeroTermsQuery, where, analyzer }), boost) };
};
