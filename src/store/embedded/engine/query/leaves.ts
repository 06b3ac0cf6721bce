/**
 * The constant-score leaf queries (what Elasticsearch builds for numeric and date terms and ranges,
 * `terms`, `ids`, `prefix`, `wildcard`, `exists`, term ranges and case-insensitive terms). Each reads
 * the field's index: points for numbers, the term dictionary for strings (never every document), and
 * gives a document set that the filter cache keeps (see filterCache.ts).
 */
import { RunAutomaton, intersectSorted, type WalkStop } from '../automaton';
import { LazyAutomaton, atOnce } from './patternCache';
import { Budget, Steps, UNLIMITED, runToEnd } from '../budget/budget';
import { CheckEvery } from '../budget/checkEvery';
import { FieldIndex } from '../fieldIndex';
import { InvertedIndex } from '../invertedIndex';
import { TermPostings } from '../termPostings';
import { bitsFrom, fromIterable, unionOfPostings } from '../lucene/docSets';
import { pointRangeDocs } from '../lucene/pointRanges';
import { Matches } from '../lucene/matches';
import { LQuery, LeafPostings, matchNone, setLeaf } from '../lucene/query';
import { TermsRewrite, checkBoosts, checkTermCount, rewriteTerms } from './termsRewrite';
import { compareUtf8 } from '../strings';

/** Numbers within [lower, upper] (each bound inclusive or not; null: unbounded). */
export interface NumericRange {
  lower: number | null;
  includeLower: boolean;
  upper: number | null;
  includeUpper: boolean;
}

export function inRange(value: number, range: NumericRange): boolean {
  if (range.lower !== null && (range.includeLower ? value < range.lower : value <= range.lower)) return false;
  if (range.upper !== null && (range.includeUpper ? value > range.upper : value >= range.upper)) return false;
  return true;
}

/** Documents with a numeric value equal to `value` (LongPoint/FloatPoint exact query). */
export function pointEquals(field: string, value: number): LQuery {
  return setLeaf(`point:${JSON.stringify([field, value])}`, (index, fromDoc) => {
    const f = index.field(field);
    const points = f?.points;
    if (f === undefined || points === undefined || points === null) return Matches.EMPTY;
    const t = points.id(value);
    return t < 0 || points.df[t] === 0 ? Matches.EMPTY : unionOfPostings([points.docs(t)], f, fromDoc, index.maxDoc);
  });
}

/** Documents with a numeric value in a range (point range query). */
export function pointRange(field: string, range: NumericRange): LQuery {
  if (range.lower !== null && range.upper !== null && (range.lower > range.upper || (range.lower === range.upper && !(range.includeLower && range.includeUpper)))) {
    return matchNone('empty range');
  }
  const key = `range:${JSON.stringify([field, range.lower, range.includeLower, range.upper, range.includeUpper])}`;
  const leaf = setLeaf(key, (index, fromDoc) => {
    const f = index.field(field);
    if (f === undefined || f.points === null || f.pointKeys === null) return Matches.EMPTY;
    return pointRangeDocs(f, range, fromDoc, index.maxDoc);
  });
  return { ...leaf, pointRange: { field, range } };
}

/**
 * The long part of a leaf (a walk over a term dictionary, many term lookups), done as steps in the
 * leaf's `prepare`, within the search's budget, and taken by what reads the leaf right after; when
 * the leaf is read without it (the filter cache appending new documents, a matcher), done at once.
 */
export class Prepared<T> {
  private held: { index: InvertedIndex; value: T } | null = null;

  constructor(private readonly work: (f: FieldIndex, budget: Budget) => Steps<T>) {}

  *prepare(index: InvertedIndex, f: FieldIndex, budget: Budget): Steps<void> {
    this.held = { index, value: yield* this.work(f, budget) };
  }

  take(index: InvertedIndex, f: FieldIndex): T {
    const value = this.held !== null && this.held.index === index ? this.held.value : runToEnd(this.work(f, UNLIMITED));
    this.held = null;
    return value;
  }
}

/** A term test made at once, as the steps LeafTerms.matcher returns (a set of terms, a term range). */
// eslint-disable-next-line require-yield
function* atOnceTest(test: Set<string> | ((term: string) => boolean)): Steps<(term: string) => boolean> {
  return typeof test === 'function' ? test : (term) => test.has(term);
}

/** Terms looked up per budget check of a large `terms` query. */
const TERMS_CHUNK = 4096;

