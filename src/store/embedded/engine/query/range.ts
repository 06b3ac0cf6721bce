/**
 * `range`: `{"range": {"age": {"gte": 10, "lt": 20}}}`, also `from`/`to` with `include_lower`/
 * `include_upper` (later keys override earlier ones, as Elasticsearch reads them in order); a null
 * bound is open. Constant-score. By field type:
 * - long, float: numeric comparison (a float field compares in 32-bit floats);
 * - date: bounds are date math (`now-1d/d`, `2024-01-01||+1M`, epoch millis as numbers) with
 *   Elasticsearch's rounding (gt and lte round up, gte and lt round down), optional `time_zone`
 *   and `format` (strict_date_optional_time, date_optional_time, epoch_millis, epoch_second);
 * - keyword, text, boolean: a term range in UTF-8 order over the indexed terms;
 * - unmapped: nothing matches. `time_zone` and `format` on other than date fields are errors.
 */
import { TimeZone, parseDateMath, parseTimeZone } from '../dates';
import { booleanTerm, toDouble, toFloat, toText } from '../fieldValues';
import { describe } from '../json';
import { LQuery, matchNone, withBoost } from '../lucene/query';
import { BuildContext, ClauseParser } from './context';
import { booleanValue, fieldType } from './fieldQueries';
import { NumericRange, pointRange, termRange } from './leaves';
import { at, boostOf, invalid, readBoolean, readEnum, readName, readString, singleField } from './params';

type Bound = string | number | boolean | null;

export interface RangeSpec {
  from: Bound;
  to: Bound;
  includeLower: boolean;
  includeUpper: boolean;
  timeZone: TimeZone | null;
  formats: { date: boolean; epochMillis: boolean; epochSecond: boolean } | null;
}

const DATE_FORMATS = new Set(['strict_date_optional_time', 'date_optional_time', 'strict_date_optional_time_nanos', 'strict_date', 'date', 'strict_date_time', 'date_time', 'strict_date_time_no_millis', 'date_time_no_millis', 'yyyy-MM-dd']);

function readFormat(value: unknown, where: string): RangeSpec['formats'] {
  const text = readString('range', 'format', value, where);
  const formats = { date: false, epochMillis: false, epochSecond: false };
  for (const name of text.split('||')) {
    if (name === 'epoch_millis') formats.epochMillis = true;
    else if (name === 'epoch_second') formats.epochSecond = true;
    else if (DATE_FORMATS.has(name)) formats.date = true;
    else throw invalid(`[range] date format ${JSON.stringify(name)} is not supported at ${where}`);
  }
  if (formats.epochMillis && formats.epochSecond) throw invalid(`[range] format at ${where} cannot combine epoch_millis and epoch_second`);
  return formats;
}

function readBound(value: unknown, where: string): Bound {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw invalid(`[range] bound at ${where} must be a string, a number, a boolean or null, got ${describe(value)}`);
}

export const parseRange: ClauseParser = (body, path) => {
  const [field, raw] = singleField('range', body, path);
  const where = at(path, field);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw invalid(`[range] query for ${JSON.stringify(field)} at ${where} must be an object, got ${describe(raw)}`);
  const obj = raw as Record<string, unknown>;
  const spec: RangeSpec = { from: null, to: null, includeLower: true, includeUpper: true, timeZone: null, formats: null };
  let boost = 1;
  for (const key of Object.keys(obj)) {
    const w = at(where, key);
    const value = obj[key];
    switch (key) {
      case 'gt':
        spec.from = readBound(value, w);
        spec.includeLower = false;
        break;
      case 'gte':
        spec.from = readBound(value, w);
        spec.includeLower = true;
        break;
      case 'lt':
        spec.to = readBound(value, w);
        spec.includeUpper = false;
        break;
      case 'lte':
        spec.to = readBound(value, w);
        spec.includeUpper = true;
        break;
      case 'from':
        spec.from = readBound(value, w);
        break;
      case 'to':
        spec.to = readBound(value, w);
        break;
      case 'include_lower':
        spec.includeLower = readBoolean('range', key, value, w);
        break;
      case 'include_upper':
        spec.includeUpper = readBoolean('range', key, value, w);
        break;
      case 'time_zone':
        spec.timeZone = parseTimeZone(readString('range', key, value, w), w);
        break;
      case 'format':
        spec.formats = readFormat(value, w);
        break;
      case 'relation':
        readEnum('range', key, value, ['intersects', 'contains', 'within'] as const, w);
        break;
      case 'boost':
        boost = boostOf('range', obj, where);
        break;
      case '_name':
        readName('range', obj, where);
        break;
      default:
        throw invalid(`unsupported parameter ${JSON.stringify(key)} for [range] at ${where}`);
    }
  }
  return { toLucene: (ctx) => withBoost(rangeQuery(ctx, field, spec, where), boost) };
};

