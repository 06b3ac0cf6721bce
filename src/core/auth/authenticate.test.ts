import { SignJWT, UnsecuredJWT } from 'jose';
import type { ApiKeyRecord, ApiKeyStore } from '../../store/port';
import { fingerprintOf } from '../apiKeys/fingerprint';
import { API_KEY_KIND, Authenticator } from './authenticate';
import { TokenService } from './tokens';

const secret = new TextEncoder().encode('s'.repeat(48));
const tokens = new TokenService(secret);

function keyStore(records: ApiKeyRecord[]): ApiKeyStore & { lookups: number } {
  const byId = new Map(records.map((r) => [r._id, r]));
  return {
    lookups: 0,
    async createKey() {
      return 'ok';
    },
    async getKey(id) {
      this.lookups++;
      return byId.get(id) ?? null;
    },
    async searchKeys() {
      return { hits: [], total: 0 };
    },
    async deleteKey(id) {
      return byId.delete(id);
    },
  };
}

const errorId = (r: { ok: boolean; error?: { id: string } }) => (r.ok ? 'ok' : r.error!.id);

describe('Authenticator', () => {
  it('reads the principal from the claims', async () => {
    const auth = new Authenticator(tokens, keyStore([]), { tenantClaim: 'org', keyCacheMs: 0 });
    const jwt = await tokens.sign({ sub: 'alice', org: 'acme', roles: ['writer', 7], preferred_username: 'al', name: 'Alice A.' }, 60_000);
    const r = await auth.authenticate(jwt);
    expect(r.ok && r.value).toMatchObject({ userId: 'alice', tenantId: 'acme', roles: ['writer'], slug: 'al', shortName: 'Alice A.', apiKeyId: null });
  });

  it.each([
    ['no token', null, 'security.rights.unauthorized'],
    ['an empty token', '', 'security.rights.unauthorized'],
    ['garbage', 'not.a.jwt', 'security.token.invalid'],
  ])('refuses %s', async (_name, jwt, id) => {
    const auth = new Authenticator(tokens, keyStore([]), { tenantClaim: 'tenantId', keyCacheMs: 0 });
    expect(errorId(await auth.authenticate(jwt))).toBe(id);
  });

  it('refuses alg none, another secret, a missing subject, and expired tokens', async () => {
    const auth = new Authenticator(tokens, keyStore([]), { tenantClaim: 'tenantId', keyCacheMs: 0 });
    const none = new UnsecuredJWT({ sub: 'alice' }).encode();
    const other = await new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(48)));
    const noSub = await tokens.sign({ tenantId: 'acme' }, 60_000);
    const expired = await tokens.sign({ sub: 'alice' }, 1000, Date.now() - 10_000);
    expect(errorId(await auth.authenticate(none))).toBe('security.token.invalid');
    expect(errorId(await auth.authenticate(other))).toBe('security.token.invalid');
    expect(errorId(await auth.authenticate(noSub))).toBe('security.token.invalid');
    expect(errorId(await auth.authenticate(expired))).toBe('security.token.expired');
  });

  it('expires a cached token when its time comes', async () => {
    let now = Date.now();
    const auth = new Authenticator(tokens, keyStore([]), { tenantClaim: 'tenantId', keyCacheMs: 0, now: () => now });
    const jwt = await tokens.sign({ sub: 'alice' }, 5000, now);
    expect(errorId(await auth.authenticate(jwt))).toBe('ok');
    now += 6000;
    expect(errorId(await auth.authenticate(jwt))).toBe('security.token.expired');
  });

  it('answers at once for a user token it has verified, until it expires', async () => {
    let now = Date.now();
    const auth = new Authenticator(tokens, keyStore([]), { tenantClaim: 'tenantId', keyCacheMs: 0, now: () => now });
    const jwt = await tokens.sign({ sub: 'alice' }, 5000, now);
    const first = auth.authenticate(jwt);
    expect(first).toBeInstanceOf(Promise); // first sight: the signature is checked
    expect(errorId(await first)).toBe('ok');
    const again = auth.authenticate(jwt);
    expect(again).not.toBeInstanceOf(Promise);
    expect(errorId(again as { ok: boolean })).toBe('ok');
    now += 6000;
    const late = auth.authenticate(jwt);
    expect(late).toBeInstanceOf(Promise);
    expect(errorId(await late)).toBe('security.token.expired');
    expect(errorId(auth.authenticate(null) as { ok: boolean; error?: { id: string } })).toBe('security.rights.unauthorized');
  });

  describe('API key tokens', () => {
    const createdAt = Date.now();
    async function keyToken(id: string, expiresAt: number) {
      const jwt = await tokens.sign({ sub: 'alice', tenantId: 'acme', roles: [], jti: id, kind: API_KEY_KIND }, expiresAt - createdAt, createdAt);
      const record: ApiKeyRecord = {
        _id: id,
        userId: 'alice',
        tenantId: 'acme',
        roles: ['writer'],
        description: 'd',
        expiresAt,
        ttl: expiresAt - createdAt,
        fingerprint: fingerprintOf(jwt),
        _service_info: { author: 'alice', createdAt, updatedAt: null, updater: null },
      };
      return { jwt, record };
    }

    it('accepts a stored key and takes user, tenant and roles from it', async () => {
      const { jwt, record } = await keyToken('k1', createdAt + 60_000);
      const auth = new Authenticator(tokens, keyStore([record]), { tenantClaim: 'tenantId', keyCacheMs: 0 });
      const r = await auth.authenticate(jwt);
      expect(r.ok && r.value).toMatchObject({ userId: 'alice', tenantId: 'acme', roles: ['writer'], apiKeyId: 'k1', expiresAt: createdAt + 60_000 });
    });

    it('refuses a deleted key, a fingerprint mismatch and a key past expiresAt', async () => {
      const { jwt } = await keyToken('gone', createdAt + 60_000);
      const mismatch = await keyToken('k2', createdAt + 60_000);
      const store = keyStore([{ ...mismatch.record, fingerprint: 'f'.repeat(64) }]);
      let now = createdAt;
      const auth = new Authenticator(tokens, store, { tenantClaim: 'tenantId', keyCacheMs: 0, now: () => now });
      expect(errorId(await auth.authenticate(jwt))).toBe('security.token.invalid');
      expect(errorId(await auth.authenticate(mismatch.jwt))).toBe('security.token.invalid');

      // (its JWT's exp is also checked by jose against the real clock: far enough ahead that a slow run stays before it)
      const short = await keyToken('k3', createdAt + 60_000);
      const auth2 = new Authenticator(tokens, keyStore([short.record]), { tenantClaim: 'tenantId', keyCacheMs: 0, now: () => now });
      expect(errorId(await auth2.authenticate(short.jwt))).toBe('ok');
      now = createdAt + 60_000;
      expect(errorId(await auth2.authenticate(short.jwt))).toBe('security.token.expired');
    });

    it('caches lookups for keyCacheMs, and forgetKey drops the cache at once', async () => {
      const { jwt, record } = await keyToken('k4', createdAt + 60_000);
      const store = keyStore([record]);
      const now = createdAt;
      const auth = new Authenticator(tokens, store, { tenantClaim: 'tenantId', keyCacheMs: 5000, now: () => now });
      await auth.authenticate(jwt);
      await auth.authenticate(jwt);
      expect(store.lookups).toBe(1);
      await store.deleteKey('k4');
      auth.forgetKey('k4');
      expect(errorId(await auth.authenticate(jwt))).toBe('security.token.invalid');
    });

    it('knows a key token as accepted while its key is, and no longer once it is refused', async () => {
      const { jwt, record } = await keyToken('k5', createdAt + 60_000);
      const store = keyStore([record]);
      const auth = new Authenticator(tokens, store, { tenantClaim: 'tenantId', keyCacheMs: 0 });
      expect(auth.accepted(jwt)).toBe(false);
      await auth.authenticate(jwt);
      expect(auth.accepted(jwt)).toBe(true);
      await store.deleteKey('k5');
      await auth.authenticate(jwt);
      expect(auth.accepted(jwt)).toBe(false);
    });
  });

  describe('accepted (what RATE_LIMIT_AUTH_FAILURES lets through from a blocked address)', () => {
    it('is true only for a token this instance verified and accepted, until it expires', async () => {
      let now = Date.now();
      const auth = new Authenticator(tokens, keyStore([]), { tenantClaim: 'tenantId', keyCacheMs: 0, now: () => now });
      const jwt = await tokens.sign({ sub: 'alice' }, 60_000);
      for (const nothing of [null, undefined, '', jwt]) expect(auth.accepted(nothing)).toBe(false);
      await auth.authenticate(jwt);
      expect(auth.accepted(jwt)).toBe(true);
      now += 61_000;
      expect(auth.accepted(jwt)).toBe(false);
      const noSubject = await tokens.sign({}, 60_000);
      await auth.authenticate(noSubject);
      expect(auth.accepted(noSubject)).toBe(false);
      expect(auth.accepted('not.a.token')).toBe(false);
    });
  });
});
