/**
 * The `order` of terms and histogram buckets (Elasticsearch's BucketOrder / InternalOrder):
 * `{"_count": "desc"}`, `{"_key": "asc"}`, a sub-aggregation path (`{"avg_price": "desc"}`,
 * `{"price_stats.max": "asc"}`, `{"pct[99.0]": "desc"}`, `{"in_stock>avg_price": "desc"}`: zero
 * or more single-bucket aggregations then a single-bucket or metric aggregation, with a metric key
 * for multi-value ones), or an array of them. Ties are broken by key ascending unless the order
 * already holds `_key` (InternalOrder.compound). A bucket whose metric has no value sorts last in
 * either direction (Comparators.compareDiscardNaN).
 */
import { describe, isPlainObject } from '../json';
import { javaDouble } from './numbers';
import { invalid } from './params';
import { AggNode, AggResult } from './types';

export type OrderKey =
  | { readonly kind: 'count'; readonly asc: boolean }
  | { readonly kind: 'key'; readonly asc: boolean }
  | { readonly kind: 'path'; readonly asc: boolean; readonly steps: readonly string[]; readonly metric: string | null };

export interface OrderedBucket {
  readonly key: string | number;
  readonly count: number;
  /** The bucket's sub-aggregation answers (needed when the order follows a path). */
  subs: AggResult | null;
}

const SINGLE_BUCKET = new Set(['filter', 'missing', 'global']);
const SINGLE_VALUE = new Set(['min', 'max', 'avg', 'sum', 'value_count', 'cardinality']);
const STATS_KEYS: Record<string, readonly string[]> = {
  stats: ['count', 'min', 'max', 'avg', 'sum'],
  extended_stats: ['count', 'min', 'max', 'avg', 'sum', 'sum_of_squares', 'variance', 'variance_population', 'variance_sampling', 'std_deviation', 'std_deviation_population', 'std_deviation_sampling', 'std_upper', 'std_lower', 'std_upper_population', 'std_lower_population', 'std_upper_sampling', 'std_lower_sampling'],
};

function parseDirection(value: unknown, where: string): boolean {
  if (value === 'asc' || value === 'ASC') return true;
  if (value === 'desc' || value === 'DESC') return false;
  throw invalid(`Unknown order direction [${typeof value === 'string' ? value : describe(value)}] at ${where}: use "asc" or "desc"`);
}

function parsePath(text: string, asc: boolean, subs: readonly AggNode[], where: string): OrderKey {
  const bad = (why: string) => invalid(`Invalid aggregation order path [${text}] at ${where}. ${why}`);
  const parts = text.split('>');
  let last = parts[parts.length - 1];
  let metric: string | null = null;
  const bracket = /^(.*)\[([^\]]*)\]$/.exec(last);
  if (bracket !== null) {
    last = bracket[1];
    metric = bracket[2];
  } else if (last.includes('.')) {
    metric = last.slice(last.indexOf('.') + 1);
    last = last.slice(0, last.indexOf('.'));
  }
  const steps = [...parts.slice(0, -1), last];
  let level = subs;
  let node: AggNode | undefined;
  steps.forEach((name, i) => {
    node = level.find((s) => s.name === name);
    if (node === undefined) throw bad(`Unknown aggregation [${name}]`);
    if (i < steps.length - 1 && !SINGLE_BUCKET.has(node.agg.type)) {
      throw bad('Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end.');
    }
    level = node.subs;
  });
  const type = (node as AggNode).agg.type;
  if (SINGLE_BUCKET.has(type)) {
    if (metric !== null && metric !== '_count' && metric !== 'doc_count') throw bad(`[${last}] is a single-bucket aggregation: order by its "_count"`);
  } else if (SINGLE_VALUE.has(type)) {
    if (metric !== null && metric !== 'value') throw bad(`[${last}] is a single-value metrics aggregation and has no metric [${metric}]`);
  } else if (type in STATS_KEYS) {
    if (metric === null) throw bad(`[${last}] is a multi-value aggregation and requires a metric key`);
    if (!STATS_KEYS[type].includes(metric)) throw bad(`Unknown metric name [${metric}] on multi-value aggregation [${last}]`);
  } else if (type === 'percentiles') {
    if (metric === null || !Number.isFinite(Number(metric)) || metric.trim() === '') throw bad(`[${last}] is a multi-value aggregation and requires a percent as metric key`);
  } else {
    throw bad('Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end.');
  }
  return { kind: 'path', asc, steps, metric };
}

