/**
 * The common query shape, run document at a time without materialising anything: a disjunction of
 * term queries (what `match` builds), alone or as the one MUST clause of a boolean query with FILTER
 * and MUST_NOT clauses (what the gateway's tenant filter makes of every search):
 *
 *   D = [boost] bool(should: [[boost] term, ...], minimumShouldMatch <= 1)  or  [boost] term
 *   query = D  |  bool(must: [D], filter: [...], must_not: [...])
 *
 * Every matching document is counted (totals are exact), but only those that can enter the top k
 * are scored (TopScoreDocCollector + MaxScore): each term has an upper bound of its score (BM25 at
 * the term's largest frequency and the field's shortest length, Lucene's "impacts"); a document
 * whose bound cannot beat the worst of the k kept is skipped. Scores are computed exactly as
 * evaluate.ts does: float BM25 per term, summed in double in clause order, rounded once.
 *
 * D may also be the query of a function_score with one function and no filter, multiplying (its
 * default boost_mode) without min_score, whose function knows the largest factor it gives on the
 * index (ScoreFunction.maxFactor): a popularity or recency boost on a match. Each document's score
 * is then its D score times its factor, as functionScore.ts computes it, and a bound times the
 * largest factor bounds it; once the function's factors are kept (functionFactors.ts), the bound
 * times the document's factor's byte-coded bound, then its score times that, pass it over before
 * its factor is read. Elasticsearch's FunctionScoreQuery scores every match (its scorer's
 * maximum score is unbounded); the page and the total are the same, the scoring of documents that
 * cannot make the page is skipped.
 */
import { hasBit } from '../bitset';
import { FieldIndex } from '../fieldIndex';
import { InvertedIndex } from '../invertedIndex';
import { avgFieldLength, legacyBm25Scorer, normInverseCache } from '../similarity';
import { FREQ_OVERFLOW_MARK, TermPostings } from '../termPostings';
import { InvalidQueryError } from '../../../port';
import { filterMatches } from './evaluate';
import { Factors, functionFactors } from './functionFactors';
import { BLOCK, impactsOf } from './impacts';
import { Matches, advance } from './matches';
import { LQuery, TermQuery } from './query';
import { TopHit } from './topDocs';

const f = Math.fround;
const MAX_TERMS = 16;

interface TermRef {
  query: TermQuery;
  boost: number;
}

export interface DisjunctionShape {
  terms: TermRef[];
  filters: LQuery[];
  mustNot: LQuery[];
  /** D's score multiplied by a function's factor (function_score), or null. */
  scale: Scale | null;
}

/** A function_score's one function over an index: each document's factor, and their largest. */
interface Scale {
  /** The live documents' factors (functionFactors.ts: an array once the function is used again). */
  factors: Factors;
  /** The largest factor, capped at max_boost. */
  max: number;
  maxBoost: number;
}

/**
 * The term disjunction of a (rewritten) query, or null when it has another shape. A function-scored
 * D needs the index it runs on (the function's largest factor there).
 */
export function disjunctionShape(query: LQuery, index?: InvertedIndex): DisjunctionShape | null {
  if (query.type === 'bool') {
    const must = query.clauses.filter((c) => c.occur === 'must');
    // (minimumShouldMatch > 0 without SHOULD clauses matches nothing: left to the general path)
    if (must.length === 1 && query.minimumShouldMatch === 0 && query.clauses.every((c) => c.occur !== 'should')) {
      const scaled = scaledTermsOf(must[0].query, index);
      if (scaled === null) return null;
      const filters = query.clauses.filter((c) => c.occur === 'filter').map((c) => c.query);
      const mustNot = query.clauses.filter((c) => c.occur === 'must_not').map((c) => c.query);
      return { ...scaled, filters, mustNot };
    }
  }
  const scaled = scaledTermsOf(query, index);
  return scaled === null ? null : { ...scaled, filters: [], mustNot: [] };
}

/** D, or a function_score of D that can be pruned (see the header), with its terms and scale. */
function scaledTermsOf(query: LQuery, index: InvertedIndex | undefined): { terms: TermRef[]; scale: Scale | null } | null {
  let boost = 1;
  let q = query;
  while (q.type === 'boost') {
    boost = f(q.boost * boost);
    q = q.query;
  }
  if (q.type !== 'functionScore') {
    const terms = termsOf(query, 1);
    return terms === null ? null : { terms, scale: null };
  }
  // FunctionScoreQuery passes its boost to its sub-query (evaluate.ts does the same)
  const fn = q.functions[0];
  if (index === undefined || q.functions.length !== 1 || fn.filter !== null || q.boostMode !== 'multiply' || q.boostOutside || q.minScore !== null || q.scoreMode === 'avg') return null;
  const terms = termsOf(q.query, boost);
  if (terms === null) return null;
  const max = fn.maxFactor?.(index) ?? null;
  if (max === null) return null;
  return { terms, scale: { factors: functionFactors(fn, index), max: Math.min(max, q.maxBoost), maxBoost: q.maxBoost } };
}

