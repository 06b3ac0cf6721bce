/**
 * A search's `timeout`, in Elasticsearch's time units (TimeValue.parseTimeValue): a whole number
 * followed by `d`, `h`, `m`, `s`, `ms`, `micros` or `nanos` (`"500ms"`, `"2s"`), or `-1` / `"-1"`
 * for the default. The gateway's own budget (SEARCH_TIMEOUT) is also a ceiling: a longer timeout
 * is refused rather than silently shortened.
 */
import { fail, ok, type Result } from '../errors';

const UNITS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const TIME_VALUE = /^(-?\d+)(nanos|micros|ms|s|m|h|d)$/;

/** The timeout in ms, or undefined for the default; `maxMs` is SEARCH_TIMEOUT. */
export function parseTimeout(value: unknown, maxMs: number): Result<number | undefined> {
  if (value === undefined || value === null || value === -1 || value === '-1') return ok(undefined);
  const invalid = (reason: string) => fail<number | undefined>('api.assert.invalid_argument', { name: 'timeout', reason });
  if (typeof value !== 'string') return invalid('must be a time value such as "500ms" or "2s"');
  const match = TIME_VALUE.exec(value.trim().toLowerCase());
  if (match === null) {
    const fractional = /^-?\d*\.\d+/.test(value.trim());
    return invalid(fractional ? `fractional time values are not supported ("${value}")` : `"${value}" is not a time value (a whole number and one of d, h, m, s, ms, micros, nanos)`);
  }
  const ms = Number(match[1]) * UNITS[match[2]];
  if (!(ms > 0)) return invalid('must be positive (or -1 for the default)');
  if (ms > maxMs) return invalid(`"${value}" is above the gateway's search time budget of ${maxMs} ms (SEARCH_TIMEOUT)`);
  return ok(ms);
}
