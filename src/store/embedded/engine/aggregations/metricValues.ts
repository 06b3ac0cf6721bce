/**
 * The numbers a metric aggregation reads from a bucket's documents: every value of every document
 * (multi-valued fields give all of theirs, as Elasticsearch's SortedNumericDoubleValues), and the
 * `missing` value once for each document without any.
 */
import { Steps } from '../budget/budget';
import { CompensatedSum } from './numbers';
import { checkpoint } from './run';
import { AggContext, DocSet } from './types';
import { Values } from './values';

export function* eachNumber(values: Values, docs: DocSet, missing: number | undefined, ctx: AggContext, visit: (value: number) => void): Steps<void> {
  if (values.kind === 'none') {
    if (missing !== undefined) for (let i = 0; i < docs.length; i++) visit(missing);
    return;
  }
  const forward = values.forward;
  const entries = forward.entries;
  for (let i = 0; i < docs.length; i++) {
    if (checkpoint(i) && ctx.budget.due()) yield;
    const from = forward.from(docs[i]);
    const to = forward.to(docs[i]);
    if (from === to) {
      if (missing !== undefined) visit(missing);
      continue;
    }
    for (let j = from; j < to; j++) visit(entries[j]);
  }
}

/** What min, max, avg, sum, stats and extended_stats read: count, extremes, and Kahan sums of values and squares. */
export interface Moments {
  count: number;
  min: number;
  max: number;
  readonly sum: CompensatedSum;
  readonly squares: CompensatedSum;
}

export function* moments(values: Values, docs: DocSet, missing: number | undefined, ctx: AggContext): Steps<Moments> {
  const m: Moments = { count: 0, min: Infinity, max: -Infinity, sum: new CompensatedSum(), squares: new CompensatedSum() };
  yield* eachNumber(values, docs, missing, ctx, (v) => {
    m.count++;
    if (v < m.min) m.min = v;
    if (v > m.max) m.max = v;
    m.sum.add(v);
    m.squares.add(v * v);
  });
  return m;
}
