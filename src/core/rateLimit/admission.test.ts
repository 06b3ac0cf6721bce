import type { CoreDeps } from '../deps';
import { fail, ok, type Result } from '../errors';
import { ANONYMOUS, type Principal } from '../principal';
import { addressKey, admit, admitAnonymous, countRefusedToken, principalKey } from './admission';
import type { PolicyName, RateCounter, RateState } from './rateLimits';

const alice: Principal = { userId: 'alice', tenantId: 'acme', roles: [], slug: 'alice', shortName: 'alice', apiKeyId: null, expiresAt: -1 };
const aliceKey: Principal = { ...alice, apiKeyId: 'ci-key' };

/** A counter that allows `limit` hits per key and records what it was asked. */
function fakeCounter(policy: PolicyName, limit: number) {
  const counts = new Map<string, number>();
  const calls: string[] = [];
  const state = (used: number, refused: boolean): RateState => ({ policy, limit, windowSeconds: 60, remaining: Math.max(0, limit - used), resetSeconds: 30, refused, retryAfterSeconds: refused ? 30 : 0 });
  const counter: RateCounter = {
    policy,
    limit,
    windowSeconds: 60,
    async hit(key) {
      calls.push(`hit ${key}`);
      const used = (counts.get(key) ?? 0) + 1;
      if (used > limit) return state(used - 1, true);
      counts.set(key, used);
      return state(used, false);
    },
    async peek(key) {
      calls.push(`peek ${key}`);
      return state(counts.get(key) ?? 0, (counts.get(key) ?? 0) + 1 > limit);
    },
  };
  return { counter, calls };
}

/** Tokens: "alice" (a user token already accepted, answered at once), "key" (an API key's, answered later), "new" (not yet seen), "bad", "old" (expired). */
function depsWith(limits: { requests?: number; authFailures?: number } | undefined) {
  const requests = limits?.requests === undefined ? null : fakeCounter('requests', limits.requests);
  const authFailures = limits?.authFailures === undefined ? null : fakeCounter('auth-failures', limits.authFailures);
  const verified: string[] = [];
  const authenticator = {
    authenticate(jwt: string | null): Result<Principal> | Promise<Result<Principal>> {
      if (jwt === null) return fail('security.rights.unauthorized');
      if (jwt === 'alice') return ok(alice);
      verified.push(jwt);
      if (jwt === 'key') return Promise.resolve(ok(aliceKey));
      if (jwt === 'new') return Promise.resolve(ok(alice));
      if (jwt === 'old') return Promise.resolve(fail('security.token.expired'));
      return Promise.resolve(fail('security.token.invalid', { reason: 'bad signature' }));
    },
    accepted: (jwt: string | null) => jwt === 'alice' || jwt === 'key',
  };
  const deps = {
    authenticator,
    rateLimits: limits === undefined ? undefined : { requests: requests?.counter ?? null, authFailures: authFailures?.counter ?? null },
  } as unknown as CoreDeps;
  return { deps, requests: requests?.calls, authFailures: authFailures?.calls, verified };
}

const errorOf = (r: Result<Principal>) => (r.ok ? null : r.error);

describe('principalKey', () => {
  it("is the API key's id, else the user within its tenant: never a token", () => {
    expect(principalKey(aliceKey)).toBe('k:ci-key');
    expect(principalKey(alice)).toBe('u:acme:alice');
    expect(principalKey({ ...alice, tenantId: null })).toBe('u::alice');
    // a tenant holding ":" cannot pass for another tenant and user
    expect(principalKey({ ...alice, tenantId: 'a:b', userId: 'c' })).not.toBe(principalKey({ ...alice, tenantId: 'a', userId: 'b:c' }));
    expect(addressKey('10.0.0.1')).toBe('a:10.0.0.1');
  });
});

