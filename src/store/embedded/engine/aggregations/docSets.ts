/**
 * Document sets of single-bucket and filters aggregations: a bucket's documents that a query
 * matches (intersected in one merge pass, or bit lookups when the query's matches are a bitset).
 */
import { Steps } from '../budget/budget';
import { hasBit } from '../bitset';
import { Matches } from '../lucene/matches';
import { checkpoint } from './run';
import { AggContext, DocSet } from './types';

/** The documents of `docs` that are in `matches`, ascending. */
export function* intersect(docs: DocSet, matches: Matches, ctx: AggContext): Steps<DocSet> {
  const out = new Int32Array(Math.min(docs.length, matches.size));
  let n = 0;
  if (matches.bits !== null) {
    const bits = matches.bits;
    for (let i = 0; i < docs.length; i++) {
      if (checkpoint(i) && ctx.budget.due()) yield;
      if (hasBit(bits, docs[i])) out[n++] = docs[i];
    }
    return out.subarray(0, n);
  }
  const other = matches.docs as Int32Array;
  const size = matches.size;
  let j = 0;
  for (let i = 0; i < docs.length && j < size; i++) {
    if (checkpoint(i) && ctx.budget.due()) yield;
    const doc = docs[i];
    while (j < size && other[j] < doc) j++;
    if (j < size && other[j] === doc) out[n++] = doc;
  }
  return out.subarray(0, n);
}

/** The documents of `docs` in none of `sets` (each ascending). */
export function* notInAny(docs: DocSet, sets: readonly DocSet[], ctx: AggContext): Steps<DocSet> {
  const out = new Int32Array(docs.length);
  const at = new Int32Array(sets.length);
  let n = 0;
  for (let i = 0; i < docs.length; i++) {
    if (checkpoint(i) && ctx.budget.due()) yield;
    const doc = docs[i];
    let found = false;
    for (let s = 0; s < sets.length; s++) {
      const set = sets[s];
      while (at[s] < set.length && set[at[s]] < doc) at[s]++;
      if (at[s] < set.length && set[at[s]] === doc) found = true;
    }
    if (!found) out[n++] = doc;
  }
  return out.subarray(0, n);
}
