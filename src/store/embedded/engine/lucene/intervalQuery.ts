/**
 * Lucene's IntervalQuery (lucene-queries, what Elasticsearch's `intervals` builds), evaluated over
 * an index: the multi-term sources are expanded against their fields' dictionaries first (at most
 * their maxExpansions terms, else Lucene's IllegalStateException, a 400 here), then every document
 * holding one of the query's terms is read: its positions of those terms (from its token streams,
 * one pass per field), the iterator tree of intervals/iterators.ts entered there, and it matches
 * when the tree has an interval. Scores are IntervalScorer's with the default
 * IntervalScoreFunction (saturation, pivot 1): the sloppy frequency S, the float sum over the
 * document's intervals of 1 / max(width - minExtent + 1, 1) (each term added in double, as Lucene
 * 9's IntervalScorer does), then boost * (1 - 1 / (1 + S)) in float.
 */
import { Budget, Steps } from '../budget/budget';
import { FieldIndex } from '../fieldIndex';
import { NO_MORE_INTERVALS, DocPositions, IntervalIterator } from '../intervals/iterators';
import { IntervalsError, MultiTermSource, TermSource } from '../intervals/sources';
import { InvertedIndex } from '../invertedIndex';
import { acceptedTerms } from '../query/leaves';
import { invalid } from '../query/params';
import { sortedUnion } from './docSets';
import { Matches } from './matches';
import { IntervalsQuery } from './query';
import { livePostings } from './termMatches';

const f = Math.fround;
const CHECK = 512;

/** The iterator of a query over an index and the term ids its documents are read for (null: Lucene has no scorer). */
export interface BoundIntervals {
  readonly top: IntervalIterator;
  readonly minExtent: number;
  /** The candidate documents (holding one of the terms), ascending. */
  readonly docs: Int32Array;
  readonly size: number;
  /** A document's positions of the query's terms. */
  positionsOf(doc: number): DocPositions;
}

export function* bindIntervals(query: IntervalsQuery, index: InvertedIndex, budget: Budget): Steps<BoundIntervals | null> {
  const leaves: (TermSource | MultiTermSource)[] = [];
  query.source.leaves(leaves);
  const expansions = new Map<MultiTermSource, number[]>();
  const wanted = new Map<string, Set<number>>();
  const want = (field: string, t: number) => {
    let set = wanted.get(field);
    if (set === undefined) wanted.set(field, (set = new Set()));
    set.add(t);
  };
  for (const leaf of leaves) {
    const field = index.field(leaf.field);
    if (field === undefined || field.terms === null) {
      if (leaf instanceof MultiTermSource) expansions.set(leaf, []);
      continue;
    }
    if (leaf instanceof TermSource) {
      const t = field.termId(leaf.term);
      if (t >= 0) want(leaf.field, t);
      continue;
    }
    if (expansions.has(leaf)) continue;
    const ids = yield* acceptedTerms(field, yield* leaf.automaton(budget), budget);
    if (ids.length > leaf.maxExpansions) throw invalid(`Automaton [${leaf.pattern}] expanded to too many terms (limit ${leaf.maxExpansions})`);
    expansions.set(leaf, ids);
    for (const t of ids) want(leaf.field, t);
  }
  let top: IntervalIterator | null;
  try {
    top = query.source.iterator({ field: (name) => index.field(name), expansion: (source) => expansions.get(source) ?? [], maxClauseCount: query.maxClauseCount });
  } catch (e) {
    if (e instanceof IntervalsError) throw invalid(e.message);
    throw e;
  }
  if (top === null) return null;
  // the candidates: the live documents holding one of the terms
  const lists: { docs: Int32Array; size: number }[] = [];
  for (const [name, ids] of wanted) {
    const field = index.field(name) as FieldIndex;
    for (const t of ids) lists.push(livePostings(field, t));
    if (budget.due()) yield;
  }
  const { docs, size: n } = sortedUnion(lists);
  const fields = [...wanted].map(([name, ids]) => ({ name, field: index.field(name) as FieldIndex, ids }));
  return {
    top,
    minExtent: query.source.minExtent(),
    docs,
    size: n,
    positionsOf(doc) {
      const byField = new Map<string, Map<number, number[]>>();
      for (const { name, field, ids } of fields) byField.set(name, positionsIn(field, doc, ids));
      return { positions: (field, t) => byField.get(field)?.get(t) ?? null };
    },
  };
}

/** The positions of some terms in a document, from its token stream in one pass. */
function positionsIn(field: FieldIndex, doc: number, ids: ReadonlySet<number>): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (!field.present.has(doc)) return out;
  field.forEachPosition(doc, (e, position) => {
    if (!ids.has(e)) return;
    let list = out.get(e);
    if (list === undefined) out.set(e, (list = []));
    list.push(position);
  });
  return out;
}

/** IntervalScorer.freq: the sloppy frequency of the document the iterator is on, from its current interval on. */
export function sloppyFreq(it: IntervalIterator, minExtent: number): number {
  let freq = 0;
  do {
    const length = it.end() - it.start() + 1;
    // Lucene 9: `freq += 1.0 / ...`, a double sum rounded to float (Lucene 10 divides in float)
    freq = f(freq + 1 / Math.max(length - minExtent + 1, 1));
  } while (it.nextInterval() !== NO_MORE_INTERVALS);
  return freq;
}

/** IntervalScoreFunction.saturationFunction(1): boost * (1 - 1 / (1 + S)). */
export function saturation(boost: number, freq: number): number {
  return f(boost * f(1 - f(1 / f(1 + freq))));
}

/** Whether the bound iterator matches a document (positioned on its first interval when it does). */
export function matchesDoc(bound: BoundIntervals, doc: number): boolean {
  return bound.top.enter(bound.positionsOf(doc)) && bound.top.nextInterval() !== NO_MORE_INTERVALS;
}

export function* intervalMatchesSteps(query: IntervalsQuery, index: InvertedIndex, boost: number, needsScores: boolean, budget: Budget): Steps<Matches | null> {
  const bound = yield* bindIntervals(query, index, budget);
  if (bound === null) return null;
  const out = new Int32Array(bound.size);
  const scores = needsScores ? new Float32Array(bound.size) : null;
  let n = 0;
  for (let i = 0; i < bound.size; i++) {
    if (i % CHECK === CHECK - 1 && budget.due()) yield;
    const doc = bound.docs[i];
    if (!matchesDoc(bound, doc)) continue;
    if (scores !== null) scores[n] = saturation(boost, sloppyFreq(bound.top, bound.minExtent));
    out[n++] = doc;
  }
  return Matches.list(out, n, scores, 0);
}
