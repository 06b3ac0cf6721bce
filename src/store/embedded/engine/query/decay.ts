/**
 * The decay functions of function_score (Elasticsearch's DecayFunctionBuilder and its
 * Gauss/Exponential/LinearDecayFunctionBuilder): `{"gauss": {"<field>": {"origin": ..., "scale": ...,
 * "offset": ..., "decay": 0.5}, "multi_value_mode": "min"}}` on a numeric or date field (a geo_point
 * field: geoDecay.ts). The distance of each value to the origin less the offset (never below 0),
 * the values' distances reduced by `multi_value_mode`; a document without a value is at distance 0
 * (factor 1), as FieldData.replaceMissing(..., 0) makes it.
 */
import { JsonObject, describe, hasOwn, isPlainObject, quote } from '../json';
import { boundSlack } from '../lucene/functionScore';
import { ScoreFunction } from '../lucene/query';
import { parseDateMath } from '../dates';
import { toDouble } from '../fieldValues';
import { BuildContext } from './context';
import { at, invalid, readEnum } from './params';

export const DECAY_FUNCTIONS = ['gauss', 'exp', 'linear'] as const;
export type DecayKind = (typeof DECAY_FUNCTIONS)[number];
export const MULTI_VALUE_MODES = ['min', 'max', 'avg', 'sum', 'median'] as const;
export type MultiValueMode = (typeof MULTI_VALUE_MODES)[number];

/** DecayFunction.processScale: the scale the function evaluates with. */
export function processScale(kind: DecayKind, scale: number, decay: number): number {
  switch (kind) {
    case 'gauss':
      return (0.5 * Math.pow(scale, 2.0)) / Math.log(decay);
    case 'exp':
      return Math.log(decay) / scale;
    case 'linear':
      return scale / (1.0 - decay);
  }
}

/** DecayFunction.evaluate of a distance with the processed scale. */
export function evaluateDecay(kind: DecayKind, value: number, scale: number): number {
  switch (kind) {
    case 'gauss':
      return Math.exp((0.5 * Math.pow(value, 2.0)) / scale);
    case 'exp':
      return Math.exp(scale * value);
    case 'linear':
      return Math.max(0.0, (scale - value) / scale);
  }
}

/** MultiValueMode.select over a document's distances, sorted ascending (n > 0). */
export function selectDistance(mode: MultiValueMode, sorted: Float64Array, n: number): number {
  switch (mode) {
    case 'min':
      return sorted[0];
    case 'max':
      return sorted[n - 1];
    case 'sum':
    case 'avg': {
      let total = 0;
      for (let i = 0; i < n; i++) total += sorted[i];
      return mode === 'sum' ? total : total / n;
    }
    case 'median': {
      const mid = n >> 1;
      return n % 2 === 0 ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[mid];
    }
  }
}

/** The parameters of a decay function as given (read once the field's type is known). */
export interface DecaySpec {
  readonly kind: DecayKind;
  readonly field: string;
  readonly params: JsonObject;
  readonly mode: MultiValueMode;
  readonly path: string;
}

export function parseDecay(kind: DecayKind, body: unknown, path: string): DecaySpec {
  if (!isPlainObject(body)) throw invalid(`[${kind}] at ${path} must be an object, got ${describe(body)}`);
  let field: string | null = null;
  let params: JsonObject | null = null;
  let mode: MultiValueMode = 'min';
  for (const key of Object.keys(body)) {
    if (key === 'multi_value_mode') {
      mode = readEnum(kind, 'multi_value_mode', body[key], MULTI_VALUE_MODES, at(path, key));
      continue;
    }
    if (field !== null) throw invalid(`[${kind}] at ${path} takes one field, found ${quote(field)} and ${quote(key)}`);
    const value = body[key];
    if (!isPlainObject(value)) throw invalid(`[${kind}] field ${quote(key)} at ${path} must be an object of origin, scale, offset and decay, got ${describe(value)}`);
    for (const name of Object.keys(value)) {
      if (!['origin', 'scale', 'offset', 'decay'].includes(name)) throw invalid(`[${kind}] parameter ${quote(name)} not supported at ${at(at(path, key), name)}`);
    }
    field = key;
    params = value;
  }
  if (field === null || params === null) throw invalid(`[${kind}] at ${path} needs a field: {"${kind}": {"<field>": {"origin": ..., "scale": ...}}}`);
  return { kind, field, params, mode, path: at(path, field) };
}

/** AbstractDistanceScoreFunction's checks, then the processed scale. */
export function checkedScale(spec: DecaySpec, scale: number, decay: number, offset: number): number {
  const { kind, path } = spec;
  if (!(scale > 0)) throw invalid(`[${kind}] at ${path}: scale must be > 0.0`);
  if (kind === 'linear' ? !(decay >= 0 && decay < 1) : !(decay > 0 && decay < 1)) throw invalid(`[${kind}] at ${path}: decay must be in the range ${kind === 'linear' ? '[0..1)' : '(0..1)'}`);
  if (!(offset >= 0)) throw invalid(`[${kind}] at ${path}: offset must be >= 0`);
  return processScale(kind, scale, decay);
}

