/**
 * Argument checks shared by every operation. Each returns a Result: a bad argument is an expected
 * failure with its catalogue id, never an exception.
 */
import { fail, ok, type Result } from './errors';

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Sets an own data property, whatever the key: `obj[key] = value` with the key `__proto__` would
 * change obj's prototype instead (JSON.parse, spreads and Object.fromEntries make own properties).
 */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

/** A non-negative integer, given as a JSON number or as a decimal string (URL query parameters). */
export function nonNegativeInt(name: string, value: unknown): Result<number | undefined> {
  if (value === undefined || value === null || value === '') return ok(undefined);
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    return fail('api.assert.invalid_type', { name, expected: 'a non-negative integer' });
  }
  return ok(n);
}

/** Identifiers of keys and entities: 1 to 128 characters of [A-Za-z0-9_.:-]. */
export const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;

export function optionalId(name: string, value: unknown): Result<string | undefined> {
  if (value === undefined || value === null || value === '') return ok(undefined);
  if (typeof value !== 'string') return fail('api.assert.invalid_type', { name, expected: 'a string' });
  if (!ID_PATTERN.test(value)) {
    return fail('api.assert.invalid_argument', { name, reason: 'must be 1 to 128 characters of letters, digits, "_", ".", ":" or "-"' });
  }
  return ok(value);
}

export function requiredId(name: string, value: unknown): Result<string> {
  const r = optionalId(name, value);
  if (!r.ok) return r;
  if (r.value === undefined) return fail('api.assert.missing_argument', { name });
  return ok(r.value);
}

/** The body as an object: absent -> body_required (or {} when optional), not an object -> invalid_type. */
export function objectBody(body: unknown, required: boolean): Result<Record<string, unknown>> {
  if (body === undefined || body === null) return required ? fail('api.assert.body_required') : ok({});
  if (!isPlainObject(body)) return fail('api.assert.invalid_type', { name: 'body', expected: 'a JSON object' });
  return ok(body);
}
