/**
 * RATE_LIMIT and RATE_LIMIT_AUTH_FAILURES values: `<hits>/<window>` (`600/1m`, `20/1m`, `10/30s`,
 * `100000/1d`), the window an `ms` duration of whole seconds (the RateLimit-Policy header's `w` is
 * in seconds), or `off`.
 */
import { parseDuration } from '../core/duration';

export interface WindowPolicy {
  /** Hits allowed per window. */
  limit: number;
  windowSeconds: number;
}

const MAX_LIMIT = 1_000_000_000;
const MAX_WINDOW_SECONDS = 86_400;

/** The policy, null for `off`, or a message saying what is wrong. */
export function parseWindowPolicy(value: string): WindowPolicy | null | { problem: string } {
  const text = value.trim();
  if (text.toLowerCase() === 'off') return null;
  const example = 'write <requests>/<window>, e.g. 600/1m, or off';
  const slash = text.indexOf('/');
  if (slash === -1) return { problem: `"${value}": ${example}` };
  const count = text.slice(0, slash).trim();
  const window = text.slice(slash + 1).trim();
  if (!/^\d+$/.test(count) || Number(count) < 1 || Number(count) > MAX_LIMIT) return { problem: `"${value}": the count must be an integer from 1 to ${MAX_LIMIT} (${example})` };
  // "600/m" reads as per minute
  const ms = parseDuration(/^[a-z]+$/i.test(window) ? `1${window}` : window);
  if (ms === undefined || ms <= 0) return { problem: `"${value}": "${window}" is not a duration (${example})` };
  if (ms % 1000 !== 0 || ms > MAX_WINDOW_SECONDS * 1000) return { problem: `"${value}": the window must be a whole number of seconds, from 1 s to 1 day` };
  return { limit: Number(count), windowSeconds: ms / 1000 };
}

/** As the README and the RateLimit-Policy header write it back. */
export const formatWindowPolicy = (p: WindowPolicy | null): string => (p === null ? 'off' : `${p.limit}/${p.windowSeconds}s`);
