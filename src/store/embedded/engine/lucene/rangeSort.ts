/**
 * A search sorted on a numeric field whose query requires a range on that same field, answered
 * without evaluating the range nor sorting its matches: the range's values are walked in the sort's
 * order (the field's sorted values, sortedKeys.ts), each value's documents in index order (its
 * postings), and the walk stops at the end of the first value after which the page is full: no later
 * document can make it (Lucene's sort optimization, which skips non-competitive documents through
 * the points of the sort field, here taken to its end since the range and the sort read the same
 * points). What else the query requires is evaluated once and tested per document. The total stays
 * exact: the live documents of the range (per value, counted without reading them) when nothing else
 * is required, else a pass over the smaller of the range's postings and the rest's matches.
 *
 * Only when every live document holds at most one value of the field (FieldIndex.multiValued): a
 * document with several sorts by one of them (min, max, sum...) but matches the range by any, so
 * its place in the walk would not be its place in the order.
 */
import { hasBit } from '../bitset';
import { Budget, CHECK_EVERY, Steps } from '../budget/budget';
import { FieldIndex } from '../fieldIndex';
import { InvertedIndex } from '../invertedIndex';
import { NumericRange, inRange } from '../query/leaves';
import { ResolvedSort, SortKey } from '../sort';
import { evaluateSteps } from './evaluate';
import { Matches, advance } from './matches';
import { rangeBounds } from './pointRanges';
import { Clause, LQuery, MATCH_ALL, booleanQuery } from './query';
import { TopSortedCollector } from './topDocs';

export interface RangeSortPlan {
  field: FieldIndex;
  range: NumericRange;
  /** What else the query requires (null: nothing but live documents). */
  rest: LQuery | null;
  descending: boolean;
}

/**
 * The query as a required range on `field` and the rest (a query that, with the range, matches what
 * the query matches; scores aside), or null when the query does not require such a range.
 */
export function splitRange(query: LQuery, field: string): { range: NumericRange; rest: LQuery | null } | null {
  switch (query.type) {
    case 'leaf':
      return query.pointRange !== undefined && query.pointRange.field === field ? { range: query.pointRange.range, rest: null } : null;
    case 'boost':
    case 'constantScore':
      return splitRange(query.query, field);
    case 'bool': {
      const clauses = query.clauses;
      for (let i = 0; i < clauses.length; i++) {
        if (clauses[i].occur !== 'must' && clauses[i].occur !== 'filter') continue;
        const inner = splitRange(clauses[i].query, field);
        if (inner === null) continue;
        if (clauses.length === 1 && query.minimumShouldMatch === 0) return inner;
        // the clause stays required (as what it requires besides the range): optional clauses stay optional
        const kept: Clause[] = clauses.map((c, j) => (j === i ? { occur: 'filter', query: inner.rest ?? MATCH_ALL } : c));
        return { range: inner.range, rest: booleanQuery(kept, query.minimumShouldMatch) };
      }
      return null;
    }
    default:
      return null;
  }
}

/** The plan for a sort whose first clause is on a numeric field the query requires a range of; null when there is none. */
export function rangeSortPlan(query: LQuery, sorts: readonly ResolvedSort[], index: InvertedIndex): RangeSortPlan | null {
  const first = sorts[0];
  if (first === undefined || first.kind !== 'field' || first.index === undefined) return null;
  const field = index.field(first.field);
  if (field === undefined || field !== first.index || field.pointKeys === null || field.multiValued > 0) return null;
  const split = splitRange(query, first.field);
  if (split === null) return null;
  return { field, range: split.range, rest: split.rest === null || split.rest.type === 'matchAll' ? null : split.rest, descending: first.order === 'desc' };
}

/** A test of membership in matches: a bit, or a search of the list. */
function membership(matches: Matches): (doc: number) => boolean {
  if (matches.bits !== null) {
    const bits = matches.bits;
    return (doc) => hasBit(bits, doc);
  }
  const docs = matches.docs as Int32Array;
  const size = matches.size;
  return (doc) => {
    const at = advance(docs, 0, size, doc);
    return at < size && docs[at] === doc;
  };
}

/**
 * Feeds the collector (a page of `k`) the range's documents in the sort's order until no later one
 * can make the page; returns the number of matches. `afterFirst`: search_after's value of the sort's
 * first clause (values before it are skipped; the collector's own test drops equal ones).
 */
export function* rangeSortSteps(plan: RangeSortPlan, index: InvertedIndex, collector: TopSortedCollector<SortKey>, k: number, afterFirst: SortKey | null, budget: Budget): Steps<number> {
  const { field } = plan;
  let inRest: ((doc: number) => boolean) | null = null;
  let restMatches: Matches | null = null;
  if (plan.rest !== null) {
    restMatches = yield* evaluateSteps(plan.rest, index, 1, false, budget);
    if (restMatches === null || restMatches.size === 0) return 0;
    inRest = membership(restMatches);
  }
  const points = field.points!;
  const ids = field.pointKeys!.ids();
  const { df, len } = points;
  const present = field.present.words;
  let { from, to } = rangeBounds(field, plan.range);
  if (from >= to) return 0;

  // the total
  let total = 0;
  let stored = 0;
  for (let i = from; i < to; i++) {
    total += df[ids[i]];
    stored += len[ids[i]];
  }
  if (inRest !== null) {
    total = 0;
    let visited = 0;
    if (restMatches!.size < stored) {
      // fewer matches of the rest than postings in the range: each match's value tested
      const values = field.values!;
      const list = restMatches!.toList();
      const docs = list.docs as Int32Array;
      for (let i = 0; i < list.size; i++) {
        const doc = docs[i];
        if (values.count(doc) === 1 && hasBit(present, doc) && inRange(values.entries[values.from(doc)], plan.range)) total++;
        if ((++visited & CHECK_EVERY) === 0 && budget.due()) yield;
      }
    } else {
      for (let i = from; i < to; i++) {
        const t = ids[i];
        if (df[t] === 0) continue;
        const docs = points.docsArray(t);
        for (let j = points.docsStart(t), end = j + len[t]; j < end; j++) {
          if (hasBit(present, docs[j]) && inRest(docs[j])) total++;
        }
        if ((visited += len[t]) > CHECK_EVERY) {
          visited = 0;
          if (budget.due()) yield;
        }
      }
    }
  }
  if (k <= 0 || total === 0) return total;

  // the page: values in the sort's order, those before search_after's skipped
  if (typeof afterFirst === 'number') {
    if (plan.descending) to = Math.min(to, field.pointKeys!.lowerBound(afterFirst, true));
    else from = Math.max(from, field.pointKeys!.lowerBound(afterFirst, false));
  }
  const count = to - from;
  let visited = 0;
  for (let step = 0; step < count; step++) {
    const i = plan.descending ? to - 1 - step : from + step;
    const t = ids[i];
    if (df[t] === 0) continue;
    const docs = points.docsArray(t);
    for (let j = points.docsStart(t), end = j + len[t]; j < end; j++) {
      const doc = docs[j];
      if (hasBit(present, doc) && (inRest === null || inRest(doc))) collector.offer(doc, 0);
    }
    // the page is full at the end of a value: every later document sorts after it
    if (collector.full) break;
    if ((visited += len[t]) > CHECK_EVERY) {
      visited = 0;
      if (budget.due()) yield;
    }
  }
  return total;
}