/** The terms of D with the boost each receives (as evaluate passes boosts down), or null. */
function termsOf(query: LQuery, boost: number): TermRef[] | null {
  while (query.type === 'boost') {
    boost = f(query.boost * boost);
    query = query.query;
  }
  if (query.type === 'term') return [{ query, boost }];
  if (query.type !== 'bool' || query.minimumShouldMatch > 1 || query.clauses.length > MAX_TERMS) return null;
  const out: TermRef[] = [];
  for (const clause of query.clauses) {
    if (clause.occur !== 'should') return null;
    let q = clause.query;
    let b = boost;
    while (q.type === 'boost') {
      b = f(q.boost * b);
      q = q.query;
    }
    if (q.type !== 'term') return null;
    out.push({ query: q, boost: b });
  }
  return out;
}

/** One term's postings and scorer. */
interface Clause {
  docs: Int32Array;
  freqs: Uint8Array | null;
  field: FieldIndex;
  t: number;
  norms: Uint8Array;
  cache: Float32Array;
  weight: number;
  /** Docs-only fields: the one score. */
  constant: number;
  /** The largest score the term can give. */
  bound: number;
}

export interface DisjunctionResult {
  total: number;
  /** The best k, best first. */
  top: TopHit<never>[];
  /** Every match in index order (`total` of them), when asked for (a search's aggregations). */
  docs?: Int32Array;
}

/**
 * Total and top k of a disjunction shape; null when Lucene would have no scorer for the query (the
 * search then has no hits).
 */
export function runDisjunction(shape: DisjunctionShape, index: InvertedIndex, k: number, listDocs = false): DisjunctionResult | null {
  const clauses: Clause[] = [];
  for (const { query, boost } of shape.terms) {
    const field = index.field(query.field);
    const t = field === undefined ? -1 : field.termId(query.term);
    if (t < 0) continue; // no scorer: the clause is dropped
    clauses.push(clause(field as FieldIndex, t, boost, k > 0, query.docFreq));
  }
  if (clauses.length === 0) return null;
  const filters: Matches[] = [];
  for (const q of shape.filters) {
    const m = filterMatches(q, index);
    if (m === null) return null;
    filters.push(m);
  }
  const excluded: Matches[] = [];
  for (const q of shape.mustNot) {
    const m = filterMatches(q, index);
    if (m !== null && m.size > 0) excluded.push(m);
  }
  return collect(clauses, filters, excluded, index.dead > 0 ? index.live.words : null, k, shape.scale, index, listDocs);
}

function clause(field: FieldIndex, t: number, boost: number, scoring: boolean, docFreq?: number): Clause {
  const terms = field.terms as TermPostings;
  const stats = field.collectionStats();
  const scorer = legacyBm25Scorer(boost, stats, [docFreq ?? terms.df[t]]);
  const freqs = terms.freqs(t);
  const cache = normInverseCache(avgFieldLength(stats));
  const weight = scorer.weight;
  let bound = 0;
  let constant = 0;
  if (scoring) {
    if (freqs === null) {
      constant = bound = scorer.score(1, 1);
    } else {
      // monotonic in freq * cache[norm]: the largest frequency and the shortest length bound it
      bound = f(weight - f(weight / f(1 + f(terms.maxFreq[t] * cache[field.minNorm]))));
    }
  }
  return { docs: terms.docs(t), freqs, field, t, norms: field.norms, cache, weight, constant, bound };
}

