/**
 * How a JSON value becomes a value of a field type, for documents and for query terms, following
 * Elasticsearch's field mappers with their defaults (`coerce: true`): numbers may be given as
 * numeric strings, a long truncates a decimal part, a float is rounded to 32 bits (a half_float
 * further to 16), a double kept whole, a keyword takes the text of a number or boolean. `null` means "not a value of this type": a document value is
 * then not indexed for that field (Elasticsearch would reject the whole document).
 */
import { looksNumeric, parseDateValue } from './dates';

export type FieldType = 'text' | 'keyword' | 'long' | 'float' | 'double' | 'date' | 'boolean';

/** The floating-point field types: float (32 bits, half_float values among them) and double (64 bits, scaled_float's too). */
export const isFloating = (type: string | undefined): boolean => type === 'float' || type === 'double';

/** Largest magnitude a long can hold (as a double, 2^63). */
export const LONG_LIMIT = 9223372036854775807;

/** A JSON scalar as text (Elasticsearch indexes the token's text; JavaScript prints numbers its way). */
export function toText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return null;
}

export const toKeyword = toText;

/** Double.parseDouble-like: a number, or a numeric string (whitespace trimmed, f/d suffix allowed). */
export function toDouble(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && looksNumeric(value)) {
    const n = Number(value.trim().replace(/[fFdD]$/, ''));
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function toLong(value: unknown): number | null {
  const d = toDouble(value);
  if (d === null || d < -LONG_LIMIT || d > LONG_LIMIT) return null;
  return Math.trunc(d) + 0; // + 0 turns -0 into 0
}

export function toFloat(value: unknown): number | null {
  const d = toDouble(value);
  if (d === null) return null;
  const f = Math.fround(d);
  return Number.isFinite(f) ? f + 0 : null;
}

const F32 = new Float32Array(1);
const I32 = new Int32Array(F32.buffer);

/**
 * A number as Elasticsearch's half_float keeps it: rounded to a float, then to the nearest 16-bit
 * float (ties to even; beyond 65504 infinite; a float subnormal is 0), read back as a float: Lucene's
 * HalfFloatPoint.halfFloatToShortBits then shortBitsToHalfFloat, ported (no library has it in Node 20).
 */
export function toHalfFloat(value: number): number {
  F32[0] = value;
  const bits = I32[0];
  const sign = bits >>> 31;
  let exp = (bits >>> 23) & 0xff;
  let mantissa = bits & 0x7fffff;
  const roundShift = (i: number, shift: number) => {
    i += 1 << (shift - 1);
    i -= (i >>> shift) & 1;
    return i >>> shift;
  };
  if (exp === 0xff) {
    exp = 0x1f;
    mantissa >>>= 13;
  } else if (exp === 0) {
    mantissa = 0;
  } else {
    exp = exp - 127 + 15;
    if (exp >= 0x1f) {
      exp = 0x1f;
      mantissa = 0;
    } else if (exp <= 0) {
      const shift = 23 - 10 - exp + 1;
      if (shift >= 32) {
        exp = 0;
        mantissa = 0;
      } else {
        mantissa = roundShift(mantissa | 0x800000, shift);
        exp = mantissa >>> 10;
        mantissa &= 0x3ff;
      }
    } else {
      mantissa = roundShift((exp << 23) | mantissa, 13);
      exp = mantissa >>> 10;
      mantissa &= 0x3ff;
    }
  }
  const magnitude = exp === 0x1f ? (mantissa === 0 ? Infinity : NaN) : exp === 0 ? mantissa * 2 ** -24 : (1 + mantissa / 1024) * 2 ** (exp - 15);
  return sign === 1 ? -magnitude : magnitude + 0;
}

/** A scaled_float's value: the long Math.round(value * factor), read back times 1 / factor (ScaledFloatFieldMapper). */
export function toScaled(value: number, factor: number): number {
  return Math.round(value * factor) * (1 / factor) + 0;
}

export function toBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}

export function toDate(value: unknown): number | null {
  return parseDateValue(value);
}

/** The indexed term of a boolean (Lucene's BooleanFieldMapper stores "T" and "F"). */
export function booleanTerm(value: boolean): string {
  return value ? 'T' : 'F';
}

