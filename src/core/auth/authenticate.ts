/**
 * From a bearer token to a Principal: signature and expiry, then, for API key tokens, that the key
 * still exists and that its stored fingerprint is SHA-256(token).
 */
import type { JWTPayload } from 'jose';
import type { ApiKeyRecord, ApiKeyStore } from '../../store/port';
import { fail, ok, type Now, type Result } from '../errors';
import type { Principal } from '../principal';
import { fingerprintOf } from '../apiKeys/fingerprint';
import type { TokenService } from './tokens';
import type { ChangeOrigin } from '../events/changeFeed';

/** The claim that marks a token as an API key's (with `jti` = the key's _id). */
export const API_KEY_KIND = 'apiKey';

interface AuthenticatorOptions {
  tenantClaim: string;
  /** How long a key record may be trusted without a new lookup. */
  keyCacheMs: number;
  now?: () => number;
}

const MAX_CACHED = 10_000;

/** A token whose signature was checked: its claims, and the principal of a user token. */
interface VerifiedToken {
  payload: JWTPayload;
  external: boolean;
  principal?: Principal;
  /** Whether the token was accepted the last time it was presented. */
  accepted?: boolean;
}

export class Authenticator {
  private readonly now: () => number;
  /** Verified signatures: token -> payload (and the principal of a user token). Expiry is still checked on every use. */
  private readonly verified = new Map<string, VerifiedToken>();
  private readonly keys = new Map<string, { record: ApiKeyRecord | null; fetchedAt: number }>();

  constructor(
    private readonly tokens: TokenService,
    private readonly apiKeys: ApiKeyStore,
    private readonly options: AuthenticatorOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** At once for a user token already verified and not expired; otherwise a promise. */
  authenticate(jwt: string | null | undefined): Now<Result<Principal>> {
    if (jwt === null || jwt === undefined || jwt === '') return fail('security.rights.unauthorized');
    const known = this.verified.get(jwt);
    const principal = known?.principal;
    if (principal !== undefined && (principal.expiresAt === -1 || principal.expiresAt > this.now())) return ok(principal);
    return this.verify(jwt, known);
  }

  /**
   * Whether this process verified this token and accepted it the last time it was presented, and it
   * has not expired since: a token whose signature need not be checked again (what a client address
   * over RATE_LIMIT_AUTH_FAILURES may still use).
   */
  accepted(jwt: string | null | undefined): boolean {
    if (jwt === null || jwt === undefined || jwt === '') return false;
    const known = this.verified.get(jwt);
    if (known?.accepted !== true) return false;
    const exp = known.payload.exp;
    return typeof exp !== 'number' || exp * 1000 > this.now();
  }

  /** `known`: what `verified` holds for this token, if anything. */
  private async verify(jwt: string, known: VerifiedToken | undefined): Promise<Result<Principal>> {
    const now = this.now();
    let entry = known;
    if (entry === undefined) {
      const v = await this.tokens.verify(jwt);
      if (!v.ok) return v.expired ? fail('security.token.expired') : fail('security.token.invalid', { reason: v.reason });
      entry = { payload: v.payload, external: v.external };
      if (this.verified.size >= MAX_CACHED) this.verified.clear();
      this.verified.set(jwt, entry);
    }
    const { payload, external } = entry;
    if (typeof payload.exp === 'number' && payload.exp * 1000 <= now) {
      this.verified.delete(jwt);
      return fail('security.token.expired');
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') return fail('security.token.invalid', { reason: 'the token names no subject ("sub")' });

    if (!external && payload.kind === API_KEY_KIND) {
      const result = await this.fromApiKey(jwt, payload, now);
      entry.accepted = result.ok;
      return result;
    }
    // a user token's principal depends on its claims only: made once, frozen, shared by its requests
    entry.principal ??= Object.freeze(this.principalOf(payload, null, typeof payload.exp === 'number' ? payload.exp * 1000 : -1));
    entry.accepted = true;
    return ok(entry.principal);
  }

  private readonly forgottenListeners = new Set<(id: string, origin: ChangeOrigin) => void>();

  /**
   * Forget a key at once: deleted through this instance (`local`), or through another one, as told
   * by the store or the fleet bus (`remote`); live subscriptions hear of it.
   */
  forgetKey(id: string, origin: ChangeOrigin = 'local'): void {
    this.keys.delete(id);
    for (const listener of this.forgottenListeners) listener(id, origin);
  }

  onKeyForgotten(listener: (id: string, origin: ChangeOrigin) => void): () => void {
    this.forgottenListeners.add(listener);
    return () => this.forgottenListeners.delete(listener);
  }

  private async fromApiKey(jwt: string, payload: JWTPayload, now: number): Promise<Result<Principal>> {
    if (typeof payload.jti !== 'string') return fail('security.token.invalid', { reason: 'API key token without "jti"' });
    const record = await this.lookupKey(payload.jti, now);
    if (record === null) return fail('security.token.invalid', { reason: 'unknown or deleted API key' });
    if (record.fingerprint !== fingerprintOf(jwt)) return fail('security.token.invalid', { reason: 'API key fingerprint mismatch' });
    if (record.expiresAt !== -1 && record.expiresAt <= now) return fail('security.token.expired');
    return ok({
      ...this.principalOf(payload, record._id, record.expiresAt),
      userId: record.userId,
      tenantId: record.tenantId,
      roles: record.roles,
    });
  }

  private async lookupKey(id: string, now: number): Promise<ApiKeyRecord | null> {
    const cached = this.keys.get(id);
    if (cached !== undefined && now - cached.fetchedAt < this.options.keyCacheMs) return cached.record;
    const record = await this.apiKeys.getKey(id);
    if (this.keys.size >= MAX_CACHED) this.keys.clear();
    this.keys.set(id, { record, fetchedAt: now });
    return record;
  }

  private principalOf(payload: JWTPayload, apiKeyId: string | null, expiresAt: number): Principal {
    const sub = payload.sub as string;
    const tenant = payload[this.options.tenantClaim];
    const roles = Array.isArray(payload.roles) ? payload.roles.filter((r): r is string => typeof r === 'string') : [];
    const str = (...values: unknown[]): string | undefined => values.find((v): v is string => typeof v === 'string' && v !== '');
    return {
      userId: sub,
      tenantId: typeof tenant === 'string' && tenant !== '' ? tenant : null,
      roles,
      slug: str(payload.slug, payload.preferred_username) ?? sub,
      shortName: str(payload.shortName, payload.name) ?? sub,
      apiKeyId,
      expiresAt,
    };
  }
}

