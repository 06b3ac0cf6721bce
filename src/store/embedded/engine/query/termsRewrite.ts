/**
 * The query a multi-term query (pattern, fuzzy) stands for once its terms are known, for the
 * rewrite methods that build a query of them (Lucene's MultiTermQuery rewrites). Each term comes
 * with the boost its terms enum gave it: 1 for patterns, FuzzyTermsEnum's edit-distance boost for
 * fuzzy queries. Terms are given in term order (UTF-8 byte order, the dictionary walk's).
 *
 * - `scoring_boolean` (ScoringRewrite.SCORING_BOOLEAN_REWRITE): every term, a TermQuery boosted by
 *   its boost, in a boolean query of SHOULD clauses; more than maxClauseCount terms is
 *   IndexSearcher.TooManyClauses; a negative boost fails as Lucene's BoostQuery does.
 * - `top_terms_N`, `top_terms_boost_N`, `top_terms_blended_freqs_N` (TopTermsRewrite): the best
 *   min(N, maxClauseCount) terms by boost, ties to the smaller term (ScoreTerm.compareTo: the queue
 *   keeps exactly those, whatever the order it meets them in), put back in term order, each boost
 *   floored at 0 ("we allow negative term scores while collecting, but truncate to 0");
 *   `top_terms` scores each with BM25 (TopTermsScoringBooleanQueryRewrite), `top_terms_boost` each
 *   as a constant (TopTermsBoostOnlyBooleanQueryRewrite), `top_terms_blended_freqs` with BM25 on
 *   blended statistics (TopTermsBlendedFreqScoringRewrite, BlendedTermQuery.rewrite with
 *   BOOLEAN_REWRITE): every term scored with the largest document frequency of them, as if all
 *   were as common as the most common one, which keeps a rare misspelling from outscoring the word.
 *   (BlendedTermQuery also sums the total term frequencies, which BM25 does not read.)
 */
import { QueryLimitError } from '../../../port';
import { FieldIndex } from '../fieldIndex';
import { Clause, LQuery, booleanQuery, boostQuery, constantScore, matchNone, termQuery, withBoost } from '../lucene/query';
import { TermPostings } from '../termPostings';
import { invalid } from './params';

export type TermsRewrite =
  | { readonly kind: 'scoring_boolean' }
  | { readonly kind: 'top_terms'; readonly size: number; readonly boostOnly: boolean }
  | { readonly kind: 'top_terms_blended'; readonly size: number };

/** Lucene's BoostQuery constructor check, for the rewrites that keep a term's boost as it is. */
export function checkBoosts(boosts: Float32Array | null): void {
  if (boosts === null) return;
  // (Java prints -1.0f as "-1.0"; the only negative boosts a fuzzy term gets are -1 and -Infinity)
  for (const boost of boosts) if (boost < 0) throw invalid(`boost must be a positive float, got ${Number.isInteger(boost) ? boost.toFixed(1) : String(boost)}`);
}

/** Refuses more terms than a boolean query may hold (ScoringRewrite.checkMaxClauseCount). */
export function checkTermCount(field: string, count: number, maxClauseCount: number): void {
  if (count > maxClauseCount) {
    throw new QueryLimitError('too_many_clauses', { limit: maxClauseCount, detail: ` (the query on ${JSON.stringify(field)} matches ${count} terms)` }, `maxClauseCount is set to ${maxClauseCount}`);
  }
}

/**
 * The query of the terms `ids` (term order) of field `f`, with their boosts (`null`: all 1), as
 * `rewrite` builds it.
 */
export function rewriteTerms(field: string, f: FieldIndex, ids: readonly number[], boosts: Float32Array | null, rewrite: TermsRewrite, maxClauseCount: number): LQuery {
  const terms = f.terms as TermPostings;
  const boostAt = (i: number) => (boosts === null ? 1 : boosts[i]);
  if (rewrite.kind === 'scoring_boolean') {
    checkTermCount(field, ids.length, maxClauseCount);
    checkBoosts(boosts);
    const clauses: Clause[] = ids.map((t, i) => ({ occur: 'should', query: withBoost(termQuery(field, terms.term(t)), boostAt(i)) }));
    return clauses.length === 0 ? matchNone('no term matches') : booleanQuery(clauses);
  }
  const kept = topTerms(ids.length, boostAt, Math.min(rewrite.size, maxClauseCount));
  const df = (f.terms as TermPostings).df;
  let blended = 0;
  if (rewrite.kind === 'top_terms_blended') for (const i of kept) blended = Math.max(blended, df[ids[i]]);
  const clauses: Clause[] = kept.map((i) => {
    const boost = Math.max(0, boostAt(i));
    const term = terms.term(ids[i]);
    let query: LQuery;
    if (rewrite.kind === 'top_terms_blended') query = withBoost(termQuery(field, term, blended), boost);
    else if (rewrite.boostOnly) query = boostQuery(constantScore(termQuery(field, term)), boost);
    else query = withBoost(termQuery(field, term), boost);
    return { occur: 'should', query };
  });
  return clauses.length === 0 ? matchNone('no term matches') : booleanQuery(clauses);
}

/**
 * The indexes of the `size` best terms (boost descending, then term order), in term order:
 * TopTermsRewrite's priority queue, then its sort by term.
 */
export function topTerms(count: number, boostAt: (i: number) => number, size: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  // a stable sort keeps term order among equal boosts: the smaller term wins a tie
  order.sort((a, b) => (boostAt(a) > boostAt(b) ? -1 : boostAt(a) < boostAt(b) ? 1 : 0));
  return order.slice(0, size).sort((a, b) => a - b);
}
