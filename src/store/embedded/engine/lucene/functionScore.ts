/**
 * Scores of a FunctionScoreQuery (see query.ts) from the matches of its sub-query and of its
 * functions' filters, with Elasticsearch's arithmetic (FunctionScoreQuery.FunctionFactorScorer):
 *
 * - the factor of a document (computeScore, in double): `first` the first function whose filter
 *   holds it, `max`/`min` of those that do, `multiply` their product (1 when none), `sum` their
 *   sum and `avg` their sum divided by the sum of their weights (1 when none);
 * - combined with the sub-query's float score by the boost mode (CombineFunction), the factor
 *   capped at `max_boost`, rounded once to float; no function at all: the sub-query's score;
 * - `min_score` (MinScoreScorer) keeps the documents scoring at least it;
 * - a negative or NaN score is refused, as Elasticsearch refuses it.
 *
 * Lucene's FunctionScoreQuery.boostByQuery (`boosting`, `boostOutside`): the sub-query scored with
 * boost 1, its score times the factor in double, times the outer boost, rounded once.
 */
import { InvalidQueryError } from '../../../port';
import { InvertedIndex } from '../invertedIndex';
import { Matches, advance } from './matches';
import { CombineMode, FunctionScoreQuery } from './query';

const f = Math.fround;

/** Whether the sub-query's scores are needed (they are not when the boost mode replaces them). */
export function subQueryNeedsScores(query: FunctionScoreQuery): boolean {
  return query.boostOutside || query.boostMode !== 'replace';
}

/** A membership test of ascending documents in a set of matches (null: every document). */
function memberTest(matches: Matches | null): (doc: number) => boolean {
  if (matches === null) return () => true;
  if (matches.bits !== null) return (doc) => matches.has(doc);
  const docs = matches.docs as Int32Array;
  const size = matches.size;
  let at = 0;
  return (doc) => {
    at = advance(docs, at, size, doc);
    return at < size && docs[at] === doc;
  };
}

/**
 * A function's largest factor, computed at the end of a range of values, made a little larger: the
 * factor of a document is computed by other roundings (a mean of distances, say) that may land a
 * few ulps above it, and a bound must never be below a score.
 */
export function boundSlack(max: number): number {
  return max * (1 + 1e-9);
}

/** CombineFunction.combine: the float score of a document. */
export function combine(mode: CombineMode, queryScore: number, factor: number, maxBoost: number): number {
  const capped = Math.min(factor, maxBoost);
  switch (mode) {
    case 'multiply':
      return f(queryScore * capped);
    case 'replace':
      return f(capped);
    case 'sum':
      return f(queryScore + capped);
    case 'avg':
      return f((capped + queryScore) / 2.0);
    case 'min':
      return f(Math.min(queryScore, capped));
    case 'max':
      return f(Math.max(queryScore, capped));
  }
}

/**
 * The documents of `sub` (the sub-query's matches) with their function scores; `filters[i]` the
 * matches of function i's filter (null: no filter; Matches.EMPTY: a filter matching nothing).
 */
export function functionScores(query: FunctionScoreQuery, index: InvertedIndex, sub: Matches, filters: readonly (Matches | null)[], boost: number, needsScores: boolean): Matches {
  const list = sub.toList();
  const docs = list.docs as Int32Array;
  const size = list.size;
  const functions = query.functions;
  const n = functions.length;
  const bound = functions.map((fn) => fn.bind(index));
  const tests = filters.map(memberTest);
  const weights = functions.map((fn) => fn.weight);
  const matched = new Uint8Array(n);
  const subScores = subQueryNeedsScores(query);
  const outDocs = new Int32Array(size);
  const outScores = new Float32Array(size);
  const minScore = query.minScore === null ? null : f(query.minScore);
  // computeScore of one function that applies to every document: first, max, min, multiply and sum give its score; avg its score over its weight
  const single = n === 1 && filters[0] === null && query.scoreMode !== 'avg' ? bound[0] : null;
  let kept = 0;
  for (let i = 0; i < size; i++) {
    const doc = docs[i];
    const s = subScores ? list.scoreAt(i) : 0;
    let score: number;
    if (n === 0) {
      score = query.boostOutside ? f(s * boost) : s;
    } else {
      // one function for every document (the common case): its score is the factor
      let factor: number;
      if (single !== null) {
        factor = single(doc, s);
      } else {
        for (let j = 0; j < n; j++) matched[j] = tests[j](doc) ? 1 : 0;
        factor = computeFactor(query, bound, matched, weights, doc, s);
      }
      if (query.boostOutside) {
        // FunctionScoreQuery (Lucene): (float) (score * factor * boost), a negative factor scores 0
        const value = s * factor;
        score = value >= 0 ? f(value * boost) : 0;
      } else {
        score = combine(query.boostMode, s, factor, query.maxBoost);
      }
    }
    if (score < 0 || Number.isNaN(score)) {
      throw new InvalidQueryError(`function score query returned an invalid score: ${score} for document ${JSON.stringify(index.idOfDoc(doc))}`);
    }
    if (minScore !== null && score < minScore) continue;
    outDocs[kept] = doc;
    outScores[kept] = score;
    kept++;
  }
  return Matches.list(outDocs, kept, needsScores ? outScores : null, 0);
}

/** FunctionFactorScorer.computeScore. */
function computeFactor(query: FunctionScoreQuery, bound: ((doc: number, s: number) => number)[], matched: Uint8Array, weights: readonly number[], doc: number, s: number): number {
  const n = bound.length;
  let factor = 1;
  switch (query.scoreMode) {
    case 'first':
      for (let i = 0; i < n; i++) {
        if (matched[i] === 1) {
          factor = bound[i](doc, s);
          break;
        }
      }
      return factor;
    case 'max': {
      let max = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < n; i++) if (matched[i] === 1) max = Math.max(bound[i](doc, s), max);
      return max !== Number.NEGATIVE_INFINITY ? max : factor;
    }
    case 'min': {
      let min = Number.POSITIVE_INFINITY;
      for (let i = 0; i < n; i++) if (matched[i] === 1) min = Math.min(bound[i](doc, s), min);
      return min !== Number.POSITIVE_INFINITY ? min : factor;
    }
    case 'multiply':
      for (let i = 0; i < n; i++) if (matched[i] === 1) factor *= bound[i](doc, s);
      return factor;
    default: {
      let total = 0;
      let weightSum = 0;
      for (let i = 0; i < n; i++) {
        if (matched[i] === 1) {
          total += bound[i](doc, s);
          weightSum += weights[i];
        }
      }
      if (weightSum !== 0) {
        factor = total;
        if (query.scoreMode === 'avg') factor /= weightSum;
      }
      return factor;
    }
  }
}
