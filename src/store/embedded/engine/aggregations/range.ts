/**
 * `range` and `date_range`: a bucket per range, `from` included and `to` excluded (Elasticsearch's
 * RangeAggregator and DateRangeAggregationBuilder). `ranges` of `{key?, from?, to?}`, `keyed`
 * (answer an object keyed by bucket key instead of an array), `missing`; `date_range` adds
 * `format` and `time_zone`, and its bounds may be date math (`now-1M/M`, rounded down at both ends,
 * as Elasticsearch parses both), dates in the format (or the field's), or epoch millis.
 *
 * Buckets come sorted by `from` then `to` (AbstractRangeBuilder sorts them); a document is counted
 * once in each range one of its values falls in. A bucket's key is its `key`, else `from-to` with
 * `*` for an open end (numbers as Java prints doubles, "*-100.0"; dates in the format). `from` and
 * `to` are answered as numbers (dates: epoch millis, with `from_as_string`/`to_as_string`). On a
 * float field the bounds are rounded to float precision, as Elasticsearch compares them.
 */
import { InvalidQueryError } from '../../../port';
import { Steps } from '../budget/budget';
import { TimeZone, UTC, parseDateMath } from '../dates';
import { toDouble } from '../fieldValues';
import { describe, hasOwn, isPlainObject, setOwn } from '../json';
import { DEFAULT_DATE_FORMAT, DateFormats } from './dateFormat';
import { javaDouble } from './numbers';
import { aggBody, at, invalid, readBool, readField, readFormat, readMissing, readTimeZone } from './params';
import { runAggregations, splitDocs } from './run';
import { AggContext, AggNode, AggParseContext, AggResult, Aggregator, DocSet } from './types';
import { fieldValues, missingValue, valuePrinter } from './values';

type Bound = number | string | null;

interface RangeSpec {
  key: string | null;
  from: Bound;
  to: Bound;
  where: string;
}

interface Config {
  type: 'range' | 'date_range';
  field: string;
  ranges: RangeSpec[];
  keyed: boolean;
  missing: string | number | boolean | undefined;
  format: DateFormats | null;
  zone: TimeZone;
}

function readBound(type: string, range: Record<string, unknown>, name: 'from' | 'to', where: string): Bound {
  if (!hasOwn(range, name) || range[name] === null) return null;
  const value = range[name];
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') return value;
  throw invalid(`[${type}] "${name}" at ${at(where, name)} must be a number or a string, got ${describe(value)}`);
}

function parseRanges(type: string, value: unknown, where: string): RangeSpec[] {
  if (value === undefined) throw invalid(`No [ranges] specified for the [${type}] aggregation at ${where}`);
  if (!Array.isArray(value) || value.length === 0) throw invalid(`[${type}] "ranges" at ${where} must be a non-empty array, got ${describe(value)}`);
  return value.map((range, i) => {
    const rwhere = `${where}[${i}]`;
    if (!isPlainObject(range)) throw invalid(`[${type}] range at ${rwhere} must be an object, got ${describe(range)}`);
    for (const key of Object.keys(range)) if (key !== 'key' && key !== 'from' && key !== 'to') throw invalid(`[range] unknown field [${key}] at ${rwhere}`);
    let key: string | null = null;
    if (hasOwn(range, 'key')) {
      if (typeof range.key !== 'string' && typeof range.key !== 'number') throw invalid(`[${type}] "key" at ${rwhere}.key must be a string, got ${describe(range.key)}`);
      key = String(range.key);
    }
    return { key, from: readBound(type, range, 'from', rwhere), to: readBound(type, range, 'to', rwhere), where: rwhere };
  });
}

export function parseRange(type: 'range' | 'date_range', body: unknown, where: string, _ctx: AggParseContext): Aggregator {
  const allowed = type === 'range' ? ['field', 'ranges', 'keyed', 'missing', 'format'] : ['field', 'ranges', 'keyed', 'missing', 'format', 'time_zone'];
  const obj = aggBody(type, body, where, allowed);
  const config: Config = {
    type,
    field: readField(type, obj, where),
    ranges: parseRanges(type, obj.ranges, at(where, 'ranges')),
    keyed: readBool(type, obj, 'keyed', where, false),
    missing: readMissing(type, obj, where),
    format: readFormat(type, obj, where),
    zone: type === 'date_range' ? readTimeZone(type, obj, where) : UTC,
  };
  return { type, run: (docs, ctx, subs) => runRange(config, docs, ctx, subs) };
}

