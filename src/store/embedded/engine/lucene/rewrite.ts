/**
 * Query rewriting as IndexSearcher.rewrite does it: rewrite until nothing changes. The rules are
 * Lucene 9's (the Lucene of Elasticsearch 8): they matter for scores, not only for speed, because
 * they change how float sums are grouped, e.g. a SHOULD clause that is itself a pure disjunction is
 * flattened into its parent (one double sum instead of two float sums), duplicate SHOULD or MUST
 * clauses become one clause with the summed boost, and a DisjunctionMaxQuery with tie_breaker 1 is
 * a BooleanQuery of SHOULD clauses. Lucene 10's later rules (inlining nested conjunctions, inlining
 * the SHOULD clauses of a single MUST clause) are deliberately not applied.
 */
import {
  BooleanQuery,
  BoostQuery,
  Clause,
  ConstantScoreQuery,
  DisMaxQuery,
  FunctionScoreQuery,
  LQuery,
  MATCH_ALL,
  MultiPhraseQuery,
  Occur,
  PhraseQuery,
  booleanQuery,
  boostQuery,
  clausesOf,
  constantScore,
  disMax,
  isPureDisjunction,
  matchNone,
  queryKey,
  sameQuery,
  scoreFunction,
  termQuery,
} from './query';

const f = Math.fround;

