/**
 * What a Koncorde filter would cost to compile, checked before Koncorde compiles it.
 *
 * Koncorde (4.7) turns a filter into disjunctive normal form through a truth table of its compound
 * parts: 2^n rows for n parts, each row evaluated over the whole filter, then the rows Espresso keeps
 * multiplied out with the `or` groups of simple conditions. Its only limit, `maxConditions`, is
 * checked on the conditions, not on n nor on that product, and its standardizer re-reads the
 * subtree under every `not` it pushes down: a filter of 40 conditions nested 20 deep holds the
 * event loop for minutes, `{and: [{or: [..10..]}, ... 10 times]}` builds 10^10 subfilters. So,
 * before normalize():
 * - operators (`and`, `or`, `not`, `bool`, `select`) nest at most MAX_NESTING deep, and the filter
 *   holds at most MAX_CONDITIONS conditions (Kuzzle's default subscriptionConditionsCount; Koncorde
 *   counts the same bound again after standardizing, `in` and `ids` values included);
 * - after Koncorde's own standardizer: at most MAX_COMPOUND_PARTS parts in the truth table (256
 *   rows) and at most MAX_SUBFILTERS conjunctions once multiplied out (Koncorde stores each one,
 *   measured here at about 0.2 ms apiece, and a document is tested against each).
 * The counts follow Koncorde's canonical.js (_extractConditions) over the standardized form, where a
 * `not` only wraps a condition and an `and`/`or` of conditions alone is one part (`_isLeaf`).
 */

import { childrenOf, keywordOf, standardize, type StandardFilter } from './koncordeStandard';

/** Kuzzle's default limits.subscriptionConditionsCount, given to Koncorde as maxConditions too. */
export const MAX_CONDITIONS = 100;
export const MAX_NESTING = 10;
export const MAX_COMPOUND_PARTS = 8;
export const MAX_SUBFILTERS = 256;

type Filter = StandardFilter;

const BOOL_CLAUSES = ['must', 'must_not', 'should', 'should_not'];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why the filter is refused before Koncorde reads it, or undefined. */
export function koncordeCostProblem(filter: Record<string, unknown>): string | undefined {
  const raw = rawCount(filter);
  if (raw.nesting > MAX_NESTING) return `operators (and, or, not, bool, select) nest ${raw.nesting} deep, more than ${MAX_NESTING}`;
  if (raw.conditions > MAX_CONDITIONS) return `the filter holds ${raw.conditions} conditions, more than ${MAX_CONDITIONS}`;
  // (a select's query is compiled on its own, the same way)
  for (const part of [filter, ...raw.selectQueries]) {
    const problem = compiledCostProblem(part);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function compiledCostProblem(filter: unknown): string | undefined {
  const standardized = standardize(filter);
  if (standardized === undefined) return undefined; // malformed: Koncorde's normalize() says why
  const parts = compoundParts(standardized);
  if (parts > MAX_COMPOUND_PARTS) {
    return `the filter has ${parts} compound parts (and/or/not groups mixing other groups), more than ${MAX_COMPOUND_PARTS}: its truth table would have 2^${parts} rows`;
  }
  const subfilters = conjunctions(standardized);
  if (subfilters > MAX_SUBFILTERS) return `the filter expands to more than ${MAX_SUBFILTERS} conjunctions of conditions (and of or groups multiplied out)`;
  return undefined;
}

/**
 * The raw filter's operator nesting and its conditions, counted as given (an `in` or `ids` list is
 * one here; Koncorde counts its values). Stops counting past the limits.
 */
function rawCount(filter: unknown): { nesting: number; conditions: number; selectQueries: unknown[] } {
  let conditions = 0;
  const selectQueries: unknown[] = [];
  let deepest = 0;
  const stack: { node: unknown; depth: number }[] = [{ node: filter, depth: 0 }];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (!isObject(node)) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_NESTING || conditions > MAX_CONDITIONS) break;
    for (const [keyword, value] of Object.entries(node)) {
      if (keyword === 'and' || keyword === 'or') {
        if (Array.isArray(value)) for (const child of value) stack.push({ node: child, depth: depth + 1 });
      } else if (keyword === 'not') {
        stack.push({ node: value, depth: depth + 1 });
      } else if (keyword === 'bool') {
        if (!isObject(value)) continue;
        for (const clause of BOOL_CLAUSES) {
          const list = value[clause];
          if (Array.isArray(list)) for (const child of list) stack.push({ node: child, depth: depth + 2 });
        }
      } else if (keyword === 'select') {
        conditions += 1;
        if (isObject(value)) {
          stack.push({ node: value.query, depth: depth + 1 });
          selectQueries.push(value.query);
        }
      } else {
        conditions += 1;
      }
    }
  }
  return { nesting: deepest, conditions, selectQueries };
}

/** The rows of Koncorde's truth table are 2^this: its _extractConditions, counted. */
function compoundParts(f: Filter): number {
  const keyword = keywordOf(f);
  if (keyword === undefined) return 0;
  if (keyword === 'not') return compoundParts(f.not as Filter);
  if ((keyword !== 'and' && keyword !== 'or') || f._isLeaf) return 1;
  let n = 0;
  for (const child of childrenOf(f)) {
    n += compoundParts(child);
    if (n > MAX_COMPOUND_PARTS) return n;
  }
  return n;
}

/**
 * How many conjunctions the filter's disjunctive normal form has, multiplied out as written (an
 * upper bound of the subfilters Koncorde stores: its minimized form keeps fewer). Capped past the
 * limit, so that the products stay small numbers.
 */
function conjunctions(f: Filter): number {
  const keyword = keywordOf(f);
  if (keyword === 'and') return childrenOf(f).reduce((product, child) => Math.min(product * conjunctions(child), MAX_SUBFILTERS + 1), 1);
  if (keyword === 'or') return childrenOf(f).reduce((sum, child) => Math.min(sum + conjunctions(child), MAX_SUBFILTERS + 1), 0);
  return 1;
}
