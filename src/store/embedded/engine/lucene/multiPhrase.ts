/**
 * Phrase matching over a field's token streams, shared by PhraseQuery (one term per position) and
 * MultiPhraseQuery (any of several terms per position: Lucene's UnionPostingsEnum, whose positions
 * are the union of its terms' positions). The documents holding every position are found from the
 * postings (a position's documents: the union of its terms'), then each one's phrase frequency is
 * read from its token stream (ExactPhraseMatcher, SloppyPhraseMatcher: phrase.ts).
 *
 * A long evaluation (a prefix expanded to thousands of terms) checks the search's budget as it goes.
 *
 * MultiPhraseQuery scores as Lucene's MultiPhraseWeight: one BM25 scorer whose idf is the sum of the
 * idfs of every term of every position found in the index (a term at two positions counts twice),
 * and no scorer at all (null) when a position has none of its terms in the index.
 */
import { hasBit } from '../bitset';
import { Budget, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { FieldIndex } from '../fieldIndex';
import { BM25Scorer, legacyBm25Scorer } from '../similarity';
import { unionOfPostings } from './docSets';
import { Matches, advance } from './matches';
import { SloppyPhraseMatcher, exactPhraseFreq } from './phrase';
import { MultiPhraseQuery } from './query';

/** A phrase over term ids: the ids accepted at each phrase position, and each position's offset. */
export interface PositionalPhrase {
  readonly ids: readonly (readonly number[])[];
  readonly offsets: readonly number[];
  /** The terms of each position, as the sloppy matcher groups repeats by them. */
  readonly terms: readonly (string | readonly string[])[];
  readonly slop: number;
}

/** The live documents having at least one of the terms, ascending. */
function liveDocsOfAny(field: FieldIndex, ids: readonly number[]): Int32Array {
  const postings = field.terms!;
  if (ids.length === 1) {
    const docs = postings.docs(ids[0]);
    if (field.deleted === 0) return docs;
    const present = field.present.words;
    return docs.filter((doc) => hasBit(present, doc));
  }
  const lists = ids.map((t) => postings.docs(t));
  let maxDoc = 0;
  for (const list of lists) if (list.length > 0) maxDoc = Math.max(maxDoc, list[list.length - 1] + 1);
  return unionOfPostings(lists, field, 0, maxDoc).docList();
}

/** Phrase matches of a field (documents ascending), scored by `scorer` when given. */
export function positionalMatches(field: FieldIndex, phrase: PositionalPhrase, scorer: BM25Scorer | null): Matches {
  return runToEnd(positionalSteps(field, phrase, scorer, UNLIMITED));
}

/** Work units (terms looked up, documents read) between two checks of the budget. */
const CHECK = 1024;

/** positionalMatches, as steps checking the search's budget (a prefix may expand to many terms, over many documents). */
export function* positionalSteps(field: FieldIndex, phrase: PositionalPhrase, scorer: BM25Scorer | null, budget: Budget): Steps<Matches> {
  const lists: Int32Array[] = [];
  for (const ids of phrase.ids) {
    lists.push(liveDocsOfAny(field, ids));
    if (budget.due()) yield;
  }
  let lead = 0;
  for (let i = 1; i < lists.length; i++) if (lists[i].length < lists[lead].length) lead = i;
  const sloppy = phrase.slop > 0 ? new SloppyPhraseMatcher(phrase.terms, phrase.offsets, phrase.slop) : null;
  // for each term id, the phrase positions accepting it
  const slots = new Map<number, number[]>();
  phrase.ids.forEach((ids, j) => {
    for (const t of ids) slots.set(t, [...(slots.get(t) ?? []), j]);
  });
  const cursors = new Int32Array(lists.length);
  const leadDocs = lists[lead];
  const positions: number[][] = lists.map(() => []);
  const out = new Int32Array(leadDocs.length);
  const scores = scorer === null ? null : new Float32Array(leadDocs.length);
  let n = 0;
  let read = 0;
  outer: for (const doc of leadDocs) {
    if (++read % CHECK === 0 && budget.due()) yield;
    for (let j = 0; j < lists.length; j++) {
      if (j === lead) continue;
      const list = lists[j];
      const p = advance(list, cursors[j], list.length, doc);
      cursors[j] = p;
      if (p >= list.length) break outer;
      if (list[p] !== doc) continue outer;
    }
    collectPositions(field, doc, slots, positions);
    const freq = sloppy === null ? exactPhraseFreq(positions, phrase.offsets) : sloppy.freq(positions);
    if (freq === 0) continue;
    if (scores !== null) scores[n] = (scorer as BM25Scorer).score(freq, field.norm(doc));
    out[n++] = doc;
  }
  return Matches.list(out, n, scores, 0);
}

/** The positions of each phrase position's terms in a document, read from its token stream in one pass (ascending). */
function collectPositions(field: FieldIndex, doc: number, slots: ReadonlyMap<number, readonly number[]>, out: number[][]): void {
  for (const list of out) list.length = 0;
  field.forEachPosition(doc, (e, position) => {
    const at = slots.get(e);
    if (at !== undefined) for (const j of at) out[j].push(position);
  });
}

/** MultiPhraseQuery matches (null when a position has none of its terms in the index: no scorer). */
export function multiPhraseMatches(field: FieldIndex, query: MultiPhraseQuery, boost: number, needsScores: boolean): Matches | null {
  return runToEnd(multiPhraseSteps(field, query, boost, needsScores, UNLIMITED));
}

/** multiPhraseMatches, as steps checking the search's budget. */
export function* multiPhraseSteps(field: FieldIndex, query: MultiPhraseQuery, boost: number, needsScores: boolean, budget: Budget): Steps<Matches | null> {
  const postings = field.terms;
  if (postings === null) return null;
  const ids: number[][] = [];
  const terms: string[][] = [];
  const docFreqs: number[] = [];
  let looked = 0;
  for (const termArray of query.termArrays) {
    const found: number[] = [];
    const foundTerms: string[] = [];
    for (const term of termArray) {
      if (++looked % CHECK === 0 && budget.due()) yield;
      const t = field.termId(term);
      if (t < 0 || postings.df[t] === 0) continue;
      found.push(t);
      foundTerms.push(term);
      docFreqs.push(postings.df[t]);
    }
    if (found.length === 0) return null;
    ids.push(found);
    terms.push(foundTerms);
  }
  const scorer = needsScores ? legacyBm25Scorer(boost, field.collectionStats(), docFreqs) : null;
  return yield* positionalSteps(field, { ids, offsets: query.positions, terms, slop: query.slop }, scorer, budget);
}