function collect(clauses: Clause[], filters: Matches[], excluded: Matches[], live: Uint32Array | null, k: number, scale: Scale | null, index: InvertedIndex, listDocs: boolean): DisjunctionResult {
  if (clauses.length === 1 && filters.length === 0 && excluded.length === 0 && clauses[0].field.deleted === 0 && scale === null) {
    // one term, every posting a live match
    const result = collectOneTerm(clauses[0], k);
    return listDocs ? { ...result, docs: clauses[0].docs.slice() } : result;
  }
  const factorsArray = scale === null ? null : scale.factors.array;
  // the matches, when listed: at most every posting of every term
  let listed = 0;
  let docs: Int32Array | undefined;
  if (listDocs) {
    let most = 0;
    for (const c of clauses) most += c.docs.length;
    docs = new Int32Array(most);
  }
  const n = clauses.length;
  const pos = new Int32Array(n);
  const filterPos = new Int32Array(filters.length);
  const excludedPos = new Int32Array(excluded.length);
  const heap = new TopHeap(k);
  let total = 0;
  // bound of each set of matching clauses (a bit per clause), summed in clause order like the scores
  const bounds = n <= 8 ? new Float64Array(1 << n) : null;
  if (bounds !== null) {
    for (let mask = 1; mask < bounds.length; mask++) {
      let sum = 0;
      for (let i = 0; i < n; i++) if (mask & (1 << i)) sum += clauses[i].bound;
      bounds[mask] = n === 1 ? sum : f(sum);
    }
  }
  // function-scored: each bound times the largest factor (what a document can reach at most)
  const most = scale === null ? null : bounds !== null ? bounds.map((b) => f(b * scale.max)) : null;
  const maxFactor = scale === null ? 1 : scale.max;
  const codes = scale === null ? null : scale.factors.codes;
  const levels = scale === null ? null : scale.factors.levels;
  for (;;) {
    let doc = 2147483647;
    for (let i = 0; i < n; i++) {
      const c = clauses[i];
      if (pos[i] < c.docs.length && c.docs[pos[i]] < doc) doc = c.docs[pos[i]];
    }
    if (doc === 2147483647) break;
    let mask = 0;
    for (let i = 0; i < n; i++) {
      const c = clauses[i];
      if (pos[i] < c.docs.length && c.docs[pos[i]] === doc) {
        mask |= 1 << i;
        pos[i]++;
      }
    }
    if (live !== null && !hasBit(live, doc)) continue;
    if (!accepted(doc, filters, filterPos, true) || !accepted(doc, excluded, excludedPos, false)) continue;
    total++;
    if (docs !== undefined) docs[listed++] = doc;
    if (k === 0) continue;
    // (nothing is skipped before the page is full; a tie loses: later in index order)
    let factor = 1;
    if (heap.full) {
      const bound = bounds !== null ? bounds[mask] : boundOf(clauses, mask);
      if (scale === null) {
        if (bound <= heap.minScore) continue; // cannot beat the worst kept
      } else {
        if ((most !== null ? most[mask] : f(bound * maxFactor)) <= heap.minScore) continue;
        if (codes !== null) {
          // its factor's bound: a byte (functionFactors.ts), which passes most documents over under
          // a decay far from its origin
          if (f(bound * levels![codes[doc]]) <= heap.minScore) continue;
        } else {
          // (first use of the function: no codes yet, the factor itself)
          factor = Math.min(scale.factors.compute!(doc), scale.maxBoost);
          if (f(bound * factor) <= heap.minScore) continue;
        }
      }
    } else if (scale !== null && codes === null) {
      factor = Math.min(scale.factors.compute!(doc), scale.maxBoost);
    }
    // the exact score: each matching term's float score, summed in double in clause order
    let sum = 0;
    for (let i = 0; i < n; i++) {
      if ((mask & (1 << i)) === 0) continue;
      const c = clauses[i];
      if (c.freqs === null) {
        sum += c.constant;
      } else {
        let freq = c.freqs[pos[i] - 1];
        if (freq === FREQ_OVERFLOW_MARK) freq = c.field.freq(c.t, doc, freq);
        const w = c.weight;
        sum += f(w - f(w / f(1 + f(freq * c.cache[c.norms[doc]]))));
      }
    }
    const score = n === 1 ? sum : f(sum);
    if (scale === null) {
      heap.offer(doc, score, 0);
      continue;
    }
    if (codes !== null) {
      // the factor itself (8 bytes per document, mostly out of the processor's caches) is read only
      // when the score times its bound can beat the worst kept
      if (heap.full && f(score * levels![codes[doc]]) <= heap.minScore) continue;
      factor = Math.min((factorsArray as Float64Array)[doc], scale.maxBoost);
    }
    heap.offer(doc, scaledScore(score, factor, doc, index), 0);
  }
  return docs === undefined ? { total, top: heap.sorted() } : { total, top: heap.sorted(), docs: docs.subarray(0, listed) };
}

/**
 * A document's function score from its factor capped at max_boost (functionScores in
 * functionScore.ts: one function, boost_mode multiply, CombineFunction.MULTIPLY).
 */
function scaledScore(score: number, capped: number, doc: number, index: InvertedIndex): number {
  const scaled = f(score * capped);
  if (scaled < 0 || Number.isNaN(scaled)) throw new InvalidQueryError(`function score query returned an invalid score: ${scaled} for document ${JSON.stringify(index.idOfDoc(doc))}`);
  return scaled;
}

/**
 * One term, nothing filtered, no tombstones: the total is the term's document frequency, and only
 * blocks of postings whose bound (impacts.ts) can beat the worst hit kept are read. Within a block,
 * the score is a monotonic function of x = freq * cache[norm]: a document whose x is not above the
 * x of the worst hit kept cannot beat it, and is passed over before its score is computed; when even
 * its frequency times the block's largest norm inverse is not above, before its norm is read.
 */
