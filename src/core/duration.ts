/**
 * Durations as the `ms` package writes them ("1h", "2 days", "90s") or as integer milliseconds.
 */
import ms from 'ms';

/** Milliseconds for a duration string or integer; undefined when it is not one. -1 stays -1 (never expires). */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^-?\d+$/.test(text)) {
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  const parsed = ms(text as ms.StringValue);
  if (typeof parsed !== 'number' || !Number.isFinite(parsed)) return undefined;
  const rounded = Math.round(parsed);
  return Number.isSafeInteger(rounded) ? rounded : undefined;
}
