/**
 * Combining the matches of sub-queries the way Lucene's scorers do, over sorted lists and bitsets:
 *
 * - conjunction (ConjunctionScorer): documents in every required clause, the scores of the scoring
 *   ones summed in double in clause order and rounded once to float;
 * - disjunction (DisjunctionSumScorer, WANDScorer, BooleanScorer): documents in at least `min`
 *   clauses, scores summed in double in clause order, rounded once;
 * - exclusion (ReqExclScorer), required + optional (ReqOptSumScorer: a float sum), and
 *   DisjunctionMaxQuery's (float) (max + tieBreaker * (sum of the others, in double)).
 *
 * Sums follow clause order so that results are bit for bit those of a sequential double sum.
 */
import { hasBit, wordsFor } from '../bitset';
import { Matches, advance } from './matches';

const f = Math.fround;

/** The document at the head of each list, merged in ascending order; visits documents with the lists holding them, in list order. */
class Merge {
  readonly pos: Int32Array;
  /** Lists holding the current document, ascending list order; `count` of them. */
  readonly here: Int32Array;
  count = 0;
  doc = -1;
  private readonly heap: Int32Array;
  private heapSize = 0;

  constructor(private readonly lists: Matches[]) {
    this.pos = new Int32Array(lists.length);
    this.here = new Int32Array(lists.length);
    this.heap = new Int32Array(lists.length);
    if (lists.length > 4) for (let i = 0; i < lists.length; i++) if (lists[i].size > 0) this.push(i);
  }

  private head(i: number): number {
    return (this.lists[i].docs as Int32Array)[this.pos[i]];
  }

  /** Heap order: smaller head document first, then smaller list index. */
  private less(a: number, b: number): boolean {
    const da = this.head(a);
    const db = this.head(b);
    return da < db || (da === db && a < b);
  }

  private push(i: number): void {
    const heap = this.heap;
    let k = this.heapSize++;
    while (k > 0) {
      const parent = (k - 1) >> 1;
      if (!this.less(i, heap[parent])) break;
      heap[k] = heap[parent];
      k = parent;
    }
    heap[k] = i;
  }

  private pop(): number {
    const heap = this.heap;
    const top = heap[0];
    const last = heap[--this.heapSize];
    let k = 0;
    for (;;) {
      let child = 2 * k + 1;
      if (child >= this.heapSize) break;
      if (child + 1 < this.heapSize && this.less(heap[child + 1], heap[child])) child++;
      if (!this.less(heap[child], last)) break;
      heap[k] = heap[child];
      k = child;
    }
    if (this.heapSize > 0) heap[k] = last;
    return top;
  }

  /** Move to the next document; false when every list is exhausted. `pos[i]` of the lists in `here` point at it. */
  next(): boolean {
    const lists = this.lists;
    // lists of the previous document move on
    for (let j = 0; j < this.count; j++) {
      const i = this.here[j];
      this.pos[i]++;
      if (lists.length > 4 && this.pos[i] < lists[i].size) this.push(i);
    }
    this.count = 0;
    if (lists.length <= 4) {
      let min = 2147483647;
      for (let i = 0; i < lists.length; i++) {
        if (this.pos[i] < lists[i].size) {
          const d = (lists[i].docs as Int32Array)[this.pos[i]];
          if (d < min) min = d;
        }
      }
      if (min === 2147483647) return false;
      for (let i = 0; i < lists.length; i++) {
        if (this.pos[i] < lists[i].size && (lists[i].docs as Int32Array)[this.pos[i]] === min) this.here[this.count++] = i;
      }
      this.doc = min;
      return true;
    }
    if (this.heapSize === 0) return false;
    const first = this.pop();
    this.doc = this.head(first);
    this.here[this.count++] = first;
    while (this.heapSize > 0 && this.head(this.heap[0]) === this.doc) this.here[this.count++] = this.pop();
    return true;
  }
}

/**
 * Documents in all of `required` (filter clauses, then must clauses); the score is the double sum
 * of the `scored` ones (the must clauses, in order), rounded to float.
 */