function parseOne(obj: Record<string, unknown>, subs: readonly AggNode[], where: string): OrderKey {
  const keys = Object.keys(obj);
  if (keys.length !== 1) throw invalid(`each order at ${where} must name one key, e.g. {"_count": "desc"}, got ${keys.length}`);
  const key = keys[0];
  const asc = parseDirection(obj[key], `${where}.${key}`);
  if (key === '_count') return { kind: 'count', asc };
  if (key === '_key' || key === '_term' || key === '_time') return { kind: 'key', asc };
  return parsePath(key, asc, subs, where);
}

/** An `order` parameter (an object or an array of them), with the key ascending tie-break appended. */
export function parseOrder(value: unknown, subs: readonly AggNode[], where: string): OrderKey[] {
  const list = Array.isArray(value) ? value : [value];
  const orders = list.map((item, i) => {
    const at = Array.isArray(value) ? `${where}[${i}]` : where;
    if (!isPlainObject(item)) throw invalid(`order at ${at} must be an object like {"_count": "desc"}, got ${describe(item)}`);
    return parseOne(item, subs, at);
  });
  if (orders.length === 0) throw invalid(`order at ${where} must not be empty`);
  if (!orders.some((o) => o.kind === 'key')) orders.push({ kind: 'key', asc: true });
  return orders;
}

export const needsSubs = (orders: readonly OrderKey[]): boolean => orders.some((o) => o.kind === 'path');

function asNumber(value: unknown): number {
  return typeof value === 'number' ? value : NaN;
}

/** The number a path order reads in a bucket's sub-aggregation answers (NaN when it has none). */
function pathValue(subs: AggResult | null, order: Extract<OrderKey, { kind: 'path' }>): number {
  let result: unknown = subs;
  for (const step of order.steps) result = isPlainObject(result) ? result[step] : undefined;
  if (!isPlainObject(result)) return NaN;
  const metric = order.metric;
  if (metric === null || metric === 'value') return asNumber(result.value ?? result.doc_count);
  if (metric === '_count' || metric === 'doc_count') return asNumber(result.doc_count);
  if (isPlainObject(result.values)) return asNumber(result.values[javaDouble(Number(metric))]);
  if (Array.isArray(result.values)) {
    const entry = result.values.find((v) => isPlainObject(v) && v.key === Number(metric));
    return isPlainObject(entry) ? asNumber(entry.value) : NaN;
  }
  if (metric.startsWith('std_') && isPlainObject(result.std_deviation_bounds)) {
    return asNumber(result.std_deviation_bounds[metric.slice(4)]);
  }
  return asNumber(result[metric]);
}

/** Numbers before strings never happens within one aggregation: keys are all of one kind. */
function compareKeys(a: string | number, b: string | number, compareStrings: (a: string, b: string) => number): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  return compareStrings(String(a), String(b));
}

/** A comparator of buckets in the given order. */
export function bucketComparator(orders: readonly OrderKey[], compareStrings: (a: string, b: string) => number): (a: OrderedBucket, b: OrderedBucket) => number {
  return (a, b) => {
    for (const order of orders) {
      let c: number;
      if (order.kind === 'count') c = a.count - b.count;
      else if (order.kind === 'key') c = compareKeys(a.key, b.key, compareStrings);
      else {
        const x = pathValue(a.subs, order);
        const y = pathValue(b.subs, order);
        if (Number.isNaN(x) || Number.isNaN(y)) {
          if (Number.isNaN(x) && Number.isNaN(y)) continue;
          return Number.isNaN(x) ? 1 : -1; // no value: last, whatever the direction
        }
        c = x < y ? -1 : x > y ? 1 : 0;
      }
      if (c !== 0) return order.asc ? c : -c;
    }
    return 0;
  };
}
