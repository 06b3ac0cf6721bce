/**
 * auth:getCurrentUser: who the caller is, in Kuzzle's shape `{_id, _source, strategies}`
 * (authController.getCurrentUser): `_id` is the user, `_source` what the token says of them
 * (`profileIds`, Kuzzle's name for the rights a user has, are the roles), `strategies` how this
 * caller authenticated: `jwt` (a user's token) or `apiKey`.
 */
import { ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import type { CoreDeps } from '../deps';
import type { Principal } from '../principal';

export interface CurrentUser {
  _id: string;
  _source: {
    profileIds: string[];
    roles: string[];
    tenantId: string | null;
    slug: string;
    shortName: string;
    /** Set when the caller authenticated with an API key. */
    apiKeyId: string | null;
    /** When the presented token stops working, ms since Epoch; -1 for never. */
    expiresAt: number;
  };
  strategies: ('jwt' | 'apiKey')[];
}

export function currentUser(_deps: CoreDeps, p: Principal): Result<CurrentUser> {
  return ok({
    _id: p.userId,
    _source: { profileIds: [...p.roles], roles: [...p.roles], tenantId: p.tenantId, slug: p.slug, shortName: p.shortName, apiKeyId: p.apiKeyId, expiresAt: p.expiresAt },
    strategies: [p.apiKeyId === null ? 'jwt' : 'apiKey'],
  });
}

export const getCurrentUserOperation = defineOperation<undefined, CurrentUser>({
  controller: 'auth',
  action: 'getCurrentUser',
  addressesCollection: false,
  contract: {
    summary: 'Who the caller is',
    description: "Kuzzle's `{_id, _source, strategies}`: the user, what the token says of them (`profileIds` are the roles), and how they authenticated (`jwt` or `apiKey`).",
    result: {
      title: 'CurrentUser',
      type: 'object',
      required: ['_id', '_source', 'strategies'],
      additionalProperties: false,
      properties: {
        _id: { type: 'string' },
        _source: {
          type: 'object',
          required: ['profileIds', 'roles', 'tenantId', 'slug', 'shortName', 'apiKeyId', 'expiresAt'],
          additionalProperties: false,
          properties: {
            profileIds: { type: 'array', items: { type: 'string' } },
            roles: { type: 'array', items: { type: 'string' } },
            tenantId: { type: ['string', 'null'] },
            slug: { type: 'string' },
            shortName: { type: 'string' },
            apiKeyId: { type: ['string', 'null'], description: 'Set when the caller authenticated with an API key.' },
            expiresAt: { type: 'integer', description: 'When the token stops working, ms since Epoch; -1: never.' },
          },
        },
        strategies: { type: 'array', items: { enum: ['jwt', 'apiKey'] } },
      },
    },
    resultExample: { _id: 'alice', _source: { profileIds: ['writer'], roles: ['writer'], tenantId: 'acme', slug: 'alice', shortName: 'Alice', apiKeyId: null, expiresAt: 1767229200000 }, strategies: ['jwt'] },
    errors: [],
  },
  parse: () => ok(undefined),
  run: currentUser,
});
