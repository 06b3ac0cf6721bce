/**
 * Query results as a Map (document -> score, documents ascending), the form the tests and the
 * single-document matcher read; searches use `evaluate` (evaluate.ts) and its Matches directly.
 */
import { InvertedIndex } from '../invertedIndex';
import { evaluate } from './evaluate';
import { Matches } from './matches';
import { LQuery } from './query';

/** Matching documents and their scores (0 when scores are not needed). */
export type Scores = Map<number, number>;

/**
 * Evaluate a query. Returns null when Lucene would have no scorer at all (e.g. a term that is not
 * in the index), else the matching documents (possibly none).
 */
export function execute(query: LQuery, index: InvertedIndex, boost: number, needsScores: boolean): Scores | null {
  const matches = evaluate(query, index, boost, needsScores);
  return matches === null ? null : toScores(matches);
}

export function toScores(matches: Matches): Scores {
  const list = matches.toList();
  const docs = list.docs as Int32Array;
  const out: Scores = new Map();
  for (let i = 0; i < list.size; i++) out.set(docs[i], list.scoreAt(i));
  return out;
}
