/**
 * The Lucene query tree that Elasticsearch builds from the query DSL (what QueryBuilder.toQuery
 * returns), reduced to the query types the supported DSL produces:
 *
 *   TermQuery (BM25-scored), PhraseQuery (exact or sloppy), MultiPhraseQuery (several terms at a
 *   position: match_phrase_prefix once its prefix is expanded), BooleanQuery, BoostQuery,
 *   ConstantScoreQuery, DisjunctionMaxQuery, MatchAllDocsQuery, MatchNoDocsQuery, and "leaf"
 *   constant-score queries (point ranges, term sets, prefix, wildcard, term ranges, exists, ids)
 *   that match a set of documents and score their boost, FunctionScoreQuery, CombinedFieldQuery.
 *
 * Queries are immutable values; `queryKey` gives the identity Lucene's equals/hashCode define
 * (BooleanQuery: same minimumShouldMatch and the same clauses per occur, MUST and SHOULD as
 * multisets, FILTER and MUST_NOT as sets; DisjunctionMaxQuery: same tie-breaker and multiset of
 * disjuncts), which the rewrite rules need to deduplicate clauses.
 */
import { Budget, Steps } from '../budget/budget';
import { InvertedIndex } from '../invertedIndex';
import { IntervalsSource } from '../intervals/sources';
import { Matches } from './matches';
import type { InnerHitsRequest } from '../collapse';
import type { ParsedQuery } from '../query/context';

export type Occur = 'must' | 'filter' | 'should' | 'must_not';

export interface Clause {
  readonly occur: Occur;
  readonly query: LQuery;
}

export interface MatchAllQuery {
  readonly type: 'matchAll';
}

export interface MatchNoneQuery {
  readonly type: 'matchNone';
  readonly reason: string;
}

export interface TermQuery {
  readonly type: 'term';
  readonly field: string;
  readonly term: string;
  /**
   * The document frequency to score with instead of the term's own: a TermQuery built with
   * TermStates of other statistics (BlendedTermQuery's blended frequencies). Not part of its
   * identity, as TermQuery.equals compares the term only.
   */
  readonly docFreq?: number;
}

export interface PhraseQuery {
  readonly type: 'phrase';
  readonly field: string;
  readonly terms: readonly string[];
  /** Position of each term in the phrase (starting at 0). */
  readonly positions: readonly number[];
  readonly slop: number;
}

/**
 * MultiPhraseQuery: a phrase where each position may hold any of several terms (what Elasticsearch's
 * MultiPhrasePrefixQuery rewrites to once the last term's prefix is expanded).
 */
export interface MultiPhraseQuery {
  readonly type: 'multiPhrase';
  readonly field: string;
  /** The terms accepted at each position of the phrase. */
  readonly termArrays: readonly (readonly string[])[];
  /** Position of each entry of termArrays in the phrase (starting at 0). */
  readonly positions: readonly number[];
  readonly slop: number;
}

export interface BoostQuery {
  readonly type: 'boost';
  readonly query: LQuery;
  readonly boost: number;
}

export interface ConstantScoreQuery {
  readonly type: 'constantScore';
  readonly query: LQuery;
}

export interface BooleanQuery {
  readonly type: 'bool';
  readonly clauses: readonly Clause[];
  readonly minimumShouldMatch: number;
}

export interface DisMaxQuery {
  readonly type: 'disMax';
  readonly disjuncts: readonly LQuery[];
  readonly tieBreaker: number;
}

/**
 * The terms of one field a leaf matches (what Lucene's QueryVisitor is told: consumeTerms for a set
 * of terms, consumeTermsMatching for an automaton), for highlighting.
 */
export interface LeafTerms {
  readonly field: string;
  /** The test of a term, made (an automaton compiled) within the search's budget. */
  readonly matcher: (budget: Budget) => Steps<(term: string) => boolean>;
  /** The terms themselves when the leaf is a set of terms (TermInSetQuery). */
  readonly terms?: readonly string[];
}