function numericBound(field: string, value: Bound, where: string, type: 'long' | 'float' | 'double'): number | null {
  if (value === null) return null;
  const n = type === 'float' ? toFloat(value) : toDouble(value);
  if (n === null) throw invalid(`failed to create query: ${describe(value)} is not a valid ${type} bound for field ${JSON.stringify(field)} at ${where}`);
  return n;
}

const F64 = new Float64Array(1);
const U64 = new BigInt64Array(F64.buffer);

/** Java's Math.nextUp (up) or nextDown of a finite double. */
function nextAfter(value: number, up: boolean): number {
  if (value === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  F64[0] = value;
  U64[0] += (value > 0) === up ? 1n : -1n;
  return F64[0];
}

/**
 * A range on a scaled_float (ScaledFloatFieldMapper.rangeQuery): each bound scaled (times
 * scaling_factor), an exclusive one moved to the next double, then rounded inwards to a long
 * (ceil for the lower, floor for the upper) and both included; the index holds each value's long
 * times 1 / scaling_factor, which keeps their order.
 */
function scaledRange(range: NumericRange, factor: number): NumericRange {
  const inverse = 1 / factor;
  const scale = (bound: number, lower: boolean, inclusive: boolean) => {
    let d = bound * factor;
    if (!inclusive && Number.isFinite(d)) d = nextAfter(d, lower);
    return (lower ? Math.ceil(d) : Math.floor(d)) * inverse + 0;
  };
  return {
    lower: range.lower === null ? null : scale(range.lower, true, range.includeLower),
    includeLower: true,
    upper: range.upper === null ? null : scale(range.upper, false, range.includeUpper),
    includeUpper: true,
  };
}

function dateRangeBound(ctx: BuildContext, spec: RangeSpec, value: Bound, roundUp: boolean, where: string): number | null {
  if (value === null) return null;
  if (typeof value === 'number') {
    if (spec.formats !== null && !spec.formats.epochMillis && !spec.formats.epochSecond) throw invalid(`failed to parse date ${value} at ${where}`);
    return Math.trunc(spec.formats?.epochSecond ? value * 1000 : value);
  }
  if (typeof value !== 'string') throw invalid(`failed to create query: ${describe(value)} is not a date at ${where}`);
  return parseDateMath(value, { now: ctx.now, roundUp, zone: spec.timeZone ?? undefined, formats: spec.formats ?? undefined, where });
}

/** The range query of one field (its type decides how the bounds are read). */
export function rangeQuery(ctx: BuildContext, field: string, spec: RangeSpec, where: string): LQuery {
  const type = fieldType(ctx, field);
  if (type === undefined) return matchNone(`unmapped field ${field}`);
  if (type !== 'date' && spec.timeZone !== null) throw invalid(`[range] time_zone can not be applied to non date field ${JSON.stringify(field)} at ${where}`);
  if (type !== 'date' && spec.formats !== null) throw invalid(`[range] format can not be applied to non date field ${JSON.stringify(field)} at ${where}`);
  switch (type) {
    case 'id':
      throw invalid(`[range] queries are not supported on field "_id" at ${where}`);
    case 'long':
    case 'float':
    case 'double': {
      const range: NumericRange = {
        lower: numericBound(field, spec.from, at(where, 'from'), type),
        includeLower: spec.includeLower,
        upper: numericBound(field, spec.to, at(where, 'to'), type),
        includeUpper: spec.includeUpper,
      };
      // a half_float's values are 16-bit floats: compared with the bounds as floats, the same matches as HalfFloatPoint's rounded bounds
      const kind = ctx.mapping.numberKind(field);
      return pointRange(field, kind?.kind === 'scaled_float' ? scaledRange(range, kind.scalingFactor) : range);
    }
    case 'date': {
      // DateFieldType.rangeQuery: gt rounds up then excludes, lte rounds up, gte and lt round down
      const lower = dateRangeBound(ctx, spec, spec.from, !spec.includeLower, at(where, 'from'));
      const upper = dateRangeBound(ctx, spec, spec.to, spec.includeUpper, at(where, 'to'));
      return pointRange(field, { lower, includeLower: spec.includeLower, upper, includeUpper: spec.includeUpper });
    }
    case 'boolean': {
      const term = (v: Bound, w: string) => (v === null ? null : booleanTerm(booleanValue(field, v, w)));
      return termRange(field, term(spec.from, at(where, 'from')), spec.includeLower, term(spec.to, at(where, 'to')), spec.includeUpper);
    }
    case 'text':
    case 'keyword': {
      // TermBasedFieldType.rangeQuery: the bounds are indexedValueForSearch (a keyword field's normalizer applied)
      const term = (v: Bound) => (v === null ? null : ctx.mapping.normalizeKeyword(field, toText(v) as string));
      return termRange(field, term(spec.from), spec.includeLower, term(spec.to), spec.includeUpper);
    }
  }
}

