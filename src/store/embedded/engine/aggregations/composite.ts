/**
 * `composite`: every combination of its sources' values, in order, a page at a time (Elasticsearch's
 * CompositeAggregator), for paging through all the buckets of a facet. `sources`: an array of
 * `{name: {terms | histogram | date_histogram: {field, order: asc|desc, missing_bucket, ...}}}`
 * (histogram: `interval`; date_histogram: `calendar_interval`/`fixed_interval`, `time_zone`,
 * `offset`, `format`); `size` (10) buckets after `after` (the `after_key` of the previous page).
 * Answers `{after_key, buckets: [{key: {name: value}, doc_count}]}` (`after_key` only when there are
 * buckets; a page with none is the last). A document with several values falls in each combination;
 * without a value it is left out, or keyed null with `missing_bucket` (null first ascending, last
 * descending). Keys: terms as strings or numbers, histogram as doubles, date_histogram as epoch
 * millis (formatted strings with `format`). Only at the top level, as in Elasticsearch.
 */
import { Steps } from '../budget/budget';
import { TimeZone, UTC } from '../dates';
import { describe, hasOwn, isPlainObject, setOwn } from '../json';
import { compareUtf8 } from '../strings';
import { DateFormats } from './dateFormat';
import { DateRounding } from './dateRounding';
import { readDate, readDateRounding, readOffset } from './dateHistogram';
import { aggBody, at, invalid, readBool, readField, readFormat, readInt, readNumber, readTimeZone } from './params';
import { checkpoint, runAggregations } from './run';
import { selectTop } from './select';
import { AggContext, AggNode, AggParseContext, AggResult, Aggregator, DocSet } from './types';
import { fieldValues, Values } from './values';

type Key = string | number | boolean | null;

interface Source {
  name: string;
  kind: 'terms' | 'histogram' | 'date_histogram';
  field: string;
  asc: boolean;
  missingBucket: boolean;
  interval: number;
  rounding: DateRounding | null;
  format: DateFormats | null;
  zone: TimeZone;
  where: string;
}

function parseSource(item: unknown, where: string): Source {
  if (!isPlainObject(item) || Object.keys(item).length !== 1) throw invalid(`[composite] source at ${where} must be an object with one named source, got ${describe(item)}`);
  const name = Object.keys(item)[0];
  const spec = item[name];
  const swhere = at(where, name);
  if (!isPlainObject(spec) || Object.keys(spec).length !== 1) throw invalid(`[composite] source ${JSON.stringify(name)} at ${swhere} must hold one of terms, histogram, date_histogram`);
  const kind = Object.keys(spec)[0];
  const kwhere = at(swhere, kind);
  const common = ['field', 'order', 'missing_bucket', 'missing_order'];
  const source: Source = { name, kind: 'terms', field: '', asc: true, missingBucket: false, interval: 0, rounding: null, format: null, zone: UTC, where: kwhere };
  let obj: Record<string, unknown>;
  if (kind === 'terms') {
    obj = aggBody('terms', spec[kind], kwhere, common);
  } else if (kind === 'histogram') {
    obj = aggBody('histogram', spec[kind], kwhere, [...common, 'interval']);
    source.kind = 'histogram';
    source.interval = readNumber('histogram', obj, 'interval', kwhere);
    if (!(source.interval > 0)) throw invalid(`[interval] must be >0 for histogram source ${JSON.stringify(name)} (at ${kwhere})`);
  } else if (kind === 'date_histogram') {
    obj = aggBody('date_histogram', spec[kind], kwhere, [...common, 'calendar_interval', 'fixed_interval', 'interval', 'time_zone', 'offset', 'format']);
    source.kind = 'date_histogram';
    source.zone = readTimeZone('date_histogram', obj, kwhere);
    source.rounding = readDateRounding('date_histogram', obj, kwhere, source.zone, readOffset('date_histogram', obj, kwhere));
    source.format = readFormat('date_histogram', obj, kwhere);
  } else {
    throw invalid(`[composite] source type [${kind}] at ${swhere} is not supported (terms, histogram, date_histogram)`);
  }
  source.field = readField(kind, obj, kwhere);
  if (hasOwn(obj, 'order')) {
    if (obj.order !== 'asc' && obj.order !== 'desc') throw invalid(`[composite] "order" at ${at(kwhere, 'order')} must be "asc" or "desc", got ${describe(obj.order)}`);
    source.asc = obj.order === 'asc';
  }
  source.missingBucket = readBool(kind, obj, 'missing_bucket', kwhere, false);
  if (hasOwn(obj, 'missing_order') && !['first', 'last', 'default'].includes(obj.missing_order as string)) throw invalid(`[composite] "missing_order" at ${at(kwhere, 'missing_order')} must be first, last or default`);
  return source;
}

interface Config {
  sources: Source[];
  size: number;
  after: Record<string, unknown> | null;
}

