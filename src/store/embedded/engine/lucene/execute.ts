/**
 * Runs a rewritten query over an index: Weight.createWeight + the scorers, evaluated a query at a
 * time (each sub-query yields its matching documents with their scores) rather than document at
 * a time, with the same results and the same float arithmetic as Lucene 9:
 *
 * - BoostQuery passes boost * outerBoost down (float); leaves score with the boost they receive.
 * - TermQuery / PhraseQuery: LegacyBM25 (see similarity.ts); a term absent from the index has no
 *   scorer (null), which matters to BooleanWeight below.
 * - Constant-score queries (ConstantScoreQuery, MatchAllDocsQuery, leaves) score the boost.
 * - BooleanWeight drops clauses without scorer (a required one empties the query), turns SHOULD
 *   clauses into MUST when there are exactly minimumShouldMatch of them, then
 *   Boolean2ScorerSupplier combines: conjunctions and disjunctions sum their clauses' float scores
 *   in double and round once to float (ConjunctionScorer, DisjunctionSumScorer, WANDScorer,
 *   BooleanScorer), required + optional sum in float (ReqOptSumScorer), a lone FILTER scores 0,
 *   MUST_NOT excludes (ReqExclScorer).
 * - DisjunctionMaxQuery: (float) (max + tieBreaker * (sum of the others, in double)).
 *
 * A double sum of a few floats of similar magnitude is exact, so the order of summation (which
 * Lucene leaves to its heaps) does not change the result.
 */
import { FieldIndex, Positions } from '../fieldIndex';
import { InvertedIndex } from '../invertedIndex';
import { legacyBm25Scorer } from '../similarity';
import { LQuery, BooleanQuery, DisMaxQuery, PhraseQuery, TermQuery, isScoring } from './query';
import { SloppyPhraseMatcher, exactPhraseFreq } from './phrase';

const f = Math.fround;

/** Matching documents and their scores (0 when scores are not needed). */
export type Scores = Map<number, number>;

/**
 * Evaluate a query. Returns null when Lucene would have no scorer at all (e.g. a term that is not
 * in the index), else the matching documents (possibly none).
 */
export function execute(query: LQuery, index: InvertedIndex, boost: number, needsScores: boolean): Scores | null {
  switch (query.type) {
    case 'matchAll': {
      const out: Scores = new Map();
      const score = needsScores ? boost : 0;
      for (const doc of index.docs.keys()) out.set(doc, score);
      return out;
    }
    case 'matchNone':
      return null;
    case 'term':
      return executeTerm(query, index, boost, needsScores);
    case 'phrase':
      return executePhrase(query, index, boost, needsScores);
    case 'boost':
      return execute(query.query, index, f(query.boost * boost), needsScores);
    case 'constantScore': {
      const inner = execute(query.query, index, 1, false);
      if (inner === null) return null;
      return constant(inner.keys(), needsScores ? boost : 0);
    }
    case 'leaf': {
      const out = constant(query.docs(index), needsScores ? boost : 0);
      return out.size === 0 ? null : out;
    }
    case 'disMax':
      return executeDisMax(query, index, boost, needsScores);
    case 'bool':
      return executeBoolean(query, index, boost, needsScores);
  }
}

function constant(docs: Iterable<number>, score: number): Scores {
  const out: Scores = new Map();
  for (const doc of docs) out.set(doc, score);
  return out;
}

function executeTerm(query: TermQuery, index: InvertedIndex, boost: number, needsScores: boolean): Scores | null {
  const field = index.field(query.field);
  const postings = field?.postings(query.term);
  if (field === undefined || postings === undefined) return null;
  const out: Scores = new Map();
  if (!needsScores) {
    for (const doc of postings.keys()) out.set(doc, 0);
    return out;
  }
  const scorer = legacyBm25Scorer(boost, field.collectionStats(), [postings.size]);
  const withFreqs = field.type === 'text';
  for (const [doc, positions] of postings) out.set(doc, scorer.score(withFreqs ? positions.length : 1, field.norm(doc)));
  return out;
}

function executePhrase(query: PhraseQuery, index: InvertedIndex, boost: number, needsScores: boolean): Scores | null {
  const field: FieldIndex | undefined = index.field(query.field);
  if (field === undefined) return null;
  const postings = query.terms.map((term) => field.postings(term));
  if (postings.some((p) => p === undefined)) return null;
  const lists = postings as NonNullable<(typeof postings)[number]>[];
  let rarest = 0;
  for (let i = 1; i < lists.length; i++) if (lists[i].size < lists[rarest].size) rarest = i;
  const scorer = needsScores ? legacyBm25Scorer(boost, field.collectionStats(), lists.map((p) => p.size)) : null;
  const sloppy = query.slop > 0 ? new SloppyPhraseMatcher(query.terms, query.positions, query.slop) : null;
  const out: Scores = new Map();
  for (const doc of lists[rarest].keys()) {
    const positions: Positions[] = [];
    let all = true;
    for (const list of lists) {
      const p = list.get(doc);
      if (p === undefined) {
        all = false;
        break;
      }
      positions.push(p);
    }
    if (!all) continue;
    const freq = sloppy === null ? exactPhraseFreq(positions, query.positions) : sloppy.freq(positions);
    if (freq === 0) continue;
    out.set(doc, scorer === null ? 0 : scorer.score(freq, field.norm(doc)));
  }
  return out;
}