describe('admit', () => {
  it('is authentication alone without limits, at once when it is', async () => {
    const { deps } = depsWith(undefined);
    expect(admit(deps, 'alice', '10.0.0.1')).toEqual({ principal: ok(alice), rate: null });
    expect(await admit(deps, 'key', '10.0.0.1')).toEqual({ principal: ok(aliceKey), rate: null });
  });

  it('stays at once for a token already accepted when only RATE_LIMIT_AUTH_FAILURES is on (nothing to count)', () => {
    const { deps, authFailures } = depsWith({ authFailures: 2 });
    expect(admit(deps, 'alice', '10.0.0.1')).toEqual({ principal: ok(alice), rate: null });
    expect(authFailures).toEqual([]);
  });

  it('counts each request against its principal: the API key, else the user', async () => {
    const { deps, requests } = depsWith({ requests: 2 });
    expect(await admit(deps, 'key', '10.0.0.1')).toMatchObject({ principal: ok(aliceKey), rate: { policy: 'requests', remaining: 1 } });
    await admit(deps, 'alice', '10.0.0.1');
    expect(requests).toEqual(['hit k:ci-key', 'hit u:acme:alice']);
  });

  it('refuses a principal over RATE_LIMIT with 429 and the state in its props; another principal is not limited', async () => {
    const { deps } = depsWith({ requests: 2 });
    await admit(deps, 'key', '10.0.0.1');
    await admit(deps, 'key', '10.0.0.1');
    const refused = await admit(deps, 'key', '10.0.0.1');
    expect(errorOf(refused.principal)).toMatchObject({
      id: 'api.process.too_many_requests',
      status: 429,
      props: { policy: 'requests', limit: 2, window: 60, remaining: 0, reset: 30, retryAfter: 30 },
    });
    expect(errorOf(refused.principal)!.message).toBe('Rate limit exceeded: more than 2 requests in 60 s (RATE_LIMIT); retry in 30 s.');
    expect(refused.rate).toMatchObject({ refused: true, retryAfterSeconds: 30 });
    expect((await admit(deps, 'alice', '10.0.0.1')).principal.ok).toBe(true);
  });

  it('counts a request without a token against the client address', async () => {
    const { deps, requests } = depsWith({ requests: 1 });
    expect(await admit(deps, null, '10.0.0.1')).toMatchObject({ principal: { ok: false }, rate: { policy: 'requests' } });
    expect(errorOf((await admit(deps, null, '10.0.0.1')).principal)!.id).toBe('api.process.too_many_requests');
    expect(requests).toEqual(['hit a:10.0.0.1', 'hit a:10.0.0.1']);
  });

  it('counts a refused token against its address, then refuses the address before verifying anything', async () => {
    const { deps, authFailures, verified } = depsWith({ authFailures: 2 });
    for (let i = 0; i < 2; i++) {
      const admission = await admit(deps, 'bad', '10.0.0.1');
      expect(errorOf(admission.principal)!.id).toBe('security.token.invalid');
      expect(admission.rate).toMatchObject({ policy: 'auth-failures', remaining: 1 - i });
    }
    const blocked = await admit(deps, 'bad', '10.0.0.1');
    expect(errorOf(blocked.principal)).toMatchObject({ id: 'api.process.too_many_requests', props: { policy: 'auth-failures', limit: 2 } });
    expect(errorOf(blocked.principal)!.message).toMatch(/more than 2 refused tokens from this address in 60 s \(RATE_LIMIT_AUTH_FAILURES\)/);
    // a good token not seen yet is not verified either; one already accepted passes; another address is not blocked
    expect(errorOf((await admit(deps, 'new', '10.0.0.1')).principal)!.id).toBe('api.process.too_many_requests');
    expect(verified).toEqual(['bad', 'bad']);
    expect((await admit(deps, 'key', '10.0.0.1')).principal.ok).toBe(true);
    expect((await admit(deps, 'new', '10.0.0.2')).principal.ok).toBe(true);
    expect(authFailures!.filter((c) => c.startsWith('hit'))).toEqual(['hit 10.0.0.1', 'hit 10.0.0.1']);
  });

  it('does not count an expired token as an authentication failure', async () => {
    const { deps, authFailures } = depsWith({ authFailures: 1 });
    for (let i = 0; i < 3; i++) expect(errorOf((await admit(deps, 'old', '10.0.0.1')).principal)!.id).toBe('security.token.expired');
    expect(authFailures!.filter((c) => c.startsWith('hit'))).toEqual([]);
  });

  it('counts nothing when the client address is unknown', async () => {
    const { deps, authFailures } = depsWith({ authFailures: 1 });
    for (let i = 0; i < 3; i++) expect(errorOf((await admit(deps, 'bad', null)).principal)!.id).toBe('security.token.invalid');
    expect(authFailures).toEqual([]);
  });

  it('lets a request through when a counter cannot count (fail open)', async () => {
    const { deps } = depsWith(undefined);
    const down: RateCounter = { policy: 'requests', limit: 1, windowSeconds: 60, hit: async () => null, peek: async () => null };
    deps.rateLimits = { requests: down, authFailures: { ...down, policy: 'auth-failures' } };
    for (let i = 0; i < 3; i++) expect(await admit(deps, 'new', '10.0.0.1')).toEqual({ principal: ok(alice), rate: null });
  });
});

describe('admitAnonymous and countRefusedToken (auth:checkToken)', () => {
  it('counts a public request against the address; one checking a token is refused while the address is over RATE_LIMIT_AUTH_FAILURES', async () => {
    const { deps, requests } = depsWith({ requests: 5, authFailures: 1 });
    expect(await admitAnonymous(deps, '10.0.0.1', true)).toMatchObject({ principal: ok(ANONYMOUS), rate: { policy: 'requests' } });
    expect(requests).toEqual(['hit a:10.0.0.1']);
    expect(await countRefusedToken(deps, '10.0.0.1')).toMatchObject({ policy: 'auth-failures', refused: false });
    expect(errorOf((await admitAnonymous(deps, '10.0.0.1', true)).principal)!.id).toBe('api.process.too_many_requests');
    expect((await admitAnonymous(deps, '10.0.0.1', false)).principal.ok).toBe(true);
  });

  it('counts nothing without limits or address', async () => {
    expect(admitAnonymous(depsWith(undefined).deps, '10.0.0.1', true)).toEqual({ principal: ok(ANONYMOUS), rate: null });
    expect(admitAnonymous(depsWith({ requests: 1 }).deps, null, true)).toEqual({ principal: ok(ANONYMOUS), rate: null });
    expect(await countRefusedToken(depsWith(undefined).deps, '10.0.0.1')).toBeNull();
  });
});
