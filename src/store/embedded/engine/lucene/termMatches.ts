/**
 * TermQuery and PhraseQuery over a field's postings (TermScorer; the phrase matchers in
 * multiPhrase.ts), scored with LegacyBM25 (see similarity.ts) in the same float arithmetic:
 * score = weight - weight / (1 + freq * cache[norm]), each operation rounded to float.
 */
import { hasBit } from '../bitset';
import { FieldIndex } from '../fieldIndex';
import { legacyBm25Scorer, normInverseCache, avgFieldLength } from '../similarity';
import { FREQ_OVERFLOW_MARK, TermPostings } from '../termPostings';
import { Matches } from './matches';
import { positionalMatches } from './multiPhrase';
import { PhraseQuery } from './query';

const f = Math.fround;

/** The live postings of term `t` (a view of the stored postings when the field has no tombstones). */
export function livePostings(field: FieldIndex, t: number): { docs: Int32Array; index: Int32Array | null; size: number } {
  const docs = (field.terms as TermPostings).docs(t);
  if (field.deleted === 0) return { docs, index: null, size: docs.length };
  const present = field.present.words;
  const live = new Int32Array(docs.length);
  const index = new Int32Array(docs.length);
  let n = 0;
  for (let i = 0; i < docs.length; i++) {
    if (hasBit(present, docs[i])) {
      index[n] = i;
      live[n++] = docs[i];
    }
  }
  return { docs: live, index, size: n };
}

/**
 * A term's matches: BM25 scores with frequencies and norms (text), one constant score otherwise
 * (docs-only fields); `docFreq`, when given, replaces the term's own in the idf (blended statistics).
 */
export function termMatches(field: FieldIndex, t: number, boost: number, needsScores: boolean, docFreq?: number): Matches {
  const terms = field.terms as TermPostings;
  const { docs, index, size } = livePostings(field, t);
  if (!needsScores) return Matches.list(docs, size, null, 0);
  const scorer = legacyBm25Scorer(boost, field.collectionStats(), [docFreq ?? terms.df[t]]);
  const freqs = terms.freqs(t);
  if (freqs === null) return Matches.list(docs, size, null, scorer.score(1, 1));
  const weight = scorer.weight;
  const cache = normInverseCache(avgFieldLength(field.collectionStats()));
  const norms = field.norms;
  const scores = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    const doc = docs[i];
    let freq = freqs[index === null ? i : index[i]];
    if (freq === FREQ_OVERFLOW_MARK) freq = field.freq(t, doc, freq);
    scores[i] = f(weight - f(weight / f(1 + f(freq * cache[norms[doc]]))));
  }
  return Matches.list(docs, size, scores, 0);
}

/** Phrase matches (null when a term is missing, as Lucene has no scorer then). */
export function phraseMatches(field: FieldIndex, query: PhraseQuery, boost: number, needsScores: boolean): Matches | null {
  const terms = field.terms;
  if (terms === null) return null;
  const ids: number[] = [];
  for (const term of query.terms) {
    const t = field.termId(term);
    if (t < 0) return null;
    ids.push(t);
  }
  const scorer = needsScores ? legacyBm25Scorer(boost, field.collectionStats(), ids.map((t) => terms.df[t])) : null;
  return positionalMatches(field, { ids: ids.map((t) => [t]), offsets: query.positions, terms: query.terms, slop: query.slop }, scorer);
}
