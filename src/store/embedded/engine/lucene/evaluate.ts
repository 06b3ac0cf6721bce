/**
 * Runs a rewritten query over an index: Weight.createWeight + the scorers, evaluated a query at a
 * time over sorted lists and bitsets (see matches.ts, combine.ts), with the same results and the
 * same float arithmetic as Lucene 9:
 *
 * - BoostQuery passes boost * outerBoost down (float); leaves score with the boost they receive.
 * - TermQuery / PhraseQuery / MultiPhraseQuery: LegacyBM25 (see similarity.ts); a term absent from
 *   the index has no scorer (null), which matters to BooleanWeight below.
 * - Constant-score queries (ConstantScoreQuery, MatchAllDocsQuery, leaves) score the boost; leaf
 *   document sets come from the index's filter cache.
 * - BooleanWeight drops clauses without scorer (a required one empties the query), turns SHOULD
 *   clauses into MUST when there are exactly minimumShouldMatch of them, then
 *   Boolean2ScorerSupplier combines: conjunctions and disjunctions sum their clauses' float scores
 *   in double and round once to float (ConjunctionScorer, DisjunctionSumScorer, WANDScorer,
 *   BooleanScorer), required + optional sum in float (ReqOptSumScorer), a lone FILTER scores 0,
 *   MUST_NOT excludes (ReqExclScorer).
 * - DisjunctionMaxQuery: (float) (max + tieBreaker * (sum of the others, in double)).
 * - ToParentBlockJoinQuery (`nested`): the child query over the nested field's documents, joined
 *   to their parents (blockJoin.ts).
 *
 * Sums are done in clause order, so results are those of a sequential double sum, bit for bit.
 */
