/**
 * The first matches of a constant-scoring query in index order, without evaluating all of it: what
 * Lucene's TopScoreDocCollector does when the total need not be exact (`track_total_hits` false or
 * a bound). Once it holds k hits that all score the same, no later document can compete (ties go
 * to the earlier document), so it raises its minimum competitive score and the constant-score
 * scorers stop (ConstantScoreScorer.setMinCompetitiveScore); counting stops at the bound.
 *
 * Here: a query that is a conjunction of constant-scoring parts (match_all, constant_score, a bool
 * of `must`/`filter`/`must_not` clauses whose scoring clauses score constants, as the gateway's
 * match_all + tenant filter is) has each part evaluated (a cached leaf costs nothing) and their
 * intersection walked from the first document, stopping at `limit`. A leaf of a few terms that the
 * filter cache does not hold (a tenant filter not searched lately) is not evaluated: its posting
 * lists are read in document order as the walk goes (as Lucene's disjunction of term scorers is),
 * so that the walk stops after the first matches without reading the rest. Anything else: null,
 * and the search evaluates the query whole.
 */
import { hasBit, nextSetBit } from '../bitset';
import { Budget, Steps } from '../budget/budget';
import { InvertedIndex } from '../invertedIndex';
import { evaluateSteps } from './evaluate';
import { Matches, advance } from './matches';
import { LQuery, LeafPostings } from './query';

const f = Math.fround;

interface Conjunction {
  sets: Matches[];
  /** Leaves read from their posting lists as the walk goes (not evaluated). */
  lazy: LeafPostings[];
  excluded: Matches[];
  score: number;
}

/** undefined: no document can match; null: not a conjunction of constant-scoring parts. */
type Plan = Conjunction | null | undefined;

function* whole(query: LQuery, index: InvertedIndex, boost: number, scoring: boolean, budget: Budget): Steps<Plan> {
  const m = yield* evaluateSteps(query, index, boost, scoring, budget);
  if (m === null || m.size === 0) return undefined;
  if (m.scores !== null) return null;
  return { sets: [m], lazy: [], excluded: [], score: scoring ? m.constant : 0 };
}

function* plan(query: LQuery, index: InvertedIndex, boost: number, scoring: boolean, budget: Budget): Steps<Plan> {
  switch (query.type) {
    case 'matchAll':
      return { sets: [Matches.bits(index.live.words, index.live.size)], lazy: [], excluded: [], score: scoring ? boost : 0 };
    case 'boost':
      return yield* plan(query.query, index, f(query.boost * boost), scoring, budget);
    case 'constantScore': {
      const inner = yield* plan(query.query, index, 1, false, budget);
      if (inner === null || inner === undefined) return inner;
      return { ...inner, score: scoring ? boost : 0 };
    }
    case 'bool': {
      if (query.clauses.some((c) => c.occur === 'should')) return null;
      const out: Conjunction = { sets: [], lazy: [], excluded: [], score: 0 };
      let sum = 0;
      let musts = 0;
      for (const clause of query.clauses) {
        if (clause.occur === 'must_not') {
          const m = yield* evaluateSteps(clause.query, index, 1, false, budget);
          if (m !== null && m.size > 0) out.excluded.push(m);
          continue;
        }
        const scoringClause = scoring && clause.occur === 'must';
        const sub = yield* plan(clause.query, index, boost, scoringClause, budget);
        if (sub === undefined) return undefined;
        if (sub === null) return null;
        out.sets.push(...sub.sets);
        out.lazy.push(...sub.lazy);
        out.excluded.push(...sub.excluded);
        if (clause.occur === 'must') {
          sum += sub.score;
          musts++;
        }
      }
      if (out.sets.length + out.lazy.length === 0) return null;
      // BooleanWeight: the must clauses' scores summed in double, rounded once (a lone filter scores 0)
      out.score = scoring && musts > 0 ? f(sum) : 0;
      return out;
    }
    case 'leaf': {
      // a set of a few terms not cached: read as the walk goes (what evaluating it would build and cache)
      if (query.postings === undefined || query.settle !== undefined || index.filterCache.has(query.key)) return yield* whole(query, index, boost, scoring, budget);
      const postings = query.postings(index);
      if (postings.lists.every((l) => l.length === 0)) return undefined;
      return { sets: [], lazy: [postings], excluded: [], score: scoring ? boost : 0 };
    }
    default:
      return yield* whole(query, index, boost, scoring, budget);
  }
}

export interface FirstDocs {
  docs: Int32Array;
  /** How many were found (at most the limit). */
  size: number;
  /** The score every one of them has. */
  score: number;
}

