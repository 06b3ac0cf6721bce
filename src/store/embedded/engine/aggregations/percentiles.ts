/**
 * `percentiles` (Elasticsearch's InternalTDigestPercentiles): `percents` (default 1, 5, 25, 50, 75,
 * 95, 99; each in [0, 100]), `keyed` (default true: `{"values": {"50.0": v}}`; false:
 * `{"values": [{"key": 50.0, "value": v}]}`), `tdigest.compression`, `missing`, `format` (dates add
 * `"50.0_as_string"`). Over no values every percentile is null.
 *
 * Method: Elasticsearch 8.9+ keeps a TDigestState whose default implementation (HybridDigest) holds
 * every value while there are fewer than 20 x compression of them (2,000 with the default
 * compression of 100: a SortingDigest) and answers with Dist.quantile, linear interpolation between
 * the sorted values at rank q x (n - 1). Here every percentile is computed that way, at every size:
 * equal to Elasticsearch's below 2,000 values, and exact above, where Elasticsearch switches to a
 * MergingDigest whose answers are approximations (typically within 1% of the range). `hdr` is refused.
 */
import { Steps } from '../budget/budget';
import { describe, hasOwn, isPlainObject, setOwn } from '../json';
import { eachNumber } from './metricValues';
import { javaDouble } from './numbers';
import { aggBody, at, invalid, readBool, readFormat, readField, readMissing, readNumber } from './params';
import { AggResult, Aggregator } from './types';
import { fieldValues, missingValue, valuePrinter } from './values';

const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];

/** Dist.quantile: linear interpolation between the sorted values at rank q * (n - 1). */
export function quantile(sorted: Float64Array, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const index = q * (n - 1);
  if (index <= 0) return sorted[0];
  if (index >= n - 1) return sorted[n - 1];
  const low = Math.floor(index);
  const weight = index - low;
  return sorted[low] + weight * (sorted[low + 1] - sorted[low]);
}

function readPercents(obj: Record<string, unknown>, where: string): number[] {
  if (!hasOwn(obj, 'percents')) return DEFAULT_PERCENTS;
  const list = obj.percents;
  const pwhere = at(where, 'percents');
  if (!Array.isArray(list)) throw invalid(`[percentiles] "percents" at ${pwhere} must be an array of numbers, got ${describe(list)}`);
  if (list.length === 0) throw invalid(`[percents] must not be empty (at ${pwhere})`);
  return list.map((p, i) => {
    if (typeof p !== 'number' || !Number.isFinite(p)) throw invalid(`[percentiles] percent at ${pwhere}[${i}] must be a number, got ${describe(p)}`);
    if (p < 0 || p > 100) throw invalid(`percent must be in [0,100], got [${p}] (at ${pwhere}[${i}])`);
    return p;
  });
}

export function parsePercentiles(body: unknown, where: string): Aggregator {
  const obj = aggBody('percentiles', body, where, ['field', 'percents', 'keyed', 'tdigest', 'hdr', 'missing', 'format']);
  if (hasOwn(obj, 'hdr')) throw invalid(`[percentiles] "hdr" at ${at(where, 'hdr')} is not supported: percentiles are computed as Elasticsearch's t-digest computes them (see README)`);
  const field = readField('percentiles', obj, where);
  const percents = readPercents(obj, where);
  const keyed = readBool('percentiles', obj, 'keyed', where, true);
  const rawMissing = readMissing('percentiles', obj, where);
  const format = readFormat('percentiles', obj, where);
  if (hasOwn(obj, 'tdigest')) {
    const tdigest = obj.tdigest;
    const twhere = at(where, 'tdigest');
    if (!isPlainObject(tdigest)) throw invalid(`[percentiles] "tdigest" at ${twhere} must be an object, got ${describe(tdigest)}`);
    for (const key of Object.keys(tdigest)) if (key !== 'compression' && key !== 'execution_hint') throw invalid(`[tdigest] unknown field [${key}] at ${twhere}`);
    if (hasOwn(tdigest, 'compression') && readNumber('percentiles', tdigest, 'compression', twhere) < 0) throw invalid(`[compression] must be greater than or equal to 0 (at ${twhere})`);
  }
  return {
    type: 'percentiles',
    *run(docs, ctx): Steps<AggResult> {
      const values = fieldValues(ctx, field, 'percentiles', ['numeric', 'date', 'boolean']);
      const missing = rawMissing === undefined ? undefined : Number(missingValue(values, rawMissing, at(where, 'missing')));
      const all: number[] = [];
      yield* eachNumber(values, docs, missing, ctx, (v) => all.push(v));
      const sorted = Float64Array.from(all).sort();
      const printer = valuePrinter(values, format);
      if (keyed) {
        const out: AggResult = {};
        for (const p of percents) {
          const key = javaDouble(p);
          const value = quantile(sorted, p / 100);
          setOwn(out, key, sorted.length === 0 ? null : value);
          if (printer !== null && sorted.length > 0) setOwn(out, `${key}_as_string`, printer(value));
        }
        return { values: out };
      }
      return {
        values: percents.map((p) => {
          const value = quantile(sorted, p / 100);
          const entry: AggResult = { key: p, value: sorted.length === 0 ? null : value };
          if (printer !== null && sorted.length > 0) entry.value_as_string = printer(value);
          return entry;
        }),
      };
    },
  };
}