export function conjunction(required: Matches[], scored: Matches[], needsScores: boolean): Matches {
  let constantSum = 0;
  let perDoc = false;
  for (const s of scored) {
    if (s.scores !== null) perDoc = true;
    else constantSum += s.constant;
  }
  perDoc = perDoc && needsScores;
  const constant = perDoc || !needsScores ? 0 : f(constantSum);

  let driver = -1;
  for (let i = 0; i < required.length; i++) {
    if (!required[i].isBits && (driver < 0 || required[i].size < required[driver].size)) driver = i;
  }
  if (driver < 0) {
    // bitsets only: AND them
    let words = Infinity;
    for (const r of required) words = Math.min(words, (r.bits as Uint32Array).length);
    const out = new Uint32Array(words);
    out.set((required[0].bits as Uint32Array).subarray(0, words));
    for (let i = 1; i < required.length; i++) {
      const b = required[i].bits as Uint32Array;
      for (let w = 0; w < words; w++) out[w] &= b[w];
    }
    return Matches.bitsCounted(out, constant);
  }

  const lead = required[driver];
  const leadDocs = lead.docs as Int32Array;
  const k = required.length;
  const pos = new Int32Array(k);
  const scoredIndex = scored.map((s) => required.indexOf(s));
  const out = new Int32Array(lead.size);
  const outScores = perDoc ? new Float32Array(lead.size) : null;
  let n = 0;
  outer: for (let i = 0; i < lead.size; i++) {
    const doc = leadDocs[i];
    for (let c = 0; c < k; c++) {
      if (c === driver) continue;
      const r = required[c];
      if (r.bits !== null) {
        if (!hasBit(r.bits, doc)) continue outer;
      } else {
        const docs = r.docs as Int32Array;
        const p = advance(docs, pos[c], r.size, doc);
        pos[c] = p;
        if (p >= r.size) break outer;
        if (docs[p] !== doc) continue outer;
      }
    }
    if (outScores !== null) {
      let sum = 0;
      for (let j = 0; j < scoredIndex.length; j++) {
        const c = scoredIndex[j];
        const r = required[c];
        sum += c === driver ? lead.scoreAt(i) : r.bits !== null ? r.constant : r.scoreAt(pos[c]);
      }
      outScores[n] = f(sum);
    }
    out[n++] = doc;
  }
  return Matches.list(out, n, outScores, constant);
}

/** The lists as sorted lists merged document by document, and room for their union (with scores when needed). */
function union(lists: Matches[], needsScores: boolean): { inputs: Matches[]; merge: Merge; out: Int32Array; outScores: Float32Array | null } {
  const inputs = lists.map((l) => l.toList());
  let total = 0;
  for (const l of inputs) total += l.size;
  return { inputs, merge: new Merge(inputs), out: new Int32Array(total), outScores: needsScores ? new Float32Array(total) : null };
}

/** Documents in at least `min` (>= 1) of the lists, scores summed in double in list order and rounded to float. */
export function disjunction(lists: Matches[], min: number, needsScores: boolean): Matches {
  if (!needsScores && min <= 1 && (lists.some((l) => l.isBits) || denseUnion(lists))) return unionBits(lists);
  const { inputs, merge, out, outScores } = union(lists, needsScores);
  let n = 0;
  while (merge.next()) {
    if (merge.count < min) continue;
    if (outScores !== null) {
      let sum = 0;
      for (let j = 0; j < merge.count; j++) {
        const i = merge.here[j];
        sum += inputs[i].scoreAt(merge.pos[i]);
      }
      outScores[n] = f(sum);
    }
    out[n++] = merge.doc;
  }
  return Matches.list(out, n, outScores, 0);
}

/**
 * Whether the lists together hold more than one document per 32 of their range: then setting bits
 * is cheaper than merging them in order (what an unscored match under aggregations asks for).
 */
function denseUnion(lists: Matches[]): boolean {
  if (lists.length < 2) return false;
  let total = 0;
  let last = 0;
  for (const l of lists) {
    total += l.size;
    if (l.size > 0) last = Math.max(last, (l.docs as Int32Array)[l.size - 1]);
  }
  return total * 32 > last;
}