/** A constant-score query defined by the set of documents it matches. */
export interface LeafQuery {
  readonly type: 'leaf';
  /** Identity of the query (e.g. `range:age:[1 TO 5]`), for equality. */
  readonly key: string;
  /** The matching live documents. */
  docs(index: InvertedIndex): Iterable<number>;
  /**
   * The matching live documents numbered `fromDoc` and up, ascending. Leaves that have it are cached
   * per index under their key (see filterCache.ts), which must then identify the query exactly.
   */
  readonly docSet?: (index: InvertedIndex, fromDoc: number) => Matches;
  /**
   * Work that may take long (a pattern's walk over a term dictionary), done as steps that check the
   * search's budget before `docSet` runs, when the set is not cached yet: `docSet` then uses what it
   * found.
   */
  readonly prepare?: (index: InvertedIndex, budget: Budget) => Steps<void>;
  /**
   * Work that `key` and `terms` need and that may take longer than a slice (a set of 65,536 terms
   * made distinct and written out), done as steps before the evaluator reads them; read without it,
   * they do it at once.
   */
  readonly settle?: (budget: Budget) => Steps<void>;
  /**
   * The query this leaf stands for, when it is to be scored as one (a pattern under a boolean
   * rewrite: a boolean query of its terms); evaluated instead of `docSet`, after `prepare`.
   */
  readonly expand?: (index: InvertedIndex) => LQuery;
  /** The terms it matches, when it matches documents by the terms of a field (patterns, term sets, term ranges). */
  readonly terms?: LeafTerms;
  /**
   * The posting lists whose union the leaf is, and what tells their live documents (a set of a few
   * terms): a walk that needs only the first matches reads them in document order and stops there,
   * instead of building the whole set (lucene/firstDocs.ts).
   */
  readonly postings?: (index: InvertedIndex) => LeafPostings;
  /** A numeric range on a field's points (a sort on that field may read them in order: lucene/rangeSort.ts). */
  readonly pointRange?: { readonly field: string; readonly range: { lower: number | null; includeLower: boolean; upper: number | null; includeUpper: boolean } };
}

/** A leaf's posting lists (LeafQuery.postings): ascending documents, dead ones among them when `deleted` > 0 (`present` tells the live ones). */
export interface LeafPostings {
  readonly lists: readonly Int32Array[];
  readonly present: Uint32Array;
  readonly deleted: number;
}

/**
 * One function of a FunctionScoreQuery (Elasticsearch's ScoreFunction, with its FilterScoreFunction
 * filter when it has one): bound to an index, it gives a document's factor (a double).
 */
export interface ScoreFunction {
  /** The documents it applies to (FilterScoreFunction), null for all. */
  readonly filter: LQuery | null;
  /** ScoreFunction.getWeight: the `weight` given, else 1 (what score_mode avg divides by). */
  readonly weight: number;
  /** Identity of the function (its parameters), for equality. */
  readonly key: string;
  /** Elasticsearch's toString of the function, for explanations. */
  readonly text: string;
  /** The function over one index: the factor of a matching document, given its sub-query score. */
  bind(index: InvertedIndex): (doc: number, subQueryScore: number) => number;
  /**
   * An upper bound of the factor of every live document of `index`, when every one of them has a
   * finite, non-negative factor that the function never refuses and that does not depend on the
   * sub-query's score (null otherwise, or not given): top-k pruning of a function-scored match may
   * then skip the documents that cannot make the page, reading a factor before the score.
   */
  maxFactor?(index: InvertedIndex): number | null;
}

/**
 * A score function with its filter and weight. (Built field by field: V8 copies an object holding
 * methods, such as a function made by a builder, with `{...fn}` in microseconds, not nanoseconds:
 * 4.6 us against 0.2 us measured on Node 20, a fifth of a small function_score search.)
 */
export function scoreFunction(fn: Omit<ScoreFunction, 'filter' | 'weight'>, filter: LQuery | null, weight: number): ScoreFunction {
  return { filter, weight, key: fn.key, text: fn.text, bind: fn.bind, maxFactor: fn.maxFactor };
}

export type FunctionScoreMode = 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min';
export type CombineMode = 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min';

/**
 * Elasticsearch's FunctionScoreQuery (function_score), and Lucene's FunctionScoreQuery.boostByQuery
 * (`boosting`) as the same node with `boostOutside`: Elasticsearch's passes the boost it receives to
 * its sub-query, Lucene's multiplies the final (double) score by it.
 */
export interface FunctionScoreQuery {
  readonly type: 'functionScore';
  readonly query: LQuery;
  readonly functions: readonly ScoreFunction[];
  readonly scoreMode: FunctionScoreMode;
  readonly boostMode: CombineMode;
  /** A float (Float.MAX_VALUE when not given). */
  readonly maxBoost: number;
  readonly minScore: number | null;
  readonly boostOutside: boolean;
}

/**
 * Lucene's CombinedFieldQuery (lucene-sandbox, what Elasticsearch's combined_fields builds for each
 * token): its terms looked for in several text fields scored as if those fields were one (BM25F:
 * weighted frequencies and field lengths summed; see combinedField.ts).
 */
export interface CombinedFieldQuery {
  readonly type: 'combinedField';
  /** The fields with their weights (each >= 1), sorted by name (CombinedFieldQuery's TreeMap). */
  readonly fields: readonly { readonly field: string; readonly weight: number }[];
  /** The terms, distinct, in UTF-8 order (BytesRef order). */
  readonly terms: readonly string[];
}