import { Budget, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { InvertedIndex } from '../invertedIndex';
import { blockJoinSteps } from './blockJoin';
import { combinedFieldMatches } from './combinedField';
import { intervalMatchesSteps } from './intervalQuery';
import { conjunction, disjunction, disjunctionMax, exclude, requiredOptional } from './combine';
import { fromIterable, unionOfPostings } from './docSets';
import { expandSteps } from './expand';
import { functionScores, subQueryNeedsScores } from './functionScore';
import { Matches } from './matches';
import { multiPhraseSteps } from './multiPhrase';
import { BooleanQuery, DisMaxQuery, FunctionScoreQuery, LQuery, LeafQuery, isScoring, queryKey } from './query';
import { phraseMatches, termMatches } from './termMatches';

const f = Math.fround;

/**
 * Evaluate a query. Returns null when Lucene would have no scorer at all (e.g. a term that is not
 * in the index), else the matching documents (possibly none).
 */
export function evaluate(query: LQuery, index: InvertedIndex, boost: number, needsScores: boolean): Matches | null {
  return runToEnd(evaluateSteps(query, index, boost, needsScores, UNLIMITED));
}

/**
 * evaluate, as steps that check the search's budget between clauses and inside pattern expansions
 * (budget/budget.ts): a query of thousands of clauses pauses between them instead of keeping the
 * event loop, and stops at its deadline. Multi-term queries are first rewritten into the queries
 * of their terms (expand.ts), as IndexSearcher.rewrite does before creating weights.
 */
export function* evaluateSteps(query: LQuery, index: InvertedIndex, boost: number, needsScores: boolean, budget: Budget): Steps<Matches | null> {
  return yield* evaluateNode(yield* expandSteps(query, index, budget), index, boost, needsScores, budget);
}

function* evaluateNode(query: LQuery, index: InvertedIndex, boost: number, needsScores: boolean, budget: Budget): Steps<Matches | null> {
  switch (query.type) {
    case 'matchAll':
      return Matches.bits(index.live.words, index.live.size, needsScores ? boost : 0);
    case 'matchNone':
      return null;
    case 'term': {
      const field = index.field(query.field);
      const t = field === undefined ? -1 : field.termId(query.term);
      return t < 0 ? null : termMatches(field!, t, boost, needsScores, query.docFreq);
    }
    case 'phrase': {
      const field = index.field(query.field);
      return field === undefined ? null : phraseMatches(field, query, boost, needsScores);
    }
    case 'multiPhrase': {
      const field = index.field(query.field);
      return field === undefined ? null : yield* multiPhraseSteps(field, query, boost, needsScores, budget);
    }
    case 'boost':
      return yield* evaluateNode(query.query, index, f(query.boost * boost), needsScores, budget);
    case 'constantScore': {
      const inner = yield* evaluateNode(query.query, index, 1, false, budget);
      return inner === null ? null : inner.withConstant(needsScores ? boost : 0);
    }
    case 'leaf': {
      if (query.settle !== undefined) yield* query.settle(budget);
      if (query.prepare !== undefined && (query.expand !== undefined || !index.filterCache.has(query.key))) yield* query.prepare(index, budget);
      if (query.expand !== undefined) return yield* evaluateNode(query.expand(index), index, boost, needsScores, budget);
      const docs = leafDocs(query, index);
      return docs.size === 0 ? null : docs.withConstant(needsScores ? boost : 0);
    }
    case 'disMax':
      return yield* evaluateDisMax(query, index, boost, needsScores, budget);
    case 'bool':
      return yield* evaluateBoolean(query, index, boost, needsScores, budget);
    case 'functionScore':
      return yield* evaluateFunctionScore(query, index, boost, needsScores, budget);
    case 'combinedField':
      return combinedFieldMatches(query, index, boost, needsScores);
    case 'intervals':
      return yield* intervalMatchesSteps(query, index, boost, needsScores, budget);
    case 'nested':
      return yield* blockJoinSteps(query, index, boost, needsScores, budget, evaluateSteps);
  }
}

/**
 * FunctionScoreQuery.createWeight: without scores (and no min_score) the sub-query alone; else the
 * sub-query (given the boost, unless the boost applies outside), the functions' filters without
 * scores, and the scores of functionScore.ts.
 */
function* evaluateFunctionScore(query: FunctionScoreQuery, index: InvertedIndex, boost: number, needsScores: boolean, budget: Budget): Steps<Matches | null> {
  const subBoost = query.boostOutside ? 1 : boost;
  if (!needsScores && query.minScore === null) return yield* evaluateNode(query.query, index, subBoost, false, budget);
  const sub = yield* evaluateNode(query.query, index, subBoost, subQueryNeedsScores(query), budget);
  if (sub === null) return null;
  const filters: (Matches | null)[] = [];
  for (const fn of query.functions) {
    if (budget.due()) yield;
    filters.push(fn.filter === null ? null : ((yield* filterSteps(fn.filter, index, budget)) ?? Matches.EMPTY));
  }
  if (budget.due()) yield;
  return functionScores(query, index, sub, filters, boost, needsScores);
}

/**
 * A query in filter context (no scores): like evaluate, except that a term whose postings cover
 * more than one document in 32 comes from the filter cache as a bitset (tested in O(1) per document
 * instead of searched in a long list).
 */
export function filterMatches(query: LQuery, index: InvertedIndex): Matches | null {
  return runToEnd(filterSteps(runToEnd(expandSteps(query, index, UNLIMITED)), index, UNLIMITED));
}

function* filterSteps(query: LQuery, index: InvertedIndex, budget: Budget): Steps<Matches | null> {
  if (query.type === 'term') {
    const field = index.field(query.field);
    const t = field === undefined ? -1 : field.termId(query.term);
    if (t < 0) return null;
    const terms = field!.terms!;
    if (terms.df[t] * 32 > index.maxDoc) {
      return index.filterCache.get(queryKey(query), index, (fromDoc) => unionOfPostings([terms.docs(t)], field!, fromDoc, index.maxDoc));
    }
  }
  return yield* evaluateNode(query, index, 1, false, budget);
}

/** The documents of a leaf (through the index's filter cache when the leaf is a cacheable set). */
export function leafDocs(query: LeafQuery, index: InvertedIndex): Matches {
  const docSet = query.docSet;
  if (docSet === undefined) return fromIterable(query.docs(index), 0);
  return index.filterCache.get(query.key, index, (fromDoc) => docSet(index, fromDoc));
}

function* evaluateDisMax(query: DisMaxQuery, index: InvertedIndex, boost: number, needsScores: boolean, budget: Budget): Steps<Matches | null> {
  const subs: Matches[] = [];
  for (const disjunct of query.disjuncts) {
    if (budget.due()) yield;
    const s = yield* evaluateNode(disjunct, index, boost, needsScores, budget);
    if (s !== null) subs.push(s);
  }
  if (subs.length === 0) return null;
  if (subs.length === 1) return subs[0];
  return disjunctionMax(subs, query.tieBreaker, needsScores);
}

function* evaluateBoolean(query: BooleanQuery, index: InvertedIndex, boost: number, needsScores: boolean, budget: Budget): Steps<Matches | null> {
  let must: Matches[] = [];
  const filter: Matches[] = [];
  let should: Matches[] = [];
  const mustNot: Matches[] = [];
  for (const clause of query.clauses) {
    if (budget.due()) yield;
    const scoring = isScoring(clause.occur);
    const matches = scoring ? yield* evaluateNode(clause.query, index, boost, needsScores, budget) : yield* filterSteps(clause.query, index, budget);
    if (matches === null) {
      if (clause.occur === 'must' || clause.occur === 'filter') return null;
      continue;
    }
    if (clause.occur === 'must') must.push(matches);
    else if (clause.occur === 'filter') filter.push(matches);
    else if (clause.occur === 'should') should.push(matches);
    else mustNot.push(matches);
  }

  let minShouldMatch = query.minimumShouldMatch;
  if (should.length === minShouldMatch) {
    // any optional clauses are in fact required
    must = [...must, ...should];
    should = [];
    minShouldMatch = 0;
  }
  if (filter.length === 0 && must.length === 0 && should.length === 0) return null;
  if (should.length < minShouldMatch) return null;
  if (!needsScores && minShouldMatch === 0 && must.length + filter.length > 0) should = [];

  // Boolean2ScorerSupplier
  const required = (): Matches => {
    if (must.length + filter.length === 1) {
      if (must.length === 1) return must[0];
      return filter[0].withConstant(0); // a lone FILTER clause scores 0
    }
    return conjunction([...filter, ...must], must, needsScores);
  };
  const optional = (): Matches => (should.length === 1 ? should[0] : disjunction(should, Math.max(1, minShouldMatch), needsScores));

  if (should.length === 0) return exclude(required(), mustNot); // pure conjunction
  if (filter.length === 0 && must.length === 0) return exclude(optional(), mustNot); // pure disjunction
  return requiredOptional(exclude(required(), mustNot), optional(), minShouldMatch > 0);
}
