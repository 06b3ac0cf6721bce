/**
 * The leaves of a query that match documents by the terms of a field (patterns, term sets, term
 * ranges: ../lucene/query.ts LeafTerms), with their term tests compiled once per search, within its
 * budget (a pattern's automaton may take a while to determinize). Also what each match counts as in
 * passage scores.
 */
import { Budget, Steps } from '../budget/budget';
import { LQuery, LeafQuery } from '../lucene/query';

export type TermTest = (term: string) => boolean;

/** The term test of each leaf with terms under `query` (every clause, prohibited ones included). */
export function* leafTests(query: LQuery, budget: Budget, out = new Map<LeafQuery, TermTest>()): Steps<Map<LeafQuery, TermTest>> {
  switch (query.type) {
    case 'leaf':
      if (query.terms !== undefined && !out.has(query)) out.set(query, yield* query.terms.matcher(budget));
      break;
    case 'boost':
    case 'constantScore':
    case 'functionScore':
      yield* leafTests(query.query, budget, out);
      break;
    case 'bool':
      for (const clause of query.clauses) yield* leafTests(clause.query, budget, out);
      break;
    case 'disMax':
      for (const disjunct of query.disjuncts) yield* leafTests(disjunct, budget, out);
      break;
    default:
      break;
  }
  return out;
}

/**
 * The term a match of a leaf counts as in passage scores (OffsetsEnum's getTerm): the term itself for
 * a set of one term; for a pattern, Lucene uses its query's toString, so two patterns that print
 * alike ("sea*" as a prefix and as a wildcard) count as one: the same strings are made from the leaf's
 * key here (query/leaves.ts, query/prefix.ts ...), the key itself when it has another shape.
 */
export function leafLabel(leaf: LeafQuery): string {
  const terms = leaf.terms?.terms;
  if (terms !== undefined && terms.length === 1) return terms[0];
  const key = leaf.key;
  const colon = key.indexOf(':');
  const kind = key.slice(0, colon);
  const tail = /:(?:[a-z_0-9]+:)?("(?:[^"\\]|\\.)*")$/.exec(key);
  if (colon < 0 || tail === null) return key;
  try {
    const field = JSON.parse(tail[1]) as string;
    const params = JSON.parse(key.slice(colon + 1, tail.index)) as unknown[];
    switch (kind) {
      case 'prefix':
        return `${field}:${String(params[0])}*`;
      case 'wildcard':
        return `${field}:${String(params[0])}`;
      case 'regexp':
        return `${field}:/${String(params[0])}/`;
      case 'fuzzy':
        return `${field}:${String(params[0])}~${String(params[1])}`;
      case 'termRange': {
        const [lower, includeLower, upper, includeUpper] = params as [string | null, boolean, string | null, boolean];
        return `${field}:${includeLower ? '[' : '{'}${lower ?? '*'} TO ${upper ?? '*'}${includeUpper ? ']' : '}'}`;
      }
      default:
        return key;
    }
  } catch {
    return key;
  }
}
