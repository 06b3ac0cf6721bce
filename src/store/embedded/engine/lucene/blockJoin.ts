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

/** The nested documents of each field of a query's chain, from `index` down (null when one level has none). */
export function nestedLevels(index: InvertedIndex, chain: readonly string[]): NestedDocs[] | null {
  const levels: NestedDocs[] = [];
  let at = index;
  for (const path of chain) {
    const nested = at.nested.get(path);
    if (nested === undefined) return null;
    levels.push(nested);
    at = nested.index;
  }
  return levels;
}

/** Each document of the last level's index -> its ancestor in `index` (its parent when the chain has one level). */
export function ancestorOf(levels: readonly NestedDocs[]): (child: number) => number {
  if (levels.length === 1) return (child) => levels[0].parentOf(child);
  return (child) => {
    for (let l = levels.length - 1; l >= 0; l--) child = levels[l].parentOf(child);
    return child;
  };
}

/**
 * The parents matching a `nested` query, with their scores when needed; null (no scorer) when the
 * field has no documents or the child query none. A chain of several levels joins the deepest
 * documents to their ancestors in `index` at once, as ToParentBlockJoinQuery does with the parent
 * filter of the enclosing scope: every matching descendant of a parent counts as its child.
 */
export function* blockJoinSteps(query: NestedQuery, index: InvertedIndex, boost: number, needsScores: boolean, budget: Budget, evaluate: Evaluator): Steps<Matches | null> {
  const levels = nestedLevels(index, query.chain);
  if (levels === null) return null;
  const children = yield* evaluate(query.query, levels[levels.length - 1].index, boost, needsScores && query.scoreMode !== 'none', budget);
  if (children === null) return null;
  return joinToParents(children.toList(), ancestorOf(levels), query.scoreMode, needsScores);
}

/**
 * Matching children (list form, ascending) grouped into their parents (ascending too: a parent's
 * descendants are consecutive, added after the previous parent's).
 */
export function joinToParents(children: Matches, parentOf: (child: number) => number, scoreMode: NestedScoreMode, needsScores: boolean): Matches {
  const docs = children.docs as Int32Array;
  const n = children.size;
  const parents = new Int32Array(n);
  const scoring = needsScores && scoreMode !== 'none';
  const scores = scoring ? new Float32Array(n) : null;
  let count = 0;
  let i = 0;
  while (i < n) {
    const parent = parentOf(docs[i]);
    let score = children.scoreAt(i);
    let freq = 1;
    for (i++; i < n && parentOf(docs[i]) === parent; i++) {
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

/**
 * A parent's descendants at the last level: [first, end) of their numbers (a run: each level's
 * children of a run of documents are a run), empty when it has none.
 */
export function descendantsOf(levels: readonly NestedDocs[], parent: number): { first: number; end: number } {
  let first = parent;
  let end = parent + 1;
  for (const level of levels) {
    let lo = -1;
    let hi = -1;
    for (let doc = first; doc < end; doc++) {
      const children = level.childrenOf(doc);
      if (children.end === children.first) continue;
      if (lo < 0) lo = children.first;
      hi = children.end;
    }
    if (lo < 0) return { first: 0, end: 0 };
    first = lo;
    end = hi;
  }
  return { first, end };
}

/** A parent's matching descendants among `children` (list form, the last level's): [from, to) of their positions. */
export function childrenOfParent(children: Matches, levels: readonly NestedDocs[], parent: number): { from: number; to: number } {
  const { first, end } = descendantsOf(levels, parent);
  const docs = children.docs as Int32Array;
  const from = advance(docs, 0, children.size, first);
  return { from, to: advance(docs, from, children.size, end) };
}