/**
 * Sets of at most this many terms can be read lazily, a posting list per term (LeafQuery.postings):
 * Lucene's TermInSetQuery rewrites such a set to a disjunction of term queries
 * (BOOLEAN_REWRITE_TERM_COUNT_THRESHOLD), whose postings are read document by document, and builds
 * the whole set only beyond it. The gateway's tenant filter is a set of two.
 */
const LAZY_TERMS = 16;

/** The posting lists of some terms of a field (those it has). */
function termPostings(index: InvertedIndex, field: string, terms: readonly string[]): LeafPostings {
  const f = index.field(field);
  const lists: Int32Array[] = [];
  if (f === undefined || f.terms === null) return { lists, present: new Uint32Array(0), deleted: 0 };
  for (const term of terms) {
    const t = f.termId(term);
    if (t >= 0) lists.push(f.terms.docs(t));
  }
  return { lists, present: f.present.words, deleted: f.deleted };
}

/**
 * Documents having any of the terms (TermInSetQuery). The terms are looked up in `prepare`, a
 * chunk at a time within the search's budget (a `terms` query may hold MAX_TERMS_COUNT of them).
 * A set larger than a chunk is also made distinct and written out as its key in `settle`, a chunk
 * at a time: at once, a Set of 65,536 strings and their JSON took 10-40 ms on this machine.
 */
export function termsIn(field: string, terms: readonly string[]): LQuery {
  if (terms.length === 0) return matchNone('no terms');
  // in the order given: a set written in another order is another cache entry, never a wrong answer
  // (sorting 65,536 terms took longer than a slice)
  let distinct: string[] | null = null;
  let key: string | null = null;
  if (terms.length <= TERMS_CHUNK) {
    distinct = [...new Set(terms)];
    key = `terms:${JSON.stringify([field, distinct])}`;
  }
  /** The distinct terms and the key, as above, a chunk at a time (the key's JSON written a chunk at a time, joined). */
  function* settle(budget: Budget): Steps<void> {
    if (key !== null) return;
    const seen = new Set<string>();
    for (let i = 0; i < terms.length; i++) {
      seen.add(terms[i]);
      if ((i + 1) % TERMS_CHUNK === 0 && budget.due()) yield;
    }
    const list = [...seen];
    const parts: string[] = [];
    for (let i = 0; i < list.length; i += TERMS_CHUNK) {
      parts.push(JSON.stringify(list.slice(i, i + TERMS_CHUNK)).slice(1, -1));
      if (budget.due()) yield;
    }
    distinct = list;
    key = `terms:[${JSON.stringify(field)},[${parts.join(',')}]]`;
  }
  const settled = (): string[] => {
    if (distinct === null) runToEnd(settle(UNLIMITED));
    return distinct as string[];
  };
  const lists = new Prepared(function* (f: FieldIndex, budget: Budget): Steps<Int32Array[]> {
    const found: Int32Array[] = [];
    const postings = f.terms as TermPostings;
    const all = settled();
    for (let i = 0; i < all.length; i++) {
      const t = f.termId(all[i]);
      if (t >= 0) found.push(postings.docs(t));
      if ((i + 1) % TERMS_CHUNK === 0 && budget.due()) yield;
    }
    return found;
  });
  const docSet = (index: InvertedIndex, fromDoc: number): Matches => {
    const f = index.field(field);
    if (f === undefined || f.terms === null) return Matches.EMPTY;
    return unionOfPostings(lists.take(index, f), f, fromDoc, index.maxDoc);
  };
  return {
    type: 'leaf',
    get key(): string {
      settled();
      return key as string;
    },
    docSet,
    docs: (index) => docSet(index, 0).docList(),
    ...(terms.length <= LAZY_TERMS ? { postings: (index: InvertedIndex) => termPostings(index, field, settled()) } : {}),
    terms: {
      field,
      get terms(): readonly string[] {
        return settled();
      },
      matcher: () => atOnceTest(new Set(settled())),
    },
    ...(key === null ? { settle } : {}),
    *prepare(index, budget) {
      const f = index.field(field);
      if (f !== undefined && f.terms !== null && terms.length > TERMS_CHUNK) yield* lists.prepare(index, f, budget);
    },
  };
}

/**
 * Terms visited per slice check of a pattern's walk over a dictionary: at most 512, a fraction of a
 * millisecond for most patterns (4,096 made turns of the event loop 3 to 20 ms longer than the slice
 * under bench:abuse's bool of 4,000 wildcards over 100,000 names). A chunk that took more than half
 * a slice halves the next, down to MIN_PATTERN_CHUNK: 512 terms of 40 `a`s and a number run through
 * `*a*a*a*1234` still took 4 to 6 ms (each term's rest read from disk); one that took less than an
 * eighth doubles it again. A chunk ends sooner after READS_PER_CHECK reads from disk (long terms'
 * rests: budget/checkEvery.ts), and the next goes on from there. A walk starts at
 * FIRST_PATTERN_CHUNK and grows from there: starting at 512, the first chunk of every walk over
 * such names overran the slice, and a bool of 4,000 wildcards makes 4,000 walks.
 */
