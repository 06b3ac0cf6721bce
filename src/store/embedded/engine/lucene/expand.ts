/**
 * Multi-term queries rewritten against the index before anything is evaluated, as
 * IndexSearcher.rewrite does it: a leaf that stands for a query of its terms (`expand`: a fuzzy
 * query, or a pattern under a scoring rewrite) is replaced by that query after its walk over the
 * term dictionary (`prepare`, within the search's budget), and the whole query is then rewritten
 * again. So the terms take part in the boolean rewrite rules as in Lucene, which changes scores,
 * not only speed: the disjunction of a fuzzy `match` token's terms is flattened into the query of
 * the other tokens (one sum instead of two), a term that two tokens expand to becomes one clause
 * with the summed boost (and the statistics of the first), a single term stands alone.
 *
 * Lucene then counts the leaf clauses of the rewritten query (getNumClausesCheckVisitor, after the
 * rewrite loop): the terms a query expanded to count against maxClauseCount with the rest of it.
 * `recordClauseCount` tells, for a query built by search.ts, how many clauses its client part had
 * before (the caller's filter is not counted); the expansions are added to that.
 */
import { Budget, Steps } from '../budget/budget';
import { InvertedIndex } from '../invertedIndex';
import { tooManyClauses } from '../limits';
import { Clause, LQuery, ScoreFunction, booleanQuery, boostQuery, constantScore, countClauses, disMax, scoreFunction } from './query';
import { rewrite } from './rewrite';

const counted = new WeakMap<LQuery, { clauses: number; limit: number }>();

/** `query` (rewritten) holds a client query of `clauses` leaf clauses, at most `limit` after expansion. */
export function recordClauseCount(query: LQuery, clauses: number, limit: number): void {
  counted.set(query, { clauses, limit });
}

/** The query with its expandable leaves replaced by their queries, rewritten; the same object when it has none. */
export function* expandSteps(query: LQuery, index: InvertedIndex, budget: Budget): Steps<LQuery> {
  const expanded = yield* replaceLeaves(query, index, budget);
  if (expanded === query) return query;
  const rewritten = rewrite(expanded);
  const known = counted.get(query);
  if (known !== undefined && known.clauses + countClauses(rewritten) - countClauses(query) > known.limit) {
    throw tooManyClauses(known.limit, ' (with the terms its multi-term queries expand to)');
  }
  return rewritten;
}

function* replaceLeaves(query: LQuery, index: InvertedIndex, budget: Budget): Steps<LQuery> {
  switch (query.type) {
    case 'leaf': {
      if (query.expand === undefined) return query;
      if (query.prepare !== undefined) yield* query.prepare(index, budget);
      return query.expand(index);
    }
    case 'boost': {
      const inner = yield* replaceLeaves(query.query, index, budget);
      return inner === query.query ? query : boostQuery(inner, query.boost);
    }
    case 'constantScore': {
      const inner = yield* replaceLeaves(query.query, index, budget);
      return inner === query.query ? query : constantScore(inner);
    }
    case 'bool': {
      let changed = false;
      const clauses: Clause[] = [];
      for (const clause of query.clauses) {
        const inner = yield* replaceLeaves(clause.query, index, budget);
        if (inner !== clause.query) changed = true;
        clauses.push(inner === clause.query ? clause : { occur: clause.occur, query: inner });
      }
      return changed ? booleanQuery(clauses, query.minimumShouldMatch) : query;
    }
    case 'functionScore': {
      const inner = yield* replaceLeaves(query.query, index, budget);
      let changed = inner !== query.query;
      const functions: ScoreFunction[] = [];
      for (const fn of query.functions) {
        const filter = fn.filter === null ? null : yield* replaceLeaves(fn.filter, index, budget);
        if (filter !== fn.filter) changed = true;
        functions.push(filter === fn.filter ? fn : scoreFunction(fn, filter, fn.weight));
      }
      return changed ? { ...query, query: inner, functions } : query;
    }
    case 'disMax': {
      let changed = false;
      const disjuncts: LQuery[] = [];
      for (const disjunct of query.disjuncts) {
        const inner = yield* replaceLeaves(disjunct, index, budget);
        if (inner !== disjunct) changed = true;
        disjuncts.push(inner);
      }
      return changed ? disMax(disjuncts, query.tieBreaker) : query;
    }
    default:
      return query;
  }
}
