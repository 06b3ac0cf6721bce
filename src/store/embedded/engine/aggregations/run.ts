/**
 * Running a list of aggregations over a document set, and the helpers bucket aggregations share:
 * splitting a document set into buckets, and adding each bucket's sub-aggregations to its answer.
 * Every loop over documents checks the search's time budget every CHECK_EVERY + 1 documents and
 * gives the event loop back when its slice is over (budget/budget.ts).
 */
import { CHECK_EVERY, Steps } from '../budget/budget';
import { setOwn } from '../json';
import { AggContext, AggNode, AggResult, DocSet } from './types';

/** The answers of `nodes` over `docs`, keyed by name (`meta` first when given, as Elasticsearch writes it). */
export function* runAggregations(nodes: readonly AggNode[], docs: DocSet, ctx: AggContext): Steps<AggResult> {
  const out: AggResult = {};
  for (const node of nodes) {
    const result = yield* node.agg.run(docs, ctx, node.subs);
    setOwn(out, node.name, node.meta === undefined ? result : { meta: node.meta, ...result });
  }
  return out;
}

/** Adds the sub-aggregations' answers over `docs` to a bucket's answer; returns the bucket. */
export function* withSubs(bucket: AggResult, subs: readonly AggNode[], docs: DocSet, ctx: AggContext): Steps<AggResult> {
  if (subs.length === 0) return bucket;
  const answers = yield* runAggregations(subs, docs, ctx);
  for (const key of Object.keys(answers)) setOwn(bucket, key, answers[key]);
  return bucket;
}

/** Whether the loop at step `i` should look at the clock (then yield when `ctx.budget.due()`). */
export function checkpoint(i: number): boolean {
  return (i & CHECK_EVERY) === CHECK_EVERY;
}

/**
 * The documents of each of `n` buckets: `assign(doc, emit)` calls `emit(bucket)` for every bucket the
 * document falls in (at most once per bucket). Two passes: count, then fill arrays of exact size.
 */
export function* splitDocs(docs: DocSet, n: number, assign: (doc: number, emit: (bucket: number) => void) => void, ctx: AggContext): Steps<DocSet[]> {
  const counts = new Int32Array(n);
  const count = (b: number) => {
    counts[b]++;
  };
  for (let i = 0; i < docs.length; i++) {
    if (checkpoint(i) && ctx.budget.due()) yield;
    assign(docs[i], count);
  }
  const out = Array.from(counts, (c) => new Int32Array(c));
  const filled = new Int32Array(n);
  let doc = 0;
  const fill = (b: number) => {
    out[b][filled[b]++] = doc;
  };
  for (let i = 0; i < docs.length; i++) {
    if (checkpoint(i) && ctx.budget.due()) yield;
    doc = docs[i];
    assign(doc, fill);
  }
  return out;
}
