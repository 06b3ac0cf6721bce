/**
 * TermQuery and PhraseQuery over a field's postings (TermScorer, ExactPhraseMatcher,
 * SloppyPhraseMatcher), scored with LegacyBM25 (see similarity.ts) in the same float arithmetic:
 * score = weight - weight / (1 + freq * cache[norm]), each operation rounded to float.
 */
import { hasBit } from '../bitset';
import { FieldIndex, GAP, POSITION_INCREMENT_GAP } from '../fieldIndex';
import { legacyBm25Scorer, normInverseCache, avgFieldLength } from '../similarity';
import { FREQ_OVERFLOW_MARK, TermPostings } from '../termPostings';
import { Matches, advance } from './matches';
import { SloppyPhraseMatcher, exactPhraseFreq } from './phrase';
import { PhraseQuery } from './query';

const f = Math.fround;

/** The live postings of term `t` (a view of the stored postings when the field has no tombstones). */
function livePostings(field: FieldIndex, t: number): { docs: Int32Array; index: Int32Array | null; size: number } {
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

/** A term's matches: BM25 scores with frequencies and norms (text), one constant score otherwise (docs-only fields). */
export function termMatches(field: FieldIndex, t: number, boost: number, needsScores: boolean): Matches {
  const terms = field.terms as TermPostings;
  const { docs, index, size } = livePostings(field, t);
  if (!needsScores) return Matches.list(docs, size, null, 0);
  const scorer = legacyBm25Scorer(boost, field.collectionStats(), [terms.df[t]]);
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
  let rarest = 0;
  for (let i = 1; i < ids.length; i++) if (terms.df[ids[i]] < terms.df[ids[rarest]]) rarest = i;
  const scorer = needsScores ? legacyBm25Scorer(boost, field.collectionStats(), ids.map((t) => terms.df[t])) : null;
  const sloppy = query.slop > 0 ? new SloppyPhraseMatcher(query.terms, query.positions, query.slop) : null;
  const lists = ids.map((t) => terms.docs(t));
  const cursors = new Int32Array(ids.length);
  const lead = lists[rarest];
  const present = field.present.words;
  const positions: number[][] = ids.map(() => []);
  const out = new Int32Array(lead.length);
  const scores = needsScores ? new Float32Array(lead.length) : null;
  let n = 0;
  outer: for (let i = 0; i < lead.length; i++) {
    const doc = lead[i];
    if (field.deleted > 0 && !hasBit(present, doc)) continue;
    for (let j = 0; j < lists.length; j++) {
      if (j === rarest) continue;
      const list = lists[j];
      const p = advance(list, cursors[j], list.length, doc);
      cursors[j] = p;
      if (p >= list.length) break outer;
      if (list[p] !== doc) continue outer;
    }
    collectPositions(field, doc, ids, positions);
    const freq = sloppy === null ? exactPhraseFreq(positions, query.positions) : sloppy.freq(positions);
    if (freq === 0) continue;
    if (scores !== null) scores[n] = (scorer as NonNullable<typeof scorer>).score(freq, field.norm(doc));
    out[n++] = doc;
  }
  return Matches.list(out, n, scores, 0);
}

/** The positions of each phrase term in a document, read from its token stream in one pass. */
function collectPositions(field: FieldIndex, doc: number, ids: readonly number[], out: number[][]): void {
  for (const list of out) list.length = 0;
  const tokens = field.tokens;
  if (tokens === null) return;
  const entries = tokens.entries;
  let position = -1;
  for (let i = tokens.from(doc), end = tokens.to(doc); i < end; i++) {
    const e = entries[i];
    if (e === GAP) {
      position += POSITION_INCREMENT_GAP;
      continue;
    }
    position += 1;
    for (let j = 0; j < ids.length; j++) if (ids[j] === e) out[j].push(position);
  }
}