const PATTERN_CHUNK = 512;
export const MIN_PATTERN_CHUNK = 16;
export const FIRST_PATTERN_CHUNK = 64;

/**
 * The term ids of a field accepted by an automaton, walking the sorted dictionary a chunk at a time
 * (automaton/intersect.ts seeks within each chunk), checking the search's budget between chunks.
 */
export function* acceptedTerms(f: FieldIndex, automaton: RunAutomaton, budget: Budget): Steps<number[]> {
  if (automaton.initial < 0) return [];
  const sorted = yield* f.sortedTermsSteps(budget);
  const df = (f.terms as TermPostings).df;
  const ids: number[] = [];
  let chunkSize = FIRST_PATTERN_CHUNK;
  for (let from = 0, to = 0; from < sorted.size; from = to) {
    to = Math.min(from + chunkSize, sorted.size);
    const chunk = { size: to - from, term: (i: number) => sorted.term(from + i), codeUnits: (i: number, out: Uint16Array) => sorted.codeUnits(from + i, out) };
    const started = budget.clock();
    // (a chunk whose terms are read from disk ends after READS_PER_CHECK reads: it goes on from there)
    const reads = new CheckEvery(Infinity);
    const stop: WalkStop = { due: () => reads.readsDue(), at: 0 };
    intersectSorted(
      automaton,
      chunk,
      (i) => {
        const t = sorted.id(from + i);
        if (df[t] > 0) ids.push(t);
      },
      undefined,
      stop,
    );
    to = from + stop.at;
    const took = budget.clock() - started;
    if (took > budget.sliceMs / 2) chunkSize = Math.max(MIN_PATTERN_CHUNK, chunkSize >> 1);
    else if (took < budget.sliceMs / 8) chunkSize = Math.min(PATTERN_CHUNK, chunkSize << 1);
    if (to < sorted.size && budget.due()) yield;
  }
  return ids;
}

/**
 * How a pattern's matching terms become a query (MultiTermQuery's rewrite methods):
 * - `constant_score` (default; also `constant_score_blended`): one set of documents, each scoring
 *   the boost; any number of terms;
 * - `constant_score_boolean`: the same documents and scores, but built as a boolean query of its
 *   terms: at most maxClauseCount of them (IndexSearcher.TooManyClauses);
 * - the rewrites that score each term (termsRewrite.ts): `scoring_boolean`, `top_terms_N`,
 *   `top_terms_boost_N`, `top_terms_blended_freqs_N` (every term of a pattern has the same boost,
 *   so the top terms are the first N in term order).
 */
export type PatternRewrite = { readonly kind: 'constant_score' } | { readonly kind: 'constant_score_boolean' } | TermsRewrite;

export const CONSTANT_SCORE: PatternRewrite = { kind: 'constant_score' };

/** The boost a multi-term query's terms enum gives a matched term (FuzzyTermsEnum's; patterns give 1). */
export type TermBoost = (automaton: RunAutomaton, term: string) => number;

/**
 * Documents having a term an automaton accepts (Lucene's AutomatonQuery: prefix, wildcard, regexp,
 * case-insensitive term; FuzzyQuery with `termBoost`), rewritten as `rewrite` says. The walk over
 * the dictionary is done in `prepare`, within the search's budget, and its result used right after
 * (by `docSet`, or by `expand` for the rewrites that score each term).
 */
