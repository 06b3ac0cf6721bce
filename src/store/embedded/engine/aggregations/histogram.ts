/**
 * `histogram`: buckets of width `interval` (> 0) over a numeric field (Elasticsearch's
 * HistogramAggregationBuilder): a value's key is floor((value - offset) / interval) * interval +
 * offset. `offset`, `min_doc_count` (0: empty buckets between the first and last key), `extended_bounds`
 * and `hard_bounds` ({min, max}), `keyed`, `order` (default `_key` asc), `missing`. Keys are doubles;
 * keyed buckets are named as Java prints the double ("10.0").
 */
import { hasOwn, isPlainObject, describe } from '../json';
import { Bounds, runHistogram } from './histogramBuckets';
import { javaDouble } from './numbers';
import { parseOrder } from './order';
import { aggBody, at, invalid, readBool, readField, readInt, readMissing, readNumber } from './params';
import { AggParseContext, Aggregator } from './types';
import { fieldValues, missingValue, valuePrinter } from './values';

const PARAMS = ['field', 'interval', 'offset', 'min_doc_count', 'extended_bounds', 'hard_bounds', 'keyed', 'order', 'missing'];

/** `{min, max}` of extended_bounds or hard_bounds, each end optional; `read` turns an end into a number. */
export function readBounds(type: string, obj: Record<string, unknown>, name: string, where: string, read: (value: unknown, where: string) => number): Bounds | null {
  if (!hasOwn(obj, name)) return null;
  const value = obj[name];
  const bwhere = at(where, name);
  if (!isPlainObject(value)) throw invalid(`[${type}] "${name}" at ${bwhere} must be an object {"min", "max"}, got ${describe(value)}`);
  for (const key of Object.keys(value)) if (key !== 'min' && key !== 'max') throw invalid(`[${name}] unknown field [${key}] at ${bwhere}`);
  const end = (key: 'min' | 'max') => (value[key] === undefined || value[key] === null ? null : read(value[key], `${bwhere}.${key}`));
  const bounds = { min: end('min'), max: end('max') };
  if (bounds.min !== null && bounds.max !== null && bounds.min > bounds.max) {
    throw invalid(`[${name}.min][${bounds.min}] cannot be greater than [${name}.max][${bounds.max}] for histogram aggregation at ${bwhere}`);
  }
  return bounds;
}

export function parseHistogram(body: unknown, where: string, ctx: AggParseContext): Aggregator {
  const obj = aggBody('histogram', body, where, PARAMS);
  const field = readField('histogram', obj, where);
  if (!hasOwn(obj, 'interval')) throw invalid(`[interval] must be >0 for histogram aggregation [${ctx.name}] (at ${where})`);
  const interval = readNumber('histogram', obj, 'interval', where);
  if (!(interval > 0)) throw invalid(`[interval] must be >0 for histogram aggregation [${ctx.name}] (at ${at(where, 'interval')})`);
  const offset = hasOwn(obj, 'offset') ? readNumber('histogram', obj, 'offset', where) : 0;
  const number = (value: unknown, w: string) => readNumber('histogram', { v: value }, 'v', w);
  const minDocCount = readInt('histogram', obj, 'min_doc_count', where, 0, 0);
  const extended = readBounds('histogram', obj, 'extended_bounds', where, number);
  const hard = readBounds('histogram', obj, 'hard_bounds', where, number);
  const keyed = readBool('histogram', obj, 'keyed', where, false);
  const orders = hasOwn(obj, 'order') ? parseOrder(obj.order, ctx.subs, at(where, 'order')) : null;
  const missing = readMissing('histogram', obj, where);
  const round = (value: number) => Math.floor((value - offset) / interval) * interval + offset;
  return {
    type: 'histogram',
    run(docs, actx, subs) {
      const values = fieldValues(actx, field, 'histogram', ['numeric', 'date', 'boolean']);
      const printer = valuePrinter(values, null);
      return runHistogram(
        {
          round,
          // InternalHistogram.nextKey: half an interval more, so that rounding never lands on the same key
          next: (key) => round(key + interval + interval / 2),
          minDocCount,
          extended,
          hard,
          keyed,
          orders,
          keyAsString: (key) => (printer === null ? null : printer(key)),
          keyedName: (key) => (printer === null ? javaDouble(key) : printer(key)),
          missing: missing === undefined ? undefined : Number(missingValue(values, missing, at(where, 'missing'))),
        },
        values,
        docs,
        actx,
        subs,
      );
    },
  };
}