function collectOneTerm(c: Clause, k: number): DisjunctionResult {
  const total = (c.field.terms as TermPostings).df[c.t];
  if (k === 0) return { total, top: [] };
  const heap = new TopHeap(k);
  const { docs, freqs, norms, cache, weight } = c;
  const impacts = freqs === null ? null : impactsOf(c.field, c.t);
  for (let b = 0; b * BLOCK < docs.length; b++) {
    if (heap.full && c.bound <= heap.minScore) break; // nothing left can compete
    let bound = c.bound;
    // the largest norm inverse in the block: freq * shortest sets an upper bound of x for a document
    let shortest = Infinity;
    if (impacts !== null) {
      shortest = cache[impacts.minNorm[b]];
      bound = f(weight - f(weight / f(1 + f(impacts.maxFreq[b] * shortest))));
    }
    for (let i = b * BLOCK, end = Math.min(docs.length, i + BLOCK); i < end; i++) {
      if (heap.full && bound <= heap.minScore) break; // the rest of the block cannot compete
      const doc = docs[i];
      if (freqs === null) {
        heap.offer(doc, c.constant, 0);
        continue;
      }
      let freq = freqs[i];
      if (freq === FREQ_OVERFLOW_MARK) freq = c.field.freq(c.t, doc, freq);
      // (cache is non-increasing in the norm byte: x <= f(freq * shortest), known without reading the norm, a random access)
      if (heap.full && f(freq * shortest) <= heap.minX) continue;
      const x = f(freq * cache[norms[doc]]);
      if (heap.full && x <= heap.minX) continue;
      heap.offer(doc, f(weight - f(weight / f(1 + x))), x);
    }
  }
  return { total, top: heap.sorted() };
}

/**
 * The k best (score, then index order), each with the x its score came from when the caller has one
 * (one term: x = freq * cache[norm]); the root is the worst.
 */
class TopHeap {
  private readonly docs: Int32Array;
  private readonly scores: Float64Array;
  private readonly xs: Float64Array;
  private size = 0;

  /** Scratch arrays shared by every heap (searches run one at a time, and a heap does not outlive its search). */
  private static docs = new Int32Array(16);
  private static scores = new Float64Array(16);
  private static xs = new Float64Array(16);

  constructor(private readonly k: number) {
    if (TopHeap.docs.length < k) {
      TopHeap.docs = new Int32Array(k);
      TopHeap.scores = new Float64Array(k);
      TopHeap.xs = new Float64Array(k);
    }
    this.docs = TopHeap.docs;
    this.scores = TopHeap.scores;
    this.xs = TopHeap.xs;
  }

  get full(): boolean {
    return this.size === this.k;
  }

  get minScore(): number {
    return this.scores[0];
  }

  get minX(): number {
    return this.xs[0];
  }

  /** Documents come in index order: one that only ties the worst kept loses. */
  offer(doc: number, score: number, x: number): void {
    const { docs, scores, xs } = this;
    if (this.size < this.k) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!worse(score, doc, scores[parent], docs[parent])) break;
        scores[at] = scores[parent];
        docs[at] = docs[parent];
        xs[at] = xs[parent];
        at = parent;
      }
      scores[at] = score;
      docs[at] = doc;
      xs[at] = x;
      return;
    }
    if (score <= scores[0]) return;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.k) break;
      if (child + 1 < this.k && worse(scores[child + 1], docs[child + 1], scores[child], docs[child])) child++;
      if (!worse(scores[child], docs[child], score, doc)) break;
      scores[at] = scores[child];
      docs[at] = docs[child];
      xs[at] = xs[child];
      at = child;
    }
    scores[at] = score;
    docs[at] = doc;
    xs[at] = x;
  }

  sorted(): TopHit<never>[] {
    const top: TopHit<never>[] = [];
    for (let i = 0; i < this.size; i++) top.push({ doc: this.docs[i], score: this.scores[i], keys: [] });
    return top.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}

function boundOf(clauses: Clause[], mask: number): number {
  let sum = 0;
  for (let i = 0; i < clauses.length; i++) if (mask & (1 << i)) sum += clauses[i].bound;
  return clauses.length === 1 ? sum : f(sum);
}

/** Whether `doc` is in every set (`inside`) or in none of them (not `inside`); cursors move forward only. */
function accepted(doc: number, sets: Matches[], cursors: Int32Array, inside: boolean): boolean {
  for (let j = 0; j < sets.length; j++) {
    const m = sets[j];
    let found: boolean;
    if (m.bits !== null) {
      found = hasBit(m.bits, doc);
    } else {
      const docs = m.docs as Int32Array;
      const p = advance(docs, cursors[j], m.size, doc);
      cursors[j] = p;
      found = p < m.size && docs[p] === doc;
    }
    if (found !== inside) return false;
  }
  return true;
}

/** worse(a, b): lower score, or same score and later document. */
function worse(scoreA: number, docA: number, scoreB: number, docB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && docA > docB);
}
