/**
 * Elasticsearch's time values in aggregation parameters (`fixed_interval`, `offset`): an amount and
 * a unit among nanos, micros, ms, s, m, h, d (TimeValue.parseTimeValue), in milliseconds.
 */
const UNITS: Record<string, number> = { nanos: 1e-6, micros: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of `90m`, `2d`, `-6h` (a sign allowed), or null. */
export function parseTimeValueMillis(text: string): number | null {
  const m = /^([+-]?\d+(?:\.\d+)?)(nanos|micros|ms|s|m|h|d)$/.exec(text.trim());
  if (m === null) return null;
  const ms = Number(m[1]) * UNITS[m[2]];
  return Number.isFinite(ms) ? Math.trunc(ms) : null;
}