/** The first `limit` matches of `query` in index order, or null when the query is not of the shape above. */
export function* firstDocsSteps(query: LQuery, index: InvertedIndex, limit: number, needsScores: boolean, budget: Budget): Steps<FirstDocs | null> {
  const p = yield* plan(query, index, 1, needsScores, budget);
  if (p === null) return null;
  if (p === undefined) return { docs: new Int32Array(0), size: 0, score: 0 };
  const cap = Math.min(limit, index.maxDoc);
  if (p.lazy.length > 0) return { ...leapfrog(p, cap), score: p.score };
  if (p.sets.length === 1 && p.excluded.length === 0) {
    // one part (a cached filter's bitset, say): its size is known, only the first documents are read
    const only = p.sets[0];
    const size = Math.min(cap, only.size);
    const docs = new Int32Array(size);
    if (only.bits !== null) {
      for (let doc = nextSetBit(only.bits, 0), i = 0; doc !== -1 && i < size; doc = nextSetBit(only.bits, doc + 1)) docs[i++] = doc;
    } else docs.set((only.docs as Int32Array).subarray(0, size));
    return { docs, size, score: p.score };
  }
  const out = new Int32Array(Math.max(0, cap));
  let n = 0;
  const bitSets = p.sets.filter((s) => s.isBits);
  const lists = p.sets.filter((s) => !s.isBits);
  const accept = (doc: number) => {
    for (const s of lists) if (!s.has(doc)) return false;
    for (const e of p.excluded) if (e.has(doc)) return false;
    return true;
  };
  if (lists.length > 0) {
    // the shortest list drives, every other part is tested
    lists.sort((a, b) => a.size - b.size);
    const driver = lists[0];
    const docs = driver.docs as Int32Array;
    for (let i = 0; i < driver.size && n < cap; i++) {
      const doc = docs[i];
      let ok = true;
      for (const b of bitSets) if (((b.bits as Uint32Array)[doc >>> 5] & (1 << (doc & 31))) === 0) ok = false;
      if (ok && accept(doc)) out[n++] = doc;
    }
  } else {
    // bitsets only: AND them a word at a time, from the first
    const words = Math.min(...bitSets.map((b) => (b.bits as Uint32Array).length));
    for (let w = 0; w < words && n < cap; w++) {
      let word = (bitSets[0].bits as Uint32Array)[w];
      for (let j = 1; j < bitSets.length && word !== 0; j++) word &= (bitSets[j].bits as Uint32Array)[w];
      while (word !== 0 && n < cap) {
        const bit = 31 - Math.clz32(word & -word);
        word &= word - 1;
        const doc = (w << 5) | bit;
        if (p.excluded.length === 0 || accept(doc)) out[n++] = doc;
      }
    }
  }
  return { docs: out, size: n, score: p.score };
}

/** A part of the conjunction read in document order: the first of its documents at or after a target (-1: none). */
interface DocWalk {
  readonly cost: number;
  advance(target: number): number;
}

function setWalk(m: Matches): DocWalk {
  if (m.bits !== null) {
    const bits = m.bits;
    return { cost: m.size, advance: (target) => nextSetBit(bits, target) };
  }
  const docs = m.docs as Int32Array;
  const size = m.size;
  let at = 0;
  return {
    cost: size,
    advance(target) {
      at = advance(docs, at, size, target);
      return at < size ? docs[at] : -1;
    },
  };
}

/** The union of a leaf's posting lists, live documents only (a disjunction of term scorers). */
function postingsWalk({ lists, present, deleted }: LeafPostings): DocWalk {
  const at = new Int32Array(lists.length);
  let cost = 0;
  for (const list of lists) cost += list.length;
  return {
    cost,
    advance(target) {
      for (;;) {
        let min = -1;
        for (let i = 0; i < lists.length; i++) {
          const list = lists[i];
          const p = (at[i] = advance(list, at[i], list.length, target));
          if (p < list.length && (min < 0 || list[p] < min)) min = list[p];
        }
        if (min < 0 || deleted === 0 || hasBit(present, min)) return min;
        target = min + 1;
      }
    },
  };
}

/**
 * The first `cap` documents in every part and in no excluded set: the cheapest part leads, the
 * others are advanced to its document (ConjunctionDISI), so a walk that stops early reads only the
 * postings up to its last document.
 */
function leapfrog(p: Conjunction, cap: number): { docs: Int32Array; size: number } {
  const walks = [...p.sets.map(setWalk), ...p.lazy.map(postingsWalk)].sort((a, b) => a.cost - b.cost);
  const [lead, ...others] = walks;
  const out = new Int32Array(Math.max(0, cap));
  let n = 0;
  let doc = n < cap ? lead.advance(0) : -1;
  while (doc >= 0) {
    let next = doc;
    for (const other of others) {
      next = other.advance(doc);
      if (next !== doc) break;
    }
    if (next < 0) break;
    if (next !== doc) {
      doc = lead.advance(next);
      continue;
    }
    if (!p.excluded.some((e) => e.has(doc))) {
      out[n++] = doc;
      if (n >= cap) break;
    }
    doc = lead.advance(doc + 1);
  }
  return { docs: out, size: n };
}
