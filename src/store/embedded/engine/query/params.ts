/**
 * Reading the parameters of a query clause: every reader throws InvalidQueryError naming the clause,
 * the parameter and where it is, for any JSON it does not accept.
 */
import { InvalidQueryError } from '../../../port';
import { JsonObject, describe, hasOwn, isPlainObject, quote } from '../json';

export function invalid(message: string): InvalidQueryError {
  return new InvalidQueryError(message);
}

/** The body of a clause that must be an object: `{"match_all": {...}}`. */
export function objectBody(clause: string, body: unknown, path: string): JsonObject {
  if (!isPlainObject(body)) throw invalid(`[${clause}] at ${path} must be an object, got ${describe(body)}`);
  return body;
}

/** Refuse parameters the clause does not support. */
export function checkParams(clause: string, obj: JsonObject, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) throw invalid(`unsupported parameter ${quote(key)} for [${clause}] at ${path}`);
  }
}

/**
 * The single field of a field-level clause, `{"term": {"code": ...}}`: exactly one key.
 * Returns the field name and its value.
 */
export function singleField(clause: string, body: unknown, path: string): [string, unknown] {
  const obj = objectBody(clause, body, path);
  const keys = Object.keys(obj);
  if (keys.length === 0) throw invalid(`[${clause}] at ${path} needs a field, got an empty object`);
  if (keys.length > 1) throw invalid(`[${clause}] query doesn't support multiple fields, found ${quote(keys[0])} and ${quote(keys[1])} at ${path}`);
  const field = keys[0];
  if (field === '') throw invalid(`[${clause}] at ${path} needs a non-empty field name`);
  return [field, obj[field]];
}

export function at(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

export function readNumber(clause: string, name: string, value: unknown, path: string): number {
  let n: number | null = null;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) n = Number(value);
  if (n === null || !Number.isFinite(n)) throw invalid(`[${clause}] parameter ${quote(name)} at ${path} must be a number, got ${describe(value)}`);
  return n;
}

export function readInteger(clause: string, name: string, value: unknown, path: string, min = 0): number {
  const n = readNumber(clause, name, value, path);
  if (!Number.isInteger(n) || n < min || n > 2147483647) throw invalid(`[${clause}] parameter ${quote(name)} at ${path} must be an integer of at least ${min}, got ${describe(value)}`);
  return n;
}

/** A boost: a non-negative float (Elasticsearch refuses negative boosts). */
export function readBoost(clause: string, value: unknown, path: string): number {
  const n = Math.fround(readNumber(clause, 'boost', value, path));
  if (n < 0) throw invalid(`negative [boost] are not allowed in [${clause}] at ${path}`);
  if (!Number.isFinite(n)) throw invalid(`[${clause}] parameter "boost" at ${path} is out of range`);
  return n;
}

export function readString(clause: string, name: string, value: unknown, path: string): string {
  if (typeof value !== 'string') throw invalid(`[${clause}] parameter ${quote(name)} at ${path} must be a string, got ${describe(value)}`);
  return value;
}

export function readBoolean(clause: string, name: string, value: unknown, path: string): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalid(`[${clause}] parameter ${quote(name)} at ${path} must be a boolean, got ${describe(value)}`);
}

/** A query value: a string, number or boolean (what Elasticsearch accepts as text or a term). */
export function readScalar(clause: string, name: string, value: unknown, path: string): string | number | boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw invalid(`[${clause}] ${name} at ${path} must be a string, a number or a boolean, got ${describe(value)}`);
}

/** `_name` (named queries) is accepted everywhere and has no effect on hits or scores here. */
export function readName(clause: string, obj: JsonObject, path: string): void {
  if (hasOwn(obj, '_name')) readString(clause, '_name', obj._name, at(path, '_name'));
}

/** The boost of a clause body, 1 when absent. */
export function boostOf(clause: string, obj: JsonObject, path: string): number {
  return hasOwn(obj, 'boost') ? readBoost(clause, obj.boost, at(path, 'boost')) : 1;
}

/** A case-insensitive enum value (`"AND"`, `"and"`). */
export function readEnum<T extends string>(clause: string, name: string, value: unknown, allowed: readonly T[], path: string): T {
  const text = readString(clause, name, value, path).toLowerCase();
  const found = allowed.find((a) => a === text);
  if (found === undefined) throw invalid(`[${clause}] parameter ${quote(name)} at ${path} must be one of ${allowed.join(', ')}, got ${describe(value)}`);
  return found;
}
