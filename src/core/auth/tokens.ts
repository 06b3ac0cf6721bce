/**
 * JWT signing and verification with jose. Own tokens: HS256 with the service secret. External
 * tokens (AUTH_JWKS_URL): asymmetric algorithms only, with issuer and audience checks.
 * `alg: none` and algorithm confusion (an HS256 token "signed" with a public key) are refused.
 */
import { SignJWT, createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { webcrypto } from 'node:crypto';

const EXTERNAL_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

export type Verified = { ok: true; payload: JWTPayload; external: boolean } | { ok: false; expired: boolean; reason: string };

export interface ExternalIdp {
  jwksUrl: string;
  issuer?: string;
  audience?: string;
}

export class TokenService {
  private readonly key: Promise<webcrypto.CryptoKey>;
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    secret: Uint8Array,
    private readonly external?: ExternalIdp,
  ) {
    // Import the HMAC key once: jose would import it again on every call if given raw bytes.
    this.key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    if (external) this.jwks = createRemoteJWKSet(new URL(external.jwksUrl));
  }

  /** Signs claims with the service secret. expiresInMs = -1: no `exp`. */
  async sign(claims: JWTPayload, expiresInMs: number, now = Date.now()): Promise<string> {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(Math.floor(now / 1000));
    if (expiresInMs !== -1) jwt.setExpirationTime(Math.ceil((now + expiresInMs) / 1000));
    return jwt.sign(await this.key);
  }

  async verify(token: string): Promise<Verified> {
    let alg: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      return { ok: false, expired: false, reason: 'malformed token' };
    }
    try {
      if (alg === 'HS256') {
        const { payload } = await jwtVerify(token, await this.key, { algorithms: ['HS256'] });
        return { ok: true, payload, external: false };
      }
      if (this.jwks && alg !== undefined && EXTERNAL_ALGORITHMS.includes(alg)) {
        const { payload } = await jwtVerify(token, this.jwks, {
          algorithms: EXTERNAL_ALGORITHMS,
          issuer: this.external?.issuer,
          audience: this.external?.audience,
        });
        return { ok: true, payload, external: true };
      }
      return { ok: false, expired: false, reason: `unsupported algorithm "${String(alg)}"` };
    } catch (err) {
      if (err instanceof errors.JWTExpired) return { ok: false, expired: true, reason: 'token expired' };
      if (err instanceof errors.JWSSignatureVerificationFailed) return { ok: false, expired: false, reason: 'bad signature' };
      if (err instanceof errors.JWTClaimValidationFailed) return { ok: false, expired: false, reason: `claim "${err.claim}" ${err.reason}` };
      if (err instanceof errors.JOSEError) return { ok: false, expired: false, reason: 'malformed or unverifiable token' };
      throw err;
    }
  }
}