export function parseComposite(body: unknown, where: string, ctx: AggParseContext): Aggregator {
  if (ctx.parent !== null) throw invalid(`[composite] aggregation [${ctx.name}] cannot be used with a parent aggregation of type: [${ctx.parent}] (at ${where})`);
  const obj = aggBody('composite', body, where, ['sources', 'size', 'after']);
  const list = obj.sources;
  if (!Array.isArray(list) || list.length === 0) throw invalid(`Composite [sources] cannot be null or empty (at ${at(where, 'sources')})`);
  const sources = list.map((item, i) => parseSource(item, `${at(where, 'sources')}[${i}]`));
  const names = new Set<string>();
  for (const s of sources) {
    if (names.has(s.name)) throw invalid(`Composite source names must be unique, found duplicates: [${s.name}] (at ${where})`);
    names.add(s.name);
  }
  let after: Record<string, unknown> | null = null;
  if (hasOwn(obj, 'after')) {
    const value = obj.after;
    if (!isPlainObject(value)) throw invalid(`[composite] "after" at ${at(where, 'after')} must be an object (an after_key), got ${describe(value)}`);
    const keys = Object.keys(value);
    if (keys.length !== sources.length || sources.some((s) => !hasOwn(value, s.name))) {
      throw invalid(`[after] has ${keys.length} value(s) but [sources] has ${sources.length}: "after" at ${at(where, 'after')} must give a value for each source (${sources.map((s) => s.name).join(', ')})`);
    }
    after = value;
  }
  const config: Config = { sources, size: readInt('composite', obj, 'size', where, 1, 10), after };
  return { type: 'composite', run: (docs, actx, subs) => runComposite(config, docs, actx, subs) };
}

/** The keys of a document for one source: distinct, ascending; [null] with missing_bucket and no value. */
function keysOf(source: Source, values: Values, doc: number): Key[] {
  const out: Key[] = [];
  if (values.kind !== 'none') {
    const forward = values.forward;
    for (let j = forward.from(doc), end = forward.to(doc); j < end; j++) {
      const raw = forward.entries[j];
      let key: Key;
      if (values.kind === 'keyword') key = values.dict.term(raw);
      else if (source.kind === 'histogram') key = Math.floor(raw / source.interval) * source.interval;
      else if (source.kind === 'date_histogram') key = (source.rounding as DateRounding).round(raw);
      else key = values.type === 'boolean' ? raw !== 0 : raw;
      if (!out.includes(key)) out.push(key);
    }
  }
  if (out.length === 0 && source.missingBucket) out.push(null);
  return out;
}

function compareKey(a: Key, b: Key, asc: boolean): number {
  if (a === b) return 0;
  if (a === null) return -1; // nulls first ascending, last descending (after the flip below)
  if (b === null) return 1;
  let c: number;
  if (typeof a === 'string' && typeof b === 'string') c = compareUtf8(a, b);
  else c = Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
  return asc ? c : -c;
}

function* runComposite(config: Config, docs: DocSet, ctx: AggContext, subs: readonly AggNode[]): Steps<AggResult> {
  const { sources } = config;
  const valuesOf = sources.map((s) => fieldValues(ctx, s.field, s.kind, s.kind === 'date_histogram' ? ['date'] : s.kind === 'histogram' ? ['numeric', 'date'] : ['keyword', 'numeric', 'date', 'boolean']));
  const compare = (a: Key[], b: Key[]) => {
    for (let i = 0; i < sources.length; i++) {
      const asc = sources[i].asc;
      const c = a[i] === null || b[i] === null ? (asc ? 1 : -1) * compareKey(a[i], b[i], true) : compareKey(a[i], b[i], asc);
      if (c !== 0) return c;
    }
    return 0;
  };
  const after = config.after === null ? null : sources.map((s, i) => afterValue(s, valuesOf[i], (config.after as Record<string, unknown>)[s.name], ctx.now));
  const groups = new Map<string, { key: Key[]; count: number; docs: number[] }>();
  for (let i = 0; i < docs.length; i++) {
    if (checkpoint(i) && ctx.budget.due()) yield;
    const doc = docs[i];
    let combos: Key[][] = [[]];
    for (let s = 0; s < sources.length && combos.length > 0; s++) {
      const keys = keysOf(sources[s], valuesOf[s], doc);
      combos = combos.flatMap((c) => keys.map((k) => [...c, k]));
    }
    for (const combo of combos) {
      if (after !== null && compare(combo, after) <= 0) continue;
      const id = JSON.stringify(combo);
      let group = groups.get(id);
      if (group === undefined) groups.set(id, (group = { key: combo, count: 0, docs: [] }));
      group.count++;
      if (subs.length > 0) group.docs.push(doc);
    }
  }
  const page = yield* selectTop([...groups.values()], config.size, (a, b) => compare(a.key, b.key), ctx);
  ctx.buckets.add(page.length);
  const keyObject = (key: Key[]) => {
    const out: AggResult = {};
    sources.forEach((s, i) => setOwn(out, s.name, key[i] !== null && s.format !== null && typeof key[i] === 'number' ? s.format.print(key[i] as number, s.zone) : key[i]));
    return out;
  };
  const buckets: AggResult[] = [];
  for (const group of page) {
    const bucket: AggResult = { key: keyObject(group.key), doc_count: group.count };
    if (subs.length > 0) Object.assign(bucket, yield* runAggregations(subs, Int32Array.from(group.docs), ctx));
    buckets.push(bucket);
  }
  const out: AggResult = {};
  if (page.length > 0) out.after_key = keyObject(page[page.length - 1].key);
  out.buckets = buckets;
  return out;
}

/** An `after` value in the source's key space (a formatted date parsed back). */
function afterValue(source: Source, values: Values, value: unknown, now: number): Key {
  if (value === null) return null;
  if (source.kind === 'date_histogram') return readDate(value, `${source.where} (after)`, source.format, source.zone, now);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    if (values.kind === 'numeric' && typeof value !== 'number') {
      if (values.type === 'boolean') return value === true || value === 'true';
      const n = Number(value);
      if (!Number.isFinite(n)) throw invalid(`"after" value ${describe(value)} for source ${JSON.stringify(source.name)} is not a number`);
      return n;
    }
    return value;
  }
  throw invalid(`"after" value for source ${JSON.stringify(source.name)} must be a string, a number, a boolean or null, got ${describe(value)}`);
}