export function termsAccepted(
  field: string,
  key: string,
  pattern: RunAutomaton | LazyAutomaton,
  rewrite: PatternRewrite = CONSTANT_SCORE,
  maxClauseCount = Infinity,
  termBoost?: TermBoost,
): LQuery {
  // compiled when first evaluated, within the search's budget (patternCache.ts)
  const automaton: LazyAutomaton = typeof pattern === 'function' ? pattern : () => atOnce(() => pattern);
  const accepted = new Prepared(function* (f: FieldIndex, budget: Budget): Steps<{ ids: number[]; boosts: Float32Array | null }> {
    const compiled = yield* automaton(budget);
    const ids = yield* acceptedTerms(f, compiled, budget);
    const terms = f.terms as TermPostings;
    return { ids, boosts: termBoost === undefined ? null : Float32Array.from(ids, (t) => termBoost(compiled, terms.term(t))) };
  });
  const termIds = (index: InvertedIndex, f: FieldIndex) => {
    const found = accepted.take(index, f);
    if (rewrite.kind === 'constant_score_boolean') {
      checkTermCount(field, found.ids.length, maxClauseCount);
      checkBoosts(found.boosts); // built as the boolean query of boosted terms first
    }
    return found;
  };
  const docSet = (index: InvertedIndex, fromDoc: number): Matches => {
    const f = index.field(field);
    if (f === undefined || f.terms === null) return Matches.EMPTY;
    const { ids } = termIds(index, f);
    const terms = f.terms;
    return unionOfPostings(
      ids.map((t) => terms.docs(t)),
      f,
      fromDoc,
      index.maxDoc,
    );
  };
  const scoring = rewrite.kind !== 'constant_score' && rewrite.kind !== 'constant_score_boolean' ? rewrite : null;
  const expand = (index: InvertedIndex): LQuery => {
    const f = index.field(field);
    if (f === undefined || f.terms === null || scoring === null) return matchNone(`unmapped field ${field}`);
    const { ids, boosts } = termIds(index, f);
    return rewriteTerms(field, f, ids, boosts, scoring, maxClauseCount);
  };
  return {
    type: 'leaf',
    key: `${key}:${rewriteKey(rewrite)}:${JSON.stringify(field)}`,
    docSet,
    docs: (index) => docSet(index, 0).docList(),
    *prepare(index, budget) {
      const f = index.field(field);
      if (f !== undefined && f.terms !== null) yield* accepted.prepare(index, f, budget);
    },
    expand: scoring === null ? undefined : expand,
    terms: {
      field,
      *matcher(budget) {
        const compiled = yield* automaton(budget);
        return (term: string) => compiled.run(term);
      },
    },
  };
}

function rewriteKey(rewrite: PatternRewrite): string {
  if (rewrite.kind === 'top_terms') return `top_terms${rewrite.boostOnly ? '_boost' : ''}_${rewrite.size}`;
  if (rewrite.kind === 'top_terms_blended') return `top_terms_blended_freqs_${rewrite.size}`;
  return rewrite.kind;
}

/**
 * Term range over strings in UTF-8 order (TermRangeQuery): the range's two ends found by binary
 * search in the sorted dictionary, the terms between them read.
 */
export function termRange(field: string, lower: string | null, includeLower: boolean, upper: string | null, includeUpper: boolean): LQuery {
  const key = `termRange:${JSON.stringify([lower, includeLower, upper, includeUpper])}:${JSON.stringify(field)}`;
  const inRange = (term: string): boolean => {
    const lo = lower === null ? 1 : compareUtf8(term, lower);
    const hi = upper === null ? -1 : compareUtf8(term, upper);
    return (includeLower ? lo >= 0 : lo > 0) && (includeUpper ? hi <= 0 : hi < 0);
  };
  const leaf = setLeaf(key, (index, fromDoc) => {
    const f = index.field(field);
    if (f === undefined || f.terms === null) return Matches.EMPTY;
    const sorted = f.sortedTerms();
    const terms = f.terms;
    const from = lower === null ? 0 : sorted.lowerBound(lower, !includeLower);
    const to = upper === null ? sorted.size : sorted.lowerBound(upper, includeUpper);
    const lists: Int32Array[] = [];
    for (let i = from; i < to; i++) {
      const t = sorted.id(i);
      if (terms.df[t] > 0) lists.push(terms.docs(t));
    }
    return unionOfPostings(lists, f, fromDoc, index.maxDoc);
  });
  return { ...leaf, terms: { field, matcher: () => atOnceTest(inRange) } };
}

/** Documents by `_id`. */
export function idsIn(ids: readonly string[]): LQuery {
  const distinct = [...new Set(ids)].sort(compareUtf8);
  if (distinct.length === 0) return matchNone('no ids');
  return setLeaf(`ids:${JSON.stringify(distinct)}`, (index: InvertedIndex, fromDoc) => {
    const docs: number[] = [];
    for (const id of distinct) {
      const doc = index.docOf(id);
      if (doc !== undefined) docs.push(doc);
    }
    return fromIterable(docs, fromDoc);
  });
}

/** Documents where a field has a value (FieldExistsQuery). */
export function fieldExists(field: string): LQuery {
  return setLeaf(`exists:${JSON.stringify(field)}`, (index, fromDoc) => {
    const f = index.field(field);
    return f === undefined ? Matches.EMPTY : bitsFrom(f.present.words, fromDoc, index.maxDoc);
  });
}