/** Rewrite a query to its fixed point. */
export function rewrite(query: LQuery): LQuery {
  let current = query;
  for (let i = 0; i < 10_000; i++) {
    const next = rewriteOnce(current);
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * Queries that one rewrite left as they were: rewritten again, they stay so (the rules read only
 * the query), so that the rewrites after the first that changed something elsewhere in the tree do
 * not walk them again (a bool of 4,000 clauses took 5 to 40 ms, its clauses' keys written and
 * looked for duplicates at every pass until the whole query stopped changing).
 */
const fixedPoints = new WeakSet<LQuery>();

/** One Query.rewrite call: returns the same object when nothing changed. */
export function rewriteOnce(query: LQuery): LQuery {
  // (a leaf or a term is its own rewrite: not remembered, there may be thousands)
  if (query.type === 'leaf' || query.type === 'term') return query;
  if (fixedPoints.has(query)) return query;
  const rewritten = rewriteRules(query);
  if (rewritten === query) fixedPoints.add(query);
  return rewritten;
}

function rewriteRules(query: LQuery): LQuery {
  switch (query.type) {
    case 'boost':
      return rewriteBoost(query);
    case 'constantScore':
      return rewriteConstantScore(query);
    case 'bool':
      return rewriteBoolean(query);
    case 'disMax':
      return rewriteDisMax(query);
    case 'phrase':
      return rewritePhrase(query);
    case 'multiPhrase':
      return rewriteMultiPhrase(query);
    case 'functionScore':
      return rewriteFunctionScore(query);
    case 'nested': {
      // ToParentBlockJoinQuery.rewrite: its child query rewritten
      const inner = rewriteOnce(query.query);
      return inner === query.query ? query : { ...query, query: inner };
    }
    case 'combinedField':
      // CombinedFieldQuery.rewrite: nothing to look for is an empty BooleanQuery
      return query.terms.length === 0 || query.fields.length === 0 ? booleanQuery([]) : query;
    default:
      return query;
  }
}

/**
 * FunctionScoreQuery.rewrite: its sub-query and its functions' filters rewritten. Without functions
 * nor min_score it scores as its sub-query (which also receives the boost): it is replaced by it.
 */
function rewriteFunctionScore(query: FunctionScoreQuery): LQuery {
  if (query.functions.length === 0 && query.minScore === null && !query.boostOutside) return query.query;
  const inner = rewriteOnce(query.query);
  let changed = inner !== query.query;
  const functions = query.functions.map((fn) => {
    if (fn.filter === null) return fn;
    const filter = rewriteOnce(fn.filter);
    if (filter === fn.filter) return fn;
    changed = true;
    return scoreFunction(fn, filter, fn.weight);
  });
  return changed ? { ...query, query: inner, functions } : query;
}

function rewriteBoost(query: BoostQuery): LQuery {
  const rewritten = rewriteOnce(query.query);
  if (query.boost === 1) return rewritten;
  if (rewritten.type === 'boost') return boostQuery(rewritten.query, f(query.boost * rewritten.boost));
  if (rewritten.type === 'matchNone') return rewritten;
  if (query.boost === 0 && rewritten.type !== 'constantScore') return boostQuery(constantScore(rewritten), 0);
  if (rewritten !== query.query) return boostQuery(rewritten, query.boost);
  return query;
}

function rewriteConstantScore(query: ConstantScoreQuery): LQuery {
  let rewritten = rewriteOnce(query.query);
  // scores of the wrapped query are not needed: drop boosts and nested constant scores
  if (rewritten.type === 'boost') rewritten = rewritten.query;
  else if (rewritten.type === 'constantScore') rewritten = rewritten.query;
  else if (rewritten.type === 'bool') rewritten = rewriteNoScoring(rewritten);
  if (rewritten.type === 'matchNone') return rewritten;
  if (rewritten !== query.query) return constantScore(rewritten);
  return query;
}

/** BooleanQuery.rewriteNoScoring: MUST becomes FILTER, SHOULD is dropped when it cannot matter. */
export function rewriteNoScoring(query: BooleanQuery): BooleanQuery {
  const requiredCount = query.clauses.filter((c) => c.occur === 'must' || c.occur === 'filter').length;
  const keepShould = query.minimumShouldMatch > 0 || requiredCount === 0;
  const out: Clause[] = [];
  let changed = false;
  for (const clause of query.clauses) {
    let rewritten = clause.query;
    if (rewritten.type === 'boost') rewritten = rewritten.query;
    if (rewritten.type === 'constantScore') rewritten = rewritten.query;
    if (rewritten.type === 'bool') rewritten = rewriteNoScoring(rewritten);
    if (clause.occur === 'should' && !keepShould) {
      changed = true;
    } else if (clause.occur === 'must') {
      out.push({ occur: 'filter', query: rewritten });
      changed = true;
    } else if (rewritten !== clause.query) {
      out.push({ occur: clause.occur, query: rewritten });
      changed = true;
    } else {
      out.push(clause);
    }
  }
  return changed ? booleanQuery(out, query.minimumShouldMatch) : query;
}

function rewriteDisMax(query: DisMaxQuery): LQuery {
  if (query.disjuncts.length === 0) return matchNone('empty DisjunctionMaxQuery');
  if (query.disjuncts.length === 1) return query.disjuncts[0];
  if (query.tieBreaker === 1) return booleanQuery(query.disjuncts.map((q) => ({ occur: 'should' as const, query: q })));
  let changed = false;
  const rewritten: LQuery[] = [];
  for (const sub of query.disjuncts) {
    const r = rewriteOnce(sub);
    if (r !== sub || r.type === 'matchNone') changed = true;
    if (r.type !== 'matchNone') rewritten.push(r);
  }
  if (!changed) return query;
  if (rewritten.length === 0) return matchNone('empty DisjunctionMaxQuery');
  if (rewritten.length === 1) return rewritten[0];
  return disMax(rewritten, query.tieBreaker);
}

function rewritePhrase(query: PhraseQuery): LQuery {
  if (query.terms.length === 0) return matchNone('empty PhraseQuery');
  if (query.terms.length === 1) return termQuery(query.field, query.terms[0]);
  if (query.positions[0] !== 0) {
    const first = query.positions[0];
    return { ...query, positions: query.positions.map((p) => p - first) };
  }
  return query;
}

/** MultiPhraseQuery.rewrite: no position matches nothing, one position is a disjunction of its terms. */
function rewriteMultiPhrase(query: MultiPhraseQuery): LQuery {
  if (query.termArrays.length === 0) return matchNone('empty MultiPhraseQuery');
  if (query.termArrays.length === 1) return booleanQuery(query.termArrays[0].map((term) => ({ occur: 'should' as const, query: termQuery(query.field, term) })));
  return query;
}

function contains(queries: readonly LQuery[], query: LQuery): boolean {
  return queries.some((q) => sameQuery(q, query));
}

function distinct(queries: readonly LQuery[]): LQuery[] {
  const seen = new Set<string>();
  const out: LQuery[] = [];
  for (const q of queries) {
    const key = queryKey(q);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(q);
    }
  }
  return out;
}

/** Merge identical clauses of one occur into one, boosted by the sum of their boosts (in double). */
function deduplicate(query: BooleanQuery, occur: Occur): BooleanQuery | null {
  const queries = clausesOf(query, occur);
  // (one clause has no duplicate: its key, which may be long to write, is not needed)
  if (queries.length < 2) return null;
  const merged = new Map<string, { query: LQuery; boost: number }>();
  for (let q of queries) {
    let boost = 1;
    while (q.type === 'boost') {
      boost *= q.boost;
      q = q.query;
    }
    const key = queryKey(q);
    const entry = merged.get(key);
    if (entry === undefined) merged.set(key, { query: q, boost });
    else entry.boost += boost;
  }
  if (merged.size === queries.length) return null;
  const out: Clause[] = [];
  for (const { query: q, boost } of merged.values()) {
    const b = f(boost);
    out.push({ occur, query: b !== 1 ? boostQuery(q, b) : q });
  }
  for (const clause of query.clauses) if (clause.occur !== occur) out.push(clause);
  return booleanQuery(out, query.minimumShouldMatch);
}

function rewriteBoolean(query: BooleanQuery): LQuery {
  const { clauses, minimumShouldMatch: msm } = query;
  if (clauses.length === 0) return matchNone('empty BooleanQuery');

  // optimize 1-clause queries
  if (clauses.length === 1) {
    const c = clauses[0];
    if (msm === 1 && c.occur === 'should') return c.query;
    if (msm === 0) {
      switch (c.occur) {
        case 'should':
        case 'must':
          return c.query;
        case 'filter':
          return boostQuery(constantScore(c.query), 0); // no scoring clause: the score is 0
        case 'must_not':
          return matchNone('pure negative BooleanQuery');
      }
    }
  }

  // recursively rewrite the clauses
  {
    const out: Clause[] = [];
    let changed = false;
    for (const clause of clauses) {
      let rewritten: LQuery;
      if (clause.occur === 'filter' || clause.occur === 'must_not') {
        // clauses that do not score can be simplified further
        rewritten = rewriteConstantScore(constantScore(clause.query));
        if (rewritten.type === 'constantScore') rewritten = rewritten.query;
      } else {
        rewritten = rewriteOnce(clause.query);
      }
      if (rewritten !== clause.query || clause.query.type === 'matchNone') {
        changed = true;
        if (rewritten.type === 'matchNone') {
          if (clause.occur === 'must' || clause.occur === 'filter') return rewritten;
          // a SHOULD or MUST_NOT clause that matches nothing can be dropped
        } else {
          out.push({ occur: clause.occur, query: rewritten });
        }
      } else {
        out.push(clause);
      }
    }
    if (changed) return booleanQuery(out, msm);
  }

  const must = clausesOf(query, 'must');
  const should = clausesOf(query, 'should');
  const filters = distinct(clausesOf(query, 'filter'));
  const mustNot = distinct(clausesOf(query, 'must_not'));

  // remove duplicate FILTER and MUST_NOT clauses
  if (must.length + should.length + filters.length + mustNot.length !== clauses.length) {
    const out: Clause[] = [
      ...must.map((q) => ({ occur: 'must' as const, query: q })),
      ...filters.map((q) => ({ occur: 'filter' as const, query: q })),
      ...should.map((q) => ({ occur: 'should' as const, query: q })),
      ...mustNot.map((q) => ({ occur: 'must_not' as const, query: q })),
    ];
    return booleanQuery(out, msm);
  }

  // clauses both required and excluded
  if (mustNot.length > 0) {
    if (mustNot.some((q) => contains(must, q) || contains(filters, q))) return matchNone('FILTER or MUST clause also in MUST_NOT');
    if (contains(mustNot, MATCH_ALL)) return matchNone('MUST_NOT clause is MatchAllDocsQuery');
  }

  // remove FILTER clauses that are also MUST clauses or that match all documents
  if (filters.length > 0) {
    let kept = filters;
    if (kept.length > 1 || must.length > 0) kept = kept.filter((q) => q.type !== 'matchAll');
    kept = kept.filter((q) => !contains(must, q));
    if (kept.length !== filters.length) {
      const out: Clause[] = clauses.filter((c) => c.occur !== 'filter');
      for (const q of kept) out.push({ occur: 'filter', query: q });
      return booleanQuery(out, msm);
    }
  }

  // FILTER clauses that are also SHOULD clauses become MUST clauses
  if (should.length > 0 && filters.length > 0) {
    const intersection = filters.filter((q) => contains(should, q));
    if (intersection.length > 0) {
      const out: Clause[] = [];
      let newMsm = msm;
      for (const clause of clauses) {
        if (contains(intersection, clause.query)) {
          if (clause.occur === 'should') {
            out.push({ occur: 'must', query: clause.query });
            newMsm--;
          }
        } else {
          out.push(clause);
        }
      }
      return booleanQuery(out, Math.max(0, newMsm));
    }
  }

  // deduplicate SHOULD clauses, then MUST clauses, by summing their boosts
  if (should.length > 0 && msm <= 1) {
    const deduplicated = deduplicate(query, 'should');
    if (deduplicated !== null) return deduplicated;
  }
  if (must.length > 0) {
    const deduplicated = deduplicate(query, 'must');
    if (deduplicated !== null) return deduplicated;
  }

  // a single scoring MUST clause on MatchAllDocsQuery with filters: a ConstantScoreQuery on the filters
  if (must.length === 1 && filters.length > 0) {
    let first = must[0];
    let boost = 1;
    if (first.type === 'boost') {
      boost = first.boost;
      first = first.query;
    }
    if (first.type === 'matchAll') {
      const inner = booleanQuery(clauses.filter((c) => c.occur === 'filter' || c.occur === 'must_not'));
      const scored = boost !== 1 ? boostQuery(constantScore(inner), boost) : constantScore(inner);
      const out: Clause[] = [{ occur: 'must', query: scored }, ...should.map((q) => ({ occur: 'should' as const, query: q }))];
      return booleanQuery(out, msm);
    }
  }

  // flatten nested disjunctions
  if (msm <= 1) {
    const out: Clause[] = [];
    let changed = false;
    for (const clause of clauses) {
      if (clause.occur === 'should' && clause.query.type === 'bool' && isPureDisjunction(clause.query)) {
        changed = true;
        out.push(...clause.query.clauses);
      } else {
        out.push(clause);
      }
    }
    if (changed) return booleanQuery(out, msm);
  }

  // as many SHOULD clauses as minimumShouldMatch: they are all required
  if (should.length > 0) {
    if (should.length < msm) return matchNone('SHOULD clause count less than minimumNumberShouldMatch');
    if (should.length === msm) {
      return booleanQuery(clauses.map((c) => (c.occur === 'should' ? { occur: 'must' as const, query: c.query } : c)));
    }
  }

  return query;
}