/**
 * The shortest decimal that reads back as the same 32-bit float, as Java's Float.toString prints
 * a float sort value (0.1f prints 0.1, not 0.10000000149011612).
 */
let lastFloat = NaN;
let lastJson = NaN;

export function floatToJson(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return value;
  if (value === lastFloat) return lastJson; // hits often share their score
  lastJson = shortestFloat(value);
  lastFloat = value;
  return lastJson;
}

function shortestFloat(value: number): number {
  return shortestByScaling(value) ?? shortestByPrinting(value);
}

/** 10^0 to 10^22: the powers of ten a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/**
 * shortestByPrinting's answer without printing: each candidate of d significant digits is the
 * float's value scaled by a power of ten, rounded half up (as toPrecision rounds), and scaled back
 * (n / 10^p and n * 10^p of an integer and an exact power of ten are correctly rounded, as reading
 * "n e-p" is). Scaling rounds once, so a value whose scaled fraction lies within 1e-6 of one half
 * could round the other way: null then, and for powers of two, subnormals, values that are not
 * floats and powers of ten a double does not hold: shortestByPrinting answers. A tenth of its time
 * (toPrecision and Number are runtime calls): a page of hits prints a score per hit.
 */
function shortestByScaling(value: number): number | null {
  if (!symmetricRounding(value)) return null;
  const a = Math.abs(value);
  let e10 = Math.floor(Math.log10(a));
  if (e10 > 22 || e10 < -22) return null;
  // (log10 may be one off next to a power of ten)
  const first = e10 >= 0 ? a / POW10[e10] : a * POW10[-e10];
  if (first < 1) e10--;
  else if (first >= 10) e10++;
  /** The value at `digits` significant digits, rounded half up; NaN when scaling cannot tell. */
  const candidate = (digits: number): number => {
    const p = digits - 1 - e10;
    if (p > 22 || p < -22) return Number.NaN;
    const scaled = p >= 0 ? a * POW10[p] : a / POW10[-p];
    const floor = Math.floor(scaled);
    const fraction = scaled - floor;
    if (Math.abs(fraction - 0.5) < 1e-6) return Number.NaN;
    const n = fraction > 0.5 ? floor + 1 : floor;
    if (n < POW10[digits - 1] || n > POW10[digits]) return Number.NaN;
    return p >= 0 ? n / POW10[p] : n * POW10[-p];
  };
  const digits = shortestDigits((d) => {
    const c = candidate(d);
    return Number.isNaN(c) ? null : Math.fround(c) === a;
  });
  if (digits === null) return null;
  const best = candidate(digits); // (nine digits, when the bisection got there without trying it)
  if (Number.isNaN(best) || Math.fround(best) !== a) return null;
  return value < 0 ? -best : best;
}

function shortestByPrinting(value: number): number {
  const roundTrips = (digits: number) => Math.fround(Number(value.toPrecision(digits))) === value;
  if (!symmetricRounding(value)) {
    // powers of two (and subnormals) have an asymmetric rounding interval: try every length
    for (let digits = 1; digits <= 9; digits++) if (roundTrips(digits)) return Number(value.toPrecision(digits));
    return value;
  }
  return Number(value.toPrecision(shortestDigits(roundTrips) as number));
}

/**
 * Whether a float32's rounding interval is symmetric: not a power of two, not subnormal, and the
 * value a float32 at all (nine significant digits always round-trip a float32; a value that is no
 * float32 never does).
 */
function symmetricRounding(value: number): boolean {
  const magnitude = Math.abs(value);
  return !(magnitude < 2 ** -125 || magnitude === 2 ** Math.round(Math.log2(magnitude)) || Math.fround(value) !== value);
}

/**
 * The fewest significant digits (1 to 9) that round-trip, where the rounding interval is symmetric:
 * there the nearest (d + 1)-digit decimal is never farther than the nearest d-digit one, so once a
 * length round-trips every longer one does, and the shortest is found by bisection (most scores
 * need 7 to 9 digits: 7 is tried first). Null as soon as `roundTrips` answers null (cannot tell).
 */
function shortestDigits(roundTrips: (digits: number) => boolean | null): number | null {
  const seven = roundTrips(7);
  if (seven === null) return null;
  let lo = seven ? 1 : 8;
  let hi = seven ? 7 : 9;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const ok = roundTrips(mid);
    if (ok === null) return null;
    if (ok) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
