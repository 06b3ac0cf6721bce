/**
 * `date_histogram`: buckets of a date field by `calendar_interval` or `fixed_interval` (exactly one;
 * the old `interval` is refused as in Elasticsearch 8), in a `time_zone`, shifted by `offset`
 * (`+6h`, `-1d`, or milliseconds), with `format` for `key_as_string`, `min_doc_count` (0: empty
 * buckets between the first and last key), `extended_bounds`/`hard_bounds` (dates in the format,
 * date math or epoch millis), `keyed` (named by key_as_string), `order` (default `_key` asc) and
 * `missing`. Keys are epoch millis of each bucket's start (dateRounding.ts).
 */
import { TimeZone, parseDateMath } from '../dates';
import { describe, hasOwn } from '../json';
import { DEFAULT_DATE_FORMAT, DateFormats } from './dateFormat';
import { DateRounding, calendarInterval, calendarRounding, fixedInterval, fixedRounding } from './dateRounding';
import { runHistogram } from './histogramBuckets';
import { readBounds } from './histogram';
import { parseOrder } from './order';
import { aggBody, at, invalid, readBool, readField, readFormat, readInt, readMissing, readString, readTimeZone } from './params';
import { parseTimeValueMillis } from './timeValue';
import { AggParseContext, Aggregator } from './types';
import { fieldValues, missingValue } from './values';

const PARAMS = ['field', 'calendar_interval', 'fixed_interval', 'interval', 'time_zone', 'offset', 'format', 'min_doc_count', 'extended_bounds', 'hard_bounds', 'keyed', 'order', 'missing'];

export function readOffset(type: string, obj: Record<string, unknown>, where: string): number {
  if (!hasOwn(obj, 'offset')) return 0;
  const value = obj.offset;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  const ms = typeof value === 'string' ? parseTimeValueMillis(value) : null;
  if (ms === null) throw invalid(`[${type}] "offset" at ${at(where, 'offset')} must be a time value like "+6h" or "-1d", got ${describe(value)}`);
  return ms;
}

/** The rounding of a date_histogram body (or a composite's date_histogram source). */
export function readDateRounding(type: string, obj: Record<string, unknown>, where: string, zone: TimeZone, offset: number): DateRounding {
  if (hasOwn(obj, 'interval')) throw invalid(`[interval] on [${type}] at ${at(where, 'interval')} is no longer supported: use [calendar_interval] or [fixed_interval]`);
  const calendar = hasOwn(obj, 'calendar_interval');
  const fixed = hasOwn(obj, 'fixed_interval');
  if (calendar && fixed) throw invalid(`Cannot use [fixed_interval] with [calendar_interval] configuration option (at ${where})`);
  if (calendar) return calendarRounding(calendarInterval(readString(type, obj, 'calendar_interval', where), at(where, 'calendar_interval')), zone, offset);
  if (fixed) return fixedRounding(fixedInterval(readString(type, obj, 'fixed_interval', where), at(where, 'fixed_interval')), zone, offset);
  throw invalid(`Invalid interval specified, must be non-null and non-empty: [${type}] at ${where} needs a calendar_interval or a fixed_interval`);
}

/** A date given in a parameter: epoch millis, a date in the format, or date math. */
export function readDate(value: unknown, where: string, format: DateFormats | null, zone: TimeZone, now: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value !== 'string') throw invalid(`date at ${where} must be a string or epoch millis, got ${describe(value)}`);
  if (!value.startsWith('now') && !value.includes('||')) {
    const parsed = (format ?? DEFAULT_DATE_FORMAT).parse(value, zone);
    if (parsed !== null) return parsed;
  }
  return parseDateMath(value, { now, roundUp: false, zone, where });
}

export function parseDateHistogram(body: unknown, where: string, ctx: AggParseContext): Aggregator {
  const obj = aggBody('date_histogram', body, where, PARAMS);
  const field = readField('date_histogram', obj, where);
  const zone = readTimeZone('date_histogram', obj, where);
  const offset = readOffset('date_histogram', obj, where);
  const rounding = readDateRounding('date_histogram', obj, where, zone, offset);
  const format = readFormat('date_histogram', obj, where);
  const minDocCount = readInt('date_histogram', obj, 'min_doc_count', where, 0, 0);
  const keyed = readBool('date_histogram', obj, 'keyed', where, false);
  const orders = hasOwn(obj, 'order') ? parseOrder(obj.order, ctx.subs, at(where, 'order')) : null;
  const missing = readMissing('date_histogram', obj, where);
  // checked now (a store that only validates sees bad bounds); read again with the search's `now`
  for (const name of ['extended_bounds', 'hard_bounds']) readBounds('date_histogram', obj, name, where, (value, w) => readDate(value, w, format, zone, Date.now()));
  const print = (key: number) => (format ?? DEFAULT_DATE_FORMAT).print(key, zone);
  return {
    type: 'date_histogram',
    run(docs, actx, subs) {
      const values = fieldValues(actx, field, 'date_histogram', ['date']);
      const date = (value: unknown, w: string) => readDate(value, w, format, zone, actx.now);
      return runHistogram(
        {
          round: rounding.round,
          next: rounding.next,
          minDocCount,
          extended: readBounds('date_histogram', obj, 'extended_bounds', where, date),
          hard: readBounds('date_histogram', obj, 'hard_bounds', where, date),
          keyed,
          orders,
          keyAsString: print,
          keyedName: print,
          missing: missing === undefined ? undefined : Number(missingValue(values.kind === 'none' ? { kind: 'numeric', type: 'date', forward: null as never } : values, missing, at(where, 'missing'))),
        },
        values,
        docs,
        actx,
        subs,
      );
    },
  };
}
