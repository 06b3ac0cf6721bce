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
  contract: {
    summary: 'Check a token',
    description: "Whether a token (a user's JWT or an API key's) is usable now, and whose it is. No authentication needed; a refused token counts against RATE_LIMIT_AUTH_FAILURES.",
    body: {
      required: true,
      schema: { type: 'object', required: ['token'], properties: { token: { type: 'string', minLength: 1, examples: ['eyJhbGciOiJIUzI1NiJ9...'] } } },
      examples: { token: { summary: 'A token', value: { token: 'eyJhbGciOiJIUzI1NiJ9...' } } },
    },
    result: {
      title: 'TokenCheck',
      oneOf: [
        {
          type: 'object',
          required: ['valid', 'userId', 'tenantId', 'expiresAt'],
          additionalProperties: false,
          properties: { valid: { const: true }, userId: { type: 'string' }, tenantId: { type: ['string', 'null'] }, expiresAt: { type: 'integer', description: 'ms since Epoch; -1: never.' } },
        },
        {
          type: 'object',
          required: ['valid', 'state', 'userId', 'tenantId', 'expiresAt'],
          additionalProperties: false,
          properties: { valid: { const: false }, state: { type: 'string', description: 'Why not.' }, userId: { type: 'null' }, tenantId: { type: 'null' }, expiresAt: { type: 'null' } },
        },
      ],
    },
    resultExample: { valid: true, userId: 'alice', tenantId: 'acme', expiresAt: 1767229200000 },
    errors: ['api.assert.body_required', 'api.assert.invalid_type', 'api.assert.missing_argument', 'services.storage.not_connected'],
  },
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
