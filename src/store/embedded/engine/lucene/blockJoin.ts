/**
 * Lucene's ToParentBlockJoinQuery (lucene-join, what Elasticsearch's NestedQueryBuilder.doToQuery
 * builds for `nested`): the child query runs over the nested field's hidden documents
 * (nested/nestedDocs.ts), given the boost the join receives (BlockJoinWeight passes it to the
 * child weight); a parent matches when one of its children does, and scores as
 * BlockJoinScorer.setScoreAndFreq combines its matching children's float scores in a double:
 * the first child's score, then for each next one `sum`/`avg` add it, `min`/`max` keep the
 * smaller/larger; `avg` divides by the number of matching children; the result is cast to float.
 * `none` scores 0 (the children are matched without scores).
 */
import { Budget, Steps } from '../budget/budget';
import { InvertedIndex } from '../invertedIndex';
import { NestedDocs } from '../nested/nestedDocs';
import { Matches, advance } from './matches';
import { LQuery, NestedQuery, NestedScoreMode } from './query';

/** Evaluates a query over an index (evaluate.ts's evaluateSteps, passed in to keep the modules apart). */
export type Evaluator = (query: LQuery, index: InvertedIndex, boost: number, needsScores: boolean, budget: Budget) => Steps<Matches | null>;

/** The parents matching a `nested` query, with their scores when needed; null (no scorer) when the field has no documents or the child query none. */
export function* blockJoinSteps(query: NestedQuery, index: InvertedIndex, boost: number, needsScores: boolean, budget: Budget, evaluate: Evaluator): Steps<Matches | null> {
  const nested = index.nested.get(query.path);
  if (nested === undefined) return null;
  const children = yield* evaluate(query.query, nested.index, boost, needsScores && query.scoreMode !== 'none', budget);
  if (children === null) return null;
  return joinToParents(children.toList(), nested, query.scoreMode, needsScores);
}

/** Matching children (list form, ascending) grouped into their parents (ascending too: a parent's children are consecutive, added after the previous parent's). */
export function joinToParents(children: Matches, nested: NestedDocs, scoreMode: NestedScoreMode, needsScores: boolean): Matches {
  const docs = children.docs as Int32Array;
  const n = children.size;
  const parents = new Int32Array(n);
  const scoring = needsScores && scoreMode !== 'none';
  const scores = scoring ? new Float32Array(n) : null;
  let count = 0;
  let i = 0;
  while (i < n) {
    const parent = nested.parentOf(docs[i]);
    let score = children.scoreAt(i);
    let freq = 1;
    for (i++; i < n && nested.parentOf(docs[i]) === parent; i++) {
      const child = children.scoreAt(i);
      freq++;
      if (scoreMode === 'sum' || scoreMode === 'avg') score += child;
      else if (scoreMode === 'min') score = Math.min(score, child);
      else if (scoreMode === 'max') score = Math.max(score, child);
    }
    if (scoreMode === 'avg') score /= freq;
    parents[count] = parent;
    if (scores !== null) scores[count] = score; // (float) score
    count++;
  }
  return Matches.list(parents, count, scores, 0);
}

/** A parent's matching children among `children` (list form): [from, to) of their positions. */
export function childrenOfParent(children: Matches, nested: NestedDocs, parent: number): { from: number; to: number } {
  const { first, end } = nested.childrenOf(parent);
  const docs = children.docs as Int32Array;
  const from = advance(docs, 0, children.size, first);
  return { from, to: advance(docs, from, children.size, end) };
}