function executeDisMax(query: DisMaxQuery, index: InvertedIndex, boost: number, needsScores: boolean): Scores | null {
  const subs: Scores[] = [];
  for (const disjunct of query.disjuncts) {
    const s = execute(disjunct, index, boost, needsScores);
    if (s !== null) subs.push(s);
  }
  if (subs.length === 0) return null;
  if (subs.length === 1) return subs[0];
  const max: Scores = new Map();
  const others = new Map<number, number>();
  for (const sub of subs) {
    for (const [doc, score] of sub) {
      const current = max.get(doc);
      if (current === undefined) {
        max.set(doc, score);
        others.set(doc, 0);
      } else if (score >= current) {
        others.set(doc, (others.get(doc) as number) + current);
        max.set(doc, score);
      } else {
        others.set(doc, (others.get(doc) as number) + score);
      }
    }
  }
  if (!needsScores) return max;
  const out: Scores = new Map();
  for (const [doc, m] of max) out.set(doc, f(m + (others.get(doc) as number) * query.tieBreaker));
  return out;
}

/** Documents in all of the lists; scores summed (in double, then rounded to float) over `scored`. */
function conjunction(required: Scores[], scored: Scores[]): Scores {
  let smallest = required[0];
  for (const r of required) if (r.size < smallest.size) smallest = r;
  const out: Scores = new Map();
  for (const doc of smallest.keys()) {
    if (!required.every((r) => r.has(doc))) continue;
    let sum = 0;
    for (const s of scored) sum += s.get(doc) as number;
    out.set(doc, f(sum));
  }
  return out;
}

/** Documents matching at least `min` of the lists, scores summed in double and rounded to float. */
function disjunction(lists: Scores[], min: number): Scores {
  const sums = new Map<number, number>();
  const counts = new Map<number, number>();
  for (const list of lists) {
    for (const [doc, score] of list) {
      sums.set(doc, (sums.get(doc) ?? 0) + score);
      counts.set(doc, (counts.get(doc) ?? 0) + 1);
    }
  }
  const out: Scores = new Map();
  for (const [doc, sum] of sums) if ((counts.get(doc) as number) >= min) out.set(doc, f(sum));
  return out;
}

function exclude(main: Scores, prohibited: Scores[]): Scores {
  if (prohibited.length === 0) return main;
  const out: Scores = new Map();
  for (const [doc, score] of main) if (!prohibited.some((p) => p.has(doc))) out.set(doc, score);
  return out;
}

function executeBoolean(query: BooleanQuery, index: InvertedIndex, boost: number, needsScores: boolean): Scores | null {
  let must: Scores[] = [];
  const filter: Scores[] = [];
  let should: Scores[] = [];
  const mustNot: Scores[] = [];
  for (const clause of query.clauses) {
    const scores = execute(clause.query, index, boost, needsScores && isScoring(clause.occur));
    if (scores === null) {
      if (clause.occur === 'must' || clause.occur === 'filter') return null;
      continue;
    }
    if (clause.occur === 'must') must.push(scores);
    else if (clause.occur === 'filter') filter.push(scores);
    else if (clause.occur === 'should') should.push(scores);
    else mustNot.push(scores);
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
  const required = (): Scores => {
    if (must.length + filter.length === 1) {
      if (must.length === 1) return must[0];
      return constant(filter[0].keys(), 0); // a lone FILTER clause scores 0
    }
    return conjunction([...filter, ...must], must);
  };
  const optional = (): Scores => (should.length === 1 ? should[0] : disjunction(should, Math.max(1, minShouldMatch)));

  if (should.length === 0) return exclude(required(), mustNot); // pure conjunction
  if (filter.length === 0 && must.length === 0) return exclude(optional(), mustNot); // pure disjunction

  const req = exclude(required(), mustNot);
  const opt = optional();
  const out: Scores = new Map();
  if (minShouldMatch > 0) {
    // ConjunctionScorer(req, opt): both must match
    for (const [doc, score] of req) {
      const o = opt.get(doc);
      if (o !== undefined) out.set(doc, f(score + o));
    }
  } else {
    // ReqOptSumScorer: float sum of the required score and the optional one when it matches
    for (const [doc, score] of req) {
      const o = opt.get(doc);
      out.set(doc, o === undefined ? score : f(score + o));
    }
  }
  return out;
}
