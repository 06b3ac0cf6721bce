/**
 * auth:createApiKey (spec 4.2): the token is returned here and only here; only its fingerprint is kept.
 */
import { objectBody, optionalId } from '../args';
import { API_KEY_KIND } from '../auth/authenticate';
import { parseDuration } from '../duration';
import { fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import type { CoreDeps } from '../deps';
import type { Principal } from '../principal';
import type { ApiKeyRecord, ServiceInfo } from '../../store/port';
import { fingerprintOf } from './fingerprint';
import { ADDRESS_ARGS } from '../contract';
import { API_KEY_CREATED_SCHEMA, EXAMPLE_API_KEY } from './apiKeyContract';

export const DEFAULT_EXPIRES_IN = '1h';
export const MAX_DESCRIPTION_LENGTH = 1024;

export interface CreateApiKeyInput {
  description: string;
  /** ms duration string or integer ms; undefined = 1h. */
  expiresIn?: string | number;
  _id?: string;
}

export interface ApiKeyCreated {
  _id: string;
  _source: {
    description: string;
    expiresAt: number;
    ttl: number;
    fingerprint: string;
    token: string;
    userId: string;
    _service_info: ServiceInfo;
  };
}

export function validateCreateApiKey(raw: { description: unknown; expiresIn: unknown; _id: unknown }): Result<CreateApiKeyInput> {
  if (raw.description === undefined || raw.description === null) return fail('api.assert.missing_argument', { name: 'description' });
  if (typeof raw.description !== 'string') return fail('api.assert.invalid_type', { name: 'description', expected: 'a string' });
  if (raw.description.trim() === '') return fail('api.assert.invalid_argument', { name: 'description', reason: 'must not be empty' });
  if (raw.description.length > MAX_DESCRIPTION_LENGTH) {
    return fail('api.assert.invalid_argument', { name: 'description', reason: `must be at most ${MAX_DESCRIPTION_LENGTH} characters` });
  }
  if (raw.expiresIn !== undefined && raw.expiresIn !== null && typeof raw.expiresIn !== 'string' && typeof raw.expiresIn !== 'number') {
    return fail('api.assert.invalid_type', { name: 'expiresIn', expected: 'a duration string or an integer of milliseconds' });
  }
  const id = optionalId('_id', raw._id);
  if (!id.ok) return id;
  return ok({
    description: raw.description,
    expiresIn: raw.expiresIn === null || raw.expiresIn === '' ? undefined : (raw.expiresIn as string | number | undefined),
    _id: id.value,
  });
}

/** ttl in ms from expiresIn, under the rules of DESIGN.md; -1 = never expires. */
export function resolveTtl(expiresIn: string | number | undefined, maxTtl: number | undefined): Result<number> {
  const value = expiresIn ?? DEFAULT_EXPIRES_IN;
  const ttl = parseDuration(value);
  if (ttl === undefined || ttl === 0 || (ttl < 0 && ttl !== -1)) {
    return fail('api.assert.invalid_argument', {
      name: 'expiresIn',
      reason: `"${String(value)}" is not a positive duration (e.g. "1h", "30d", 3600000) nor -1 (never expires)`,
    });
  }
  if (maxTtl !== undefined && (ttl === -1 || ttl > maxTtl)) return fail('security.token.ttl_exceeded', { value: String(value), max: maxTtl });
  return ok(ttl);
}

export async function createApiKey(deps: CoreDeps, principal: Principal, input: CreateApiKeyInput): Promise<Result<ApiKeyCreated>> {
  const ttl = resolveTtl(input.expiresIn, deps.settings.apiKeyMaxTtl);
  if (!ttl.ok) return ttl;
  const createdAt = deps.now();
  const expiresAt = ttl.value === -1 ? -1 : createdAt + ttl.value;
  // A key made with a key cannot outlive it.
  if (principal.apiKeyId !== null && principal.expiresAt !== -1 && (expiresAt === -1 || expiresAt > principal.expiresAt)) {
    return fail('security.token.ttl_exceeded', {
      value: String(input.expiresIn ?? DEFAULT_EXPIRES_IN),
      max: Math.max(0, principal.expiresAt - createdAt),
    });
  }
  const _id = input._id ?? deps.newId();
  const token = await deps.tokens.sign(
    { sub: principal.userId, tenantId: principal.tenantId, roles: principal.roles, jti: _id, kind: API_KEY_KIND },
    ttl.value,
    createdAt,
  );
  const fingerprint = fingerprintOf(token);
  const _service_info: ServiceInfo = { author: principal.userId, createdAt, updatedAt: null, updater: null };
  const record: ApiKeyRecord = {
    _id,
    userId: principal.userId,
    tenantId: principal.tenantId,
    roles: principal.roles,
    description: input.description,
    expiresAt,
    ttl: ttl.value,
    fingerprint,
    _service_info,
  };
  const outcome = await deps.store.apiKeys.createKey(record);
  if (outcome === 'id_taken') return fail('services.storage.document_already_exists', { what: `API key "${_id}"` });
  return ok({
    _id,
    _source: { description: input.description, expiresAt, ttl: ttl.value, fingerprint, token, userId: principal.userId, _service_info },
  });
}

export const createApiKeyOperation = defineOperation<CreateApiKeyInput, ApiKeyCreated>({
  controller: 'auth',
  action: 'createApiKey',
  addressesCollection: false,
  contract: {
    summary: 'Create an API key',
    description: "A key of the caller's, whose `token` this answer holds, once: only its `fingerprint` is kept. The token is a bearer token until `expiresAt`; a key created with a key cannot outlive it.",
    args: {
      expiresIn: {
        schema: { type: ['string', 'integer'] },
        description: 'The lifetime: an `ms` duration (`1h`, `30d`) or integer milliseconds; default `1h`. `-1` never expires, unless API_KEY_MAX_TTL is set. `0`, other negatives and unparsable values are 400 `api.assert.invalid_argument`; above API_KEY_MAX_TTL, 400 `security.token.ttl_exceeded`.',
        example: '2h',
      },
      _id: { ...ADDRESS_ARGS._id, description: `${ADDRESS_ARGS._id.description} Default: a new UUID; a taken one is 409.`, example: 'ci-pipeline' },
    },
    body: {
      required: true,
      schema: {
        type: 'object',
        required: ['description'],
        properties: { description: { type: 'string', minLength: 1, maxLength: MAX_DESCRIPTION_LENGTH, examples: ['CI pipeline'] } },
      },
      examples: { ci: { summary: 'A key for CI', value: { description: 'CI pipeline' } } },
    },
    result: API_KEY_CREATED_SCHEMA,
    resultExample: { _id: 'ci-pipeline', _source: { ...EXAMPLE_API_KEY, token: 'eyJhbGciOiJIUzI1NiJ9...' } },
    errors: ['api.assert.body_required', 'api.assert.invalid_type', 'api.assert.missing_argument', 'api.assert.invalid_argument', 'security.token.ttl_exceeded', 'services.storage.document_already_exists'],
  },
  parse(req) {
    const body = objectBody(req.body, true);
    if (!body.ok) return body;
    return validateCreateApiKey({ description: body.value.description, expiresIn: req.args.expiresIn, _id: req._id ?? req.args._id });
  },
  run: createApiKey,
});