function unionBits(lists: Matches[]): Matches {
  let words = 0;
  for (const l of lists) {
    if (l.bits !== null) words = Math.max(words, l.bits.length);
    else if (l.size > 0) words = Math.max(words, wordsFor((l.docs as Int32Array)[l.size - 1] + 1));
  }
  const out = new Uint32Array(words);
  for (const l of lists) {
    if (l.bits !== null) {
      for (let w = 0; w < l.bits.length; w++) out[w] |= l.bits[w];
    } else {
      const docs = l.docs as Int32Array;
      for (let i = 0; i < l.size; i++) out[docs[i] >>> 5] |= 1 << (docs[i] & 31);
    }
  }
  return Matches.bitsCounted(out, 0);
}

/** `main` without the documents of any of `prohibited`. */
export function exclude(main: Matches, prohibited: Matches[]): Matches {
  if (prohibited.length === 0) return main;
  if (main.bits !== null) {
    const out = main.bits.slice();
    for (const p of prohibited) {
      if (p.bits !== null) {
        const n = Math.min(out.length, p.bits.length);
        for (let w = 0; w < n; w++) out[w] &= ~p.bits[w];
      } else {
        const docs = p.docs as Int32Array;
        for (let i = 0; i < p.size; i++) {
          const w = docs[i] >>> 5;
          if (w < out.length) out[w] &= ~(1 << (docs[i] & 31));
        }
      }
    }
    return Matches.bitsCounted(out, main.constant);
  }
  const docs = main.docs as Int32Array;
  const pos = new Int32Array(prohibited.length);
  const out = new Int32Array(main.size);
  const outScores = main.scores === null ? null : new Float32Array(main.size);
  let n = 0;
  outer: for (let i = 0; i < main.size; i++) {
    const doc = docs[i];
    for (let c = 0; c < prohibited.length; c++) {
      const p = prohibited[c];
      if (p.bits !== null) {
        if (hasBit(p.bits, doc)) continue outer;
      } else {
        const pdocs = p.docs as Int32Array;
        const at = advance(pdocs, pos[c], p.size, doc);
        pos[c] = at;
        if (at < p.size && pdocs[at] === doc) continue outer;
      }
    }
    if (outScores !== null) outScores[n] = (main.scores as Float32Array)[i];
    out[n++] = doc;
  }
  return Matches.list(out, n, outScores, main.constant);
}

/**
 * Required + optional: with `both`, documents in both (ConjunctionScorer of the two, a float sum);
 * otherwise every required document, plus the optional score where it matches (ReqOptSumScorer).
 */
export function requiredOptional(req: Matches, opt: Matches, both: boolean): Matches {
  const r = req.toList();
  const docs = r.docs as Int32Array;
  const out = new Int32Array(r.size);
  const outScores = new Float32Array(r.size);
  let n = 0;
  let p = 0;
  for (let i = 0; i < r.size; i++) {
    const doc = docs[i];
    let o = 0;
    let found = false;
    if (opt.bits !== null) {
      found = hasBit(opt.bits, doc);
      o = opt.constant;
    } else {
      p = advance(opt.docs as Int32Array, p, opt.size, doc);
      found = p < opt.size && (opt.docs as Int32Array)[p] === doc;
      if (found) o = opt.scoreAt(p);
    }
    if (!found && both) continue;
    const score = r.scoreAt(i);
    outScores[n] = found ? f(score + o) : score;
    out[n++] = doc;
  }
  return Matches.list(out, n, outScores, 0);
}

/** DisjunctionMaxQuery over two or more sub-results: (float) (max + tieBreaker * (sum of the others in double)). */
export function disjunctionMax(subs: Matches[], tieBreaker: number, needsScores: boolean): Matches {
  const { inputs, merge, out, outScores } = union(subs, needsScores);
  let n = 0;
  while (merge.next()) {
    if (outScores !== null) {
      let max = 0;
      let others = 0;
      for (let j = 0; j < merge.count; j++) {
        const i = merge.here[j];
        const score = inputs[i].scoreAt(merge.pos[i]);
        if (j === 0) {
          max = score;
        } else if (score >= max) {
          others += max;
          max = score;
        } else {
          others += score;
        }
      }
      outScores[n] = f(max + others * tieBreaker);
    }
    out[n++] = merge.doc;
  }
  return Matches.list(out, n, outScores, 0);
}