/** Lucene's IntervalQuery (lucene-queries; Elasticsearch's `intervals`): see intervalQuery.ts. */
export interface IntervalsQuery {
  readonly type: 'intervals';
  readonly field: string;
  readonly source: IntervalsSource;
  /** IndexSearcher.getMaxClauseCount when built (for the disjunctions pulled up while iterating). */
  readonly maxClauseCount: number;
}

/** How a parent scores from its matching children (Lucene's join ScoreMode; `sum` is its Total). */
export type NestedScoreMode = 'avg' | 'max' | 'min' | 'sum' | 'none';

/**
 * Lucene's ToParentBlockJoinQuery (lucene-join; what Elasticsearch's `nested` builds): `query`
 * matched against the hidden documents of the nested field `path` (nested/nestedDocs.ts), each
 * parent matching when one of its children does, scored from them per `scoreMode` (blockJoin.ts).
 */
export interface NestedQuery {
  readonly type: 'nested';
  readonly path: string;
  /**
   * The nested fields from the level the query runs at (the root, or the nested field of an
   * enclosing `nested` query) down to `path`, each inside the previous one (`path` last): the
   * children's documents are found level by level, and joined to the level's documents.
   */
  readonly chain: readonly string[];
  readonly query: LQuery;
  readonly scoreMode: NestedScoreMode;
  /** Its `inner_hits` (nested/innerHits.ts), null without; their name is part of its identity, so that rewriting never merges them away. */
  readonly innerHits: InnerHitsRequest | null;
  /** The child query as parsed, which the inner hits' `highlight` builds its queries from (as a search's highlight does from the search's query). */
  readonly parsed?: ParsedQuery;
}

export type LQuery = MatchAllQuery | MatchNoneQuery | TermQuery | PhraseQuery | MultiPhraseQuery | BoostQuery | ConstantScoreQuery | BooleanQuery | DisMaxQuery | LeafQuery | FunctionScoreQuery | CombinedFieldQuery | IntervalsQuery | NestedQuery;

/** Float.MAX_VALUE. */
export const FLOAT_MAX = 3.4028234663852886e38;

export const MATCH_ALL: MatchAllQuery = { type: 'matchAll' };

export function matchNone(reason: string): MatchNoneQuery {
  return { type: 'matchNone', reason };
}

export function termQuery(field: string, term: string, docFreq?: number): TermQuery {
  return docFreq === undefined ? { type: 'term', field, term } : { type: 'term', field, term, docFreq };
}

export function boostQuery(query: LQuery, boost: number): BoostQuery {
  return { type: 'boost', query, boost: Math.fround(boost) };
}

/** AbstractQueryBuilder.toQuery: wrap in a BoostQuery unless the boost is 1 or nothing matches. */
export function withBoost(query: LQuery, boost: number): LQuery {
  return boost === 1 || query.type === 'matchNone' ? query : boostQuery(query, boost);
}

export function constantScore(query: LQuery): ConstantScoreQuery {
  return { type: 'constantScore', query };
}

export function booleanQuery(clauses: readonly Clause[], minimumShouldMatch = 0): BooleanQuery {
  return { type: 'bool', clauses, minimumShouldMatch };
}

export function disMax(disjuncts: readonly LQuery[], tieBreaker: number): DisMaxQuery {
  return { type: 'disMax', disjuncts, tieBreaker: Math.fround(tieBreaker) };
}

export function leaf(key: string, docs: (index: InvertedIndex) => Iterable<number>): LeafQuery {
  return { type: 'leaf', key, docs };
}

/** A leaf computed as a document set (cacheable). */
export function setLeaf(key: string, docSet: (index: InvertedIndex, fromDoc: number) => Matches): LeafQuery {
  return { type: 'leaf', key, docSet, docs: (index) => docSet(index, 0).docList() };
}

export function isScoring(occur: Occur): boolean {
  return occur === 'must' || occur === 'should';
}

/** Clauses of one occur, in order. */
export function clausesOf(query: BooleanQuery, occur: Occur): LQuery[] {
  const out: LQuery[] = [];
  for (const clause of query.clauses) if (clause.occur === occur) out.push(clause.query);
  return out;
}

/** BooleanQuery.isPureDisjunction: only SHOULD clauses and minimumShouldMatch <= 1. */
export function isPureDisjunction(query: BooleanQuery): boolean {
  return query.minimumShouldMatch <= 1 && query.clauses.every((c) => c.occur === 'should');
}

/**
 * The leaf clauses of a query, as Lucene 9's IndexSearcher counts them against maxClauseCount
 * (getNumClausesCheckVisitor): one per leaf query, one per term of a phrase (per position of a multi-phrase).
 */