interface Resolved {
  key: string;
  from: number;
  to: number;
}

function* runRange(config: Config, docs: DocSet, ctx: AggContext, subs: readonly AggNode[]): Steps<AggResult> {
  const accepts = config.type === 'range' ? (['numeric', 'date', 'boolean'] as const) : (['date'] as const);
  const values = fieldValues(ctx, config.field, config.type, accepts);
  const dates = config.type === 'date_range' || (values.kind === 'numeric' && values.type === 'date');
  const printer = valuePrinter(values, config.format, config.zone) ?? (dates ? (v: number) => (config.format ?? DEFAULT_DATE_FORMAT).print(Math.trunc(v), config.zone) : null);
  const float = values.kind === 'numeric' && values.type === 'float';
  const resolve = (bound: Bound, infinite: number, where: string): number => {
    if (bound === null) return infinite;
    if (typeof bound === 'number') return bound;
    if (dates) return parseDate(bound, config, ctx.now, where);
    const n = toDouble(bound);
    if (n === null) throw invalid(`[${config.type}] bound ${describe(bound)} at ${where} is not a number`);
    return n;
  };
  const ranges: Resolved[] = config.ranges.map((r) => {
    const from = resolve(r.from, -Infinity, `${r.where}.from`);
    const to = resolve(r.to, Infinity, `${r.where}.to`);
    const text = (v: number) => (printer === null ? javaDouble(v) : printer(v));
    const key = r.key ?? `${from === -Infinity ? '*' : text(from)}-${to === Infinity ? '*' : text(to)}`;
    return { key, from, to };
  });
  // stable sort by from, then to (AbstractRangeBuilder.sortRanges)
  const order = ranges.map((_, i) => i).sort((a, b) => ranges[a].from - ranges[b].from || ranges[a].to - ranges[b].to || a - b);
  const sorted = order.map((i) => ranges[i]);
  const lows = sorted.map((r) => (float ? Math.fround(r.from) : r.from));
  const highs = sorted.map((r) => (float ? Math.fround(r.to) : r.to));
  const missing = config.missing === undefined ? undefined : Number(missingValue(values, config.missing, 'missing'));
  const forward = values.kind === 'none' ? null : values.forward;
  ctx.buckets.add(sorted.length);
  const lists = yield* splitDocs(
    docs,
    sorted.length,
    (doc, emit) => {
      const from = forward === null ? 0 : forward.from(doc);
      const to = forward === null ? 0 : forward.to(doc);
      for (let r = 0; r < sorted.length; r++) {
        let hit = false;
        if (from === to) hit = missing !== undefined && missing >= lows[r] && missing < highs[r];
        else for (let j = from; j < to && !hit; j++) hit = (forward as { entries: Float64Array }).entries[j] >= lows[r] && (forward as { entries: Float64Array }).entries[j] < highs[r];
        if (hit) emit(r);
      }
    },
    ctx,
  );
  const keyed: AggResult = {};
  const list: AggResult[] = [];
  for (let r = 0; r < sorted.length; r++) {
    const range = sorted[r];
    const bucket: AggResult = config.keyed ? {} : { key: range.key };
    if (range.from !== -Infinity) {
      bucket.from = range.from;
      if (printer !== null) bucket.from_as_string = printer(range.from);
    }
    if (range.to !== Infinity) {
      bucket.to = range.to;
      if (printer !== null) bucket.to_as_string = printer(range.to);
    }
    bucket.doc_count = lists[r].length;
    Object.assign(bucket, yield* runAggregations(subs, lists[r], ctx));
    if (config.keyed) setOwn(keyed, range.key, bucket);
    else list.push(bucket);
  }
  return { buckets: config.keyed ? keyed : list };
}

/** A date_range bound: date math, a date in the format, or epoch millis (Elasticsearch's DocValueFormat.parseDouble). */
function parseDate(text: string, config: Config, now: number, where: string): number {
  if (config.format !== null && !text.startsWith('now') && !text.includes('||')) {
    const parsed = config.format.parse(text, config.zone);
    if (parsed !== null) return parsed;
  }
  try {
    return parseDateMath(text, { now, roundUp: false, zone: config.zone, where });
  } catch (err) {
    if (err instanceof InvalidQueryError && config.format !== null) throw invalid(`failed to parse date ${JSON.stringify(text)} with format [${config.format.text}] at ${where}`);
    throw err;
  }
}
