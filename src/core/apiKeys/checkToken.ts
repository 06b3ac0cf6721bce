/** auth:checkToken: whether a token (a user's JWT or an API key's) is usable now, and whose it is. No authentication needed. */
import { objectBody } from '../args';
import { ApiError, fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import type { CoreDeps } from '../deps';
import type { Principal } from '../principal';

export type TokenCheck =
  | { valid: true; userId: string; tenantId: string | null; expiresAt: number }
  | { valid: false; state: string; userId: null; tenantId: null; expiresAt: null };

export async function checkToken(deps: CoreDeps, _principal: Principal, token: string): Promise<Result<TokenCheck>> {
  const checked = await deps.authenticator.authenticate(token);
  if (!checked.ok) return ok({ valid: false, state: checked.error.message, userId: null, tenantId: null, expiresAt: null });
  const p = checked.value;
  return ok({ valid: true, userId: p.userId, tenantId: p.tenantId, expiresAt: p.expiresAt });
}

/** (an expired token is genuine: not an authentication failure, see README "Rate limits") */
const EXPIRED = new ApiError('security.token.expired').message;

export const checkTokenOperation = defineOperation<string, TokenCheck>({
  controller: 'auth',
  action: 'checkToken',
  addressesCollection: false,
  // Public, as in Kuzzle: it tells the bearer of a token only what the token itself already says.
  public: true,
  refusesToken: (check) => !check.valid && check.state !== EXPIRED,
  parse(req) {
    const body = objectBody(req.body, true);
    if (!body.ok) return body;
    const token = body.value.token;
    if (token === undefined || token === null || token === '') return fail('api.assert.missing_argument', { name: 'token' });
    if (typeof token !== 'string') return fail('api.assert.invalid_type', { name: 'token', expected: 'a string' });
    return ok(token);
  },
  run: checkToken,
});