export function countClauses(query: LQuery): number {
  switch (query.type) {
    case 'matchNone':
      return 0;
    case 'matchAll':
    case 'term':
    case 'leaf':
      return 1;
    case 'phrase':
      return query.terms.length;
    case 'multiPhrase':
      return query.termArrays.length;
    case 'combinedField':
      // visit(): consumeTerms with every (field, term) pair
      return query.fields.length * query.terms.length;
    case 'intervals': {
      // IntervalQuery.visit: a term per term source, a leaf per multi-term source
      const leaves: unknown[] = [];
      query.source.leaves(leaves as never);
      return leaves.length;
    }
    case 'boost':
    case 'constantScore':
    case 'nested':
      return countClauses(query.query);
    case 'functionScore': {
      let n = countClauses(query.query);
      for (const fn of query.functions) if (fn.filter !== null) n += countClauses(fn.filter);
      return n;
    }
    case 'bool': {
      let n = 0;
      for (const clause of query.clauses) n += countClauses(clause.query);
      return n;
    }
    case 'disMax': {
      let n = 0;
      for (const disjunct of query.disjuncts) n += countClauses(disjunct);
      return n;
    }
  }
}

const keys = new WeakMap<LQuery, string>();

/** How every leaf's key starts (query/leaves.ts and the others), and no other type's key: a-z. */
const isLowerCaseLetter = (code: number): boolean => code >= 0x61 && code <= 0x7a;

function sortedKeys(queries: readonly LQuery[], distinct: boolean): string {
  const list = queries.map(queryKey).sort();
  return (distinct ? [...new Set(list)] : list).join(',');
}

/** The identity of a query: equal keys mean equal queries in Lucene's sense. */
export function queryKey(query: LQuery): string {
  // a leaf's own key ("range:...", "wildcard:..."): it starts with a lower-case letter, which no
  // other type's key does (kept and looked up for 4,000 leaves, a bool's rewrite took twice as long)
  if (query.type === 'leaf') return isLowerCaseLetter(query.key.charCodeAt(0)) ? query.key : `L${query.key}`;
  const cached = keys.get(query);
  if (cached !== undefined) return cached;
  let key: string;
  switch (query.type) {
    case 'matchAll':
      key = '*:*';
      break;
    case 'matchNone':
      key = 'MatchNoDocs';
      break;
    case 'term':
      key = `T${JSON.stringify([query.field, query.term])}`;
      break;
    case 'phrase':
      key = `P${JSON.stringify([query.field, query.terms, query.positions, query.slop])}`;
      break;
    case 'multiPhrase':
      key = `M${JSON.stringify([query.field, query.termArrays, query.positions, query.slop])}`;
      break;
    case 'intervals':
      key = `I${JSON.stringify(query.field)}:${query.source.key}`;
      break;
    case 'combinedField':
      key = `CF${JSON.stringify([query.fields.map((f) => [f.field, f.weight]), query.terms])}`;
      break;
    case 'boost':
      key = `B(${queryKey(query.query)})^${query.boost}`;
      break;
    case 'constantScore':
      key = `C(${queryKey(query.query)})`;
      break;
    case 'nested':
      key = `N${JSON.stringify([query.chain, query.scoreMode, query.innerHits?.name ?? null])}(${queryKey(query.query)})`;
      break;
    case 'bool':
      key =
        `Q${query.minimumShouldMatch}(+[${sortedKeys(clausesOf(query, 'must'), false)}]` +
        ` #[${sortedKeys(clausesOf(query, 'filter'), true)}]` +
        ` [${sortedKeys(clausesOf(query, 'should'), false)}]` +
        ` -[${sortedKeys(clausesOf(query, 'must_not'), true)}])`;
      break;
    case 'disMax':
      key = `D${query.tieBreaker}(${sortedKeys(query.disjuncts, false)})`;
      break;
    case 'functionScore':
      key = `F${JSON.stringify([query.scoreMode, query.boostMode, query.maxBoost, query.minScore, query.boostOutside])}(${queryKey(query.query)};${query.functions
        .map((fn) => `${fn.filter === null ? '' : queryKey(fn.filter)}:${fn.key}`)
        .join(';')})`;
      break;
  }
  keys.set(query, key);
  return key;
}

/**
 * Whether two queries are equal (Lucene's equals). Queries of two types never have one key (each
 * type's key has its own first letters): the key of a query of another type, long to write (a
 * function_score and its sub-query), is not written. (Keys are kept per query object.)
 */
export function sameQuery(a: LQuery, b: LQuery): boolean {
  return a === b || (a.type === b.type && queryKey(a) === queryKey(b));
}