function doubleParam(spec: DecaySpec, name: string): number | null {
  if (!hasOwn(spec.params, name)) return null;
  const value = spec.params[name];
  const d = toDouble(value);
  if (d === null) throw invalid(`[${spec.kind}] parameter ${quote(name)} at ${at(spec.path, name)} must be a number, got ${describe(value)}`);
  return d;
}

const TIME_UNITS: readonly [string, number][] = [
  ['nanos', 1e-6],
  ['micros', 1e-3],
  ['ms', 1],
  ['s', 1000],
  ['m', 60_000],
  ['h', 3_600_000],
  ['d', 86_400_000],
];

/** TimeValue.parseTimeValue(...).getMillis(): an integer and a unit (nanos, micros, ms, s, m, h, d). */
export function parseTimeMillis(value: unknown, where: string): number {
  if (typeof value !== 'string') throw invalid(`time value at ${where} must be a string such as "10d", got ${describe(value)}`);
  const normalized = value.toLowerCase().trim();
  if (normalized === '0') return 0;
  for (const [suffix, millis] of TIME_UNITS) {
    if (!normalized.endsWith(suffix)) continue;
    const number = normalized.slice(0, -suffix.length).trim();
    if (!/^[+-]?\d+$/.test(number)) {
      if (/^[+-]?\d*\.\d+$/.test(number)) throw invalid(`failed to parse [${value}] at ${where}, fractional time values are not supported`);
      continue; // "ms" also ends with "s": try the next unit
    }
    return Math.trunc(Number(number) * millis);
  }
  throw invalid(`failed to parse [${value}] at ${where} as a time value: unit is missing or unrecognized`);
}

/** A decay function on a numeric or date field (NumericFieldDataScoreFunction). */
export function numericDecay(spec: DecaySpec, ctx: BuildContext): Omit<ScoreFunction, 'filter' | 'weight'> {
  const { kind, field, params, path } = spec;
  const type = ctx.mapping.type(field);
  if (type === undefined) throw invalid(`[${kind}] at ${path}: unknown field [${field}]`);
  let origin: number;
  let scale: number;
  let offset: number;
  const decay = doubleParam(spec, 'decay') ?? 0.5;
  if (type === 'date') {
    const originText = params.origin;
    if (originText !== undefined && typeof originText !== 'string' && typeof originText !== 'number') throw invalid(`[${kind}] origin at ${at(path, 'origin')} must be a date, got ${describe(originText)}`);
    origin = originText === undefined ? ctx.now : parseDateMath(String(originText), { now: ctx.now, roundUp: false, where: at(path, 'origin') });
    if (!hasOwn(params, 'scale')) throw invalid(`[${kind}] at ${path}: [scale] must be set for date fields`);
    scale = parseTimeMillis(params.scale, at(path, 'scale'));
    offset = hasOwn(params, 'offset') ? parseTimeMillis(params.offset, at(path, 'offset')) : 0;
  } else if (type === 'long' || type === 'float' || type === 'double') {
    const o = doubleParam(spec, 'origin');
    const s = doubleParam(spec, 'scale');
    if (o === null || s === null) throw invalid(`[${kind}] at ${path}: both [scale] and [origin] must be set for numeric fields`);
    origin = o;
    scale = s;
    offset = doubleParam(spec, 'offset') ?? 0;
  } else {
    throw invalid(`[${kind}] at ${path}: field [${field}] is of type [${type}], but only numeric types are supported`);
  }
  const processed = checkedScale(spec, scale, decay, offset);
  const mode = spec.mode;
  return {
    key: `decay${JSON.stringify([kind, field, origin, processed, offset, mode])}`,
    text: `${kind} decay on ${field} (origin ${origin}, scale ${scale}, offset ${offset}, decay ${decay}, ${mode})`,
    bind(index) {
      const values = index.field(field)?.values ?? null;
      let scratch = new Float64Array(4);
      return (doc) => {
        const n = values === null ? 0 : values.count(doc);
        if (n === 0) return evaluateDecay(kind, 0, processed);
        const from = (values as NonNullable<typeof values>).from(doc);
        const entries = (values as NonNullable<typeof values>).entries;
        if (n > scratch.length) scratch = new Float64Array(n);
        for (let i = 0; i < n; i++) scratch[i] = Math.max(0.0, Math.abs(entries[from + i] - origin) - offset);
        if (n > 1) scratch.subarray(0, n).sort();
        return evaluateDecay(kind, selectDistance(mode, scratch, n), processed);
      };
    },
    maxFactor(index) {
      // a decay never grows with the distance, and a document's distance (whatever the mode) is at
      // least the smallest of its values'; a document without a value is at distance 0 (factor 1)
      const fieldIndex = index.field(field);
      const range = fieldIndex?.valueRange() ?? null;
      if (fieldIndex === undefined || range === null || fieldIndex.docCount < index.size) return 1;
      const nearest = origin < range[0] ? range[0] : origin > range[1] ? range[1] : origin;
      return boundSlack(evaluateDecay(kind, Math.max(0.0, Math.abs(nearest - origin) - offset), processed));
    },
  };
}

