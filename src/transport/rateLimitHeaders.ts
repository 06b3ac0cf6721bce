/**
 * The RateLimit header fields of draft-ietf-httpapi-ratelimit-headers-10 (the IETF's current draft
 * of "RateLimit header fields for HTTP"; the same syntax since -08): `RateLimit-Policy` names the
 * policy with its quota `q` and window `w` in seconds, `RateLimit` what is left of it now (`r`) and
 * in how many seconds more comes (`t`), both Structured Field lists; a refused request also
 * carries `Retry-After` (seconds), which the draft says takes precedence.
 *
 *   RateLimit-Policy: "requests";q=600;w=60
 *   RateLimit: "requests";r=0;t=17
 *   Retry-After: 17
 */
import type { RateState } from '../core/rateLimit/rateLimits';

/** As a flat list of names and values (Node's quicker writeHead form). */
export function rateLimitHeaders(state: RateState): string[] {
  const headers = [
    'RateLimit-Policy',
    `"${state.policy}";q=${state.limit};w=${state.windowSeconds}`,
    'RateLimit',
    `"${state.policy}";r=${state.remaining};t=${state.resetSeconds}`,
  ];
  if (state.refused) headers.push('Retry-After', String(state.retryAfterSeconds));
  return headers;
}

/** The same on a response whose head is written later (express, Apollo). */
export function setRateLimitHeaders(res: { setHeader(name: string, value: string): unknown }, state: RateState): void {
  const headers = rateLimitHeaders(state);
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i], headers[i + 1]);
}
