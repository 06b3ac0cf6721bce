/**
 * Reading an aggregation's parameters: every reader throws InvalidQueryError naming the
 * aggregation type, the parameter and where it is (`aggs.by_region.terms.size`).
 */
import { InvalidQueryError } from '../../../port';
import { TimeZone, UTC, parseTimeZone } from '../dates';
import { JsonObject, describe, hasOwn, isPlainObject, quote } from '../json';
import { DateFormats } from './dateFormat';

export function invalid(message: string): InvalidQueryError {
  return new InvalidQueryError(message);
}

export function at(where: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${where}.${key}` : `${where}[${JSON.stringify(key)}]`;
}

/** The body of an aggregation: an object whose keys are all among `allowed`. */
export function aggBody(type: string, body: unknown, where: string, allowed: readonly string[]): JsonObject {
  if (!isPlainObject(body)) throw invalid(`[${type}] aggregation at ${where} must be an object, got ${describe(body)}`);
  for (const key of Object.keys(body)) {
    if (!allowed.includes(key)) throw invalid(`[${type}] unknown field [${key}] at ${at(where, key)} (supported: ${allowed.join(', ')})`);
  }
  return body;
}

export function readString(type: string, obj: JsonObject, key: string, where: string): string {
  const value = obj[key];
  if (typeof value !== 'string') throw invalid(`[${type}] parameter ${quote(key)} at ${at(where, key)} must be a string, got ${describe(value)}`);
  return value;
}

/** The required `field`. */
export function readField(type: string, obj: JsonObject, where: string): string {
  if (!hasOwn(obj, 'field')) throw invalid(`[${type}] aggregation at ${where} requires a "field"`);
  const field = readString(type, obj, 'field', where);
  if (field === '') throw invalid(`[${type}] parameter "field" at ${at(where, 'field')} must not be empty`);
  return field;
}

export function readNumber(type: string, obj: JsonObject, key: string, where: string): number {
  const value = obj[key];
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw invalid(`[${type}] parameter ${quote(key)} at ${at(where, key)} must be a number, got ${describe(value)}`);
  return n;
}

export function readInt(type: string, obj: JsonObject, key: string, where: string, min: number, fallback: number): number {
  if (!hasOwn(obj, key)) return fallback;
  const n = readNumber(type, obj, key, where);
  if (!Number.isInteger(n) || n > 2147483647) throw invalid(`[${type}] parameter ${quote(key)} at ${at(where, key)} must be an integer, got ${describe(obj[key])}`);
  if (n < min) throw invalid(`[${key}] must be greater than or equal to ${min}. Found [${n}] in [${type}] at ${at(where, key)}`);
  return n;
}

export function readBool(type: string, obj: JsonObject, key: string, where: string, fallback: boolean): boolean {
  if (!hasOwn(obj, key)) return fallback;
  const value = obj[key];
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalid(`[${type}] parameter ${quote(key)} at ${at(where, key)} must be a boolean, got ${describe(value)}`);
}

export function readTimeZone(type: string, obj: JsonObject, where: string): TimeZone {
  if (!hasOwn(obj, 'time_zone')) return UTC;
  return parseTimeZone(readString(type, obj, 'time_zone', where), at(where, 'time_zone'));
}

export function readFormat(type: string, obj: JsonObject, where: string): DateFormats | null {
  if (!hasOwn(obj, 'format')) return null;
  return new DateFormats(readString(type, obj, 'format', where), at(where, 'format'));
}

/** `missing`: a scalar (turned into the field's type when the field is known). */
export function readMissing(type: string, obj: JsonObject, where: string): string | number | boolean | undefined {
  if (!hasOwn(obj, 'missing')) return undefined;
  const value = obj.missing;
  if (typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) return value;
  throw invalid(`[${type}] parameter "missing" at ${at(where, 'missing')} must be a string, a number or a boolean, got ${describe(value)}`);
}
