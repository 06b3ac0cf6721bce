/**
 * Admission: who is calling (authentication) and whether they may call now (rate limits), once
 * per request, for every way in: the dispatcher (REST, raw WebSocket), the raw WebSocket's realtime
 * controller, GraphQL over HTTP and over graphql-ws (README "Rate limits").
 *
 * - RATE_LIMIT counts each request against its principal: the API key's id, else the user (`sub`
 *   within its tenant), else the client address when the request carries no token.
 * - RATE_LIMIT_AUTH_FAILURES counts, per client address, the requests whose token was refused as
 *   invalid; past the limit, requests from that address are refused with 429 before their token is
 *   verified. A token this process has already accepted is not verified again, and passes.
 *
 * A refused request is not counted. Keys name a principal or an address, never a token.
 */
import { ApiError, ok, type Now, type Result } from '../errors';
import type { CoreDeps } from '../deps';
import { ANONYMOUS, type Principal } from '../principal';
import type { RateCounter, RateState } from './rateLimits';

export interface Admission {
  /** The caller, or why not: an authentication error, or 429 `api.process.too_many_requests`. */
  principal: Result<Principal>;
  /** The limit that applied to this request (for the RateLimit headers); null when none did. */
  rate: RateState | null;
}

/** The counter's key of a principal: an API key's id, else its user within its tenant (never a token). */
export function principalKey(p: Principal): string {
  if (p.apiKeyId !== null) return `k:${p.apiKeyId}`;
  // (a tenant is never "", and encoded it holds no ":")
  return `u:${p.tenantId === null ? '' : encodeURIComponent(p.tenantId)}:${p.userId}`;
}

export const addressKey = (client: string): string => `a:${client}`;

/** The refusal of a request over a limit, its state in the error's props (the raw WebSocket's and GraphQL's only way to tell it). */
export function tooManyRequests(state: RateState): ApiError {
  const reason =
    state.policy === 'requests'
      ? `more than ${state.limit} requests in ${state.windowSeconds} s (RATE_LIMIT)`
      : `more than ${state.limit} refused tokens from this address in ${state.windowSeconds} s (RATE_LIMIT_AUTH_FAILURES)`;
  return new ApiError('api.process.too_many_requests', {
    reason,
    policy: state.policy,
    limit: state.limit,
    window: state.windowSeconds,
    remaining: state.remaining,
    reset: state.resetSeconds,
    retryAfter: state.retryAfterSeconds,
  });
}

const refusal = (state: RateState): Admission => ({ principal: { ok: false, error: tooManyRequests(state) }, rate: state });

/** Counted against `counter`: the admission as it was, or its refusal. */
function counted(counter: RateCounter, key: string, principal: Result<Principal>): Promise<Admission> {
  return counter.hit(key).then((state) => (state?.refused ? refusal(state) : { principal, rate: state }));
}

/** Whether a failed authentication refused a token that was presented (not an expired one: see the README). */
const refusedToken = (jwt: string | null, result: Result<Principal>): boolean => jwt !== null && jwt !== '' && !result.ok && result.error.id === 'security.token.invalid';

function afterAuthentication(deps: CoreDeps, jwt: string | null, client: string | null, principal: Result<Principal>): Now<Admission> {
  const { requests, authFailures } = deps.rateLimits!;
  if (principal.ok) return requests === null ? { principal, rate: null } : counted(requests, principalKey(principal.value), principal);
  if (client === null) return { principal, rate: null };
  if (refusedToken(jwt, principal)) {
    // the answer stays the authentication error; its headers tell how many more the address may send
    return authFailures === null ? { principal, rate: null } : authFailures.hit(client).then((rate) => ({ principal, rate }));
  }
  // no token (or an expired one): counted against the address
  return requests === null ? { principal, rate: null } : counted(requests, addressKey(client), principal);
}

/**
 * The admission of a request that needs a caller. At once (no promise) when authentication is and
 * no counter is involved: limits off, or RATE_LIMIT off and a token this process already accepted.
 */
export function admit(deps: CoreDeps, jwt: string | null, client: string | null): Now<Admission> {
  const limits = deps.rateLimits;
  const authenticated = (): Now<Result<Principal>> => deps.authenticator.authenticate(jwt);
  if (limits === undefined || (limits.requests === null && limits.authFailures === null)) {
    const principal = authenticated();
    return principal instanceof Promise ? principal.then((p) => ({ principal: p, rate: null })) : { principal, rate: null };
  }
  const then = (): Now<Admission> => {
    const principal = authenticated();
    return principal instanceof Promise ? principal.then((p) => afterAuthentication(deps, jwt, client, p)) : afterAuthentication(deps, jwt, client, principal);
  };
  if (limits.authFailures === null || client === null || deps.authenticator.accepted(jwt)) return then();
  return limits.authFailures.peek(client).then((blocked) => (blocked?.refused ? refusal(blocked) : then()));
}

/**
 * The admission of a public operation (auth:checkToken): counted against the client address; one
 * that verifies a token of its input (`checksToken`) is refused first when the address is over
 * RATE_LIMIT_AUTH_FAILURES, as any request with a token would be.
 */
export function admitAnonymous(deps: CoreDeps, client: string | null, checksToken: boolean): Now<Admission> {
  const limits = deps.rateLimits;
  const principal = ok(ANONYMOUS);
  if (limits === undefined || client === null) return { principal, rate: null };
  const count = (): Now<Admission> => (limits.requests === null ? { principal, rate: null } : counted(limits.requests, addressKey(client), principal));
  if (!checksToken || limits.authFailures === null) return count();
  return limits.authFailures.peek(client).then((blocked) => (blocked?.refused ? refusal(blocked) : count()));
}

/** A token refused by a public operation (auth:checkToken answered `valid: false`): counted as an authentication failure of the address. */
export function countRefusedToken(deps: CoreDeps, client: string | null): Promise<RateState | null> {
  const counter = deps.rateLimits?.authFailures ?? null;
  return counter === null || client === null ? Promise.resolve(null) : counter.hit(client);
}
