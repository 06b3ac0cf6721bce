/**
 * What `histogram` and `date_histogram` share (Elasticsearch's InternalHistogram and
 * InternalDateHistogram): a bucket per key that some value of a document rounds to (a document once
 * per key), then, when `min_doc_count` is 0 (the default), the empty buckets between the first and
 * the last key, widened to `extended_bounds` and cut to `hard_bounds` (values whose key falls
 * outside `hard_bounds` are not counted at all). Buckets come in key order unless `order` says
 * otherwise; `keyed` answers an object keyed by the key as a string. Empty buckets are counted
 * against search.max_buckets one by one as they are made, so bounds a year wide at 1 ms stop at the
 * limit instead of allocating.
 */
import { Steps } from '../budget/budget';
import { setOwn } from '../json';
import { OrderKey, OrderedBucket, bucketComparator, needsSubs } from './order';
import { checkpoint, runAggregations, splitDocs } from './run';
import { AggContext, AggNode, AggResult, DocSet } from './types';
import { Values } from './values';

export interface Bounds {
  readonly min: number | null;
  readonly max: number | null;
}

export interface HistogramSpec {
  /** The key of the bucket holding a value. */
  round(value: number): number;
  /** The key of the bucket after `key`. */
  next(key: number): number;
  readonly minDocCount: number;
  readonly extended: Bounds | null;
  readonly hard: Bounds | null;
  readonly keyed: boolean;
  readonly orders: readonly OrderKey[] | null;
  /** key_as_string, or null when the keys have none. */
  keyAsString(key: number): string | null;
  /** The member name of a keyed bucket. */
  keyedName(key: number): string;
  /** The value documents without one take (`missing`), if any. */
  readonly missing: number | undefined;
}

const inside = (bounds: Bounds | null, key: number) => bounds === null || ((bounds.min === null || key >= bounds.min) && (bounds.max === null || key <= bounds.max));

interface KeyBucket extends OrderedBucket {
  readonly key: number;
}

export function* runHistogram(spec: HistogramSpec, values: Values, docs: DocSet, ctx: AggContext, subs: readonly AggNode[]): Steps<AggResult> {
  const forward = values.kind === 'numeric' ? values.forward : null;
  // keys of a document's values, distinct and ascending (values are sorted, rounding keeps order)
  const keysOf = (doc: number, emit: (key: number) => void) => {
    const from = forward === null ? 0 : forward.from(doc);
    const to = forward === null ? 0 : forward.to(doc);
    if (from === to) {
      if (spec.missing !== undefined) {
        const key = spec.round(spec.missing);
        if (inside(spec.hard, key)) emit(key);
      }
      return;
    }
    let last = NaN;
    const entries = (forward as { entries: Float64Array }).entries;
    for (let j = from; j < to; j++) {
      const key = spec.round(entries[j]);
      if (key !== last && inside(spec.hard, key)) emit(key);
      last = key;
    }
  };
  const counts = new Map<number, number>();
  for (let i = 0; i < docs.length; i++) {
    if (checkpoint(i) && ctx.budget.due()) yield;
    keysOf(docs[i], (key) => counts.set(key, (counts.get(key) ?? 0) + 1));
  }
  let keys = [...counts.keys()].sort((a, b) => a - b);
  if (spec.minDocCount > 0) keys = keys.filter((k) => (counts.get(k) as number) >= spec.minDocCount);
  ctx.buckets.add(keys.length);
  if (spec.minDocCount === 0) keys = yield* withEmptyBuckets(spec, keys, ctx);

  const buckets: KeyBucket[] = keys.map((key) => ({ key, count: counts.get(key) ?? 0, subs: null }));
  const byPath = spec.orders !== null && needsSubs(spec.orders);
  const withSubsOf = function* (list: KeyBucket[]): Steps<void> {
    if (subs.length === 0) return;
    const index = new Map<number, number>();
    list.forEach((b, i) => index.set(b.key, i));
    const lists = yield* splitDocs(docs, list.length, (doc, emit) => keysOf(doc, (key) => {
      const at = index.get(key);
      if (at !== undefined) emit(at);
    }), ctx);
    for (let i = 0; i < list.length; i++) list[i].subs = yield* runAggregations(subs, lists[i], ctx);
  };
  yield* withSubsOf(buckets);
  if (spec.orders !== null && (byPath || spec.orders[0].kind !== 'key' || !spec.orders[0].asc)) buckets.sort(bucketComparator(spec.orders, (a, b) => (a < b ? -1 : a > b ? 1 : 0)));

  const keyed: AggResult = {};
  const list: AggResult[] = [];
  for (const b of buckets) {
    const bucket: AggResult = {};
    const text = spec.keyAsString(b.key);
    if (text !== null) bucket.key_as_string = text;
    bucket.key = b.key;
    bucket.doc_count = b.count;
    if (b.subs !== null) Object.assign(bucket, b.subs);
    if (spec.keyed) setOwn(keyed, spec.keyedName(b.key), bucket);
    else list.push(bucket);
  }
  return { buckets: spec.keyed ? keyed : list };
}

/** The keys with the empty buckets added between them and to the extended bounds, within the hard bounds. */
function* withEmptyBuckets(spec: HistogramSpec, keys: number[], ctx: AggContext): Steps<number[]> {
  let first = keys.length > 0 ? keys[0] : null;
  let last = keys.length > 0 ? keys[keys.length - 1] : null;
  if (spec.extended !== null) {
    if (spec.extended.min !== null) {
      const min = spec.round(spec.extended.min);
      if (first === null || min < first) first = min;
    }
    if (spec.extended.max !== null) {
      const max = spec.round(spec.extended.max);
      if (last === null || max > last) last = max;
    }
  }
  if (first === null || last === null) return keys;
  // never walk keys the hard bounds exclude
  if (spec.hard?.min != null && first < spec.hard.min) first = Math.max(first, spec.round(spec.hard.min));
  if (spec.hard?.max != null && last > spec.hard.max) last = Math.min(last, spec.round(spec.hard.max));
  const out: number[] = [];
  let at = 0;
  let steps = 0;
  for (let key = first, next = key; key <= last; key = next) {
    next = spec.next(key);
    if (!(next > key)) next = Infinity; // no progress (a double's precision): stop after this key
    if (checkpoint(steps++) && ctx.budget.due()) yield;
    while (at < keys.length && keys[at] < key) out.push(keys[at++]);
    if (at < keys.length && keys[at] === key) {
      out.push(keys[at++]);
      continue;
    }
    if (!inside(spec.hard, key)) continue;
    ctx.buckets.add(1);
    out.push(key);
  }
  while (at < keys.length) out.push(keys[at++]);
  return out;
}
