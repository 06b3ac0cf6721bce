/**
 * The settings as server:getConfig shows them: the Config without any secret. Known secrets are
 * taken out by name (AUTH_SECRET, ELASTICSEARCH_API_KEY), and so is every key whose name says
 * secret, password, token, API key, credential or private key, at any depth, should a setting be
 * added later; credentials written into a URL (ELASTICSEARCH_URL, REDIS_URL, AUTH_JWKS_URL) are
 * replaced with `***`.
 */
import type { Config } from './config';

const SECRET_NAME = /secret|passw|token|api_?key|credential|private/i;

/** `scheme://user:password@host/...` -> `scheme://***@host/...`; other strings as they are. */
export function withoutUrlCredentials(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1***@');
}

function scrub(value: unknown): unknown {
  if (typeof value === 'string') return withoutUrlCredentials(value);
  if (Array.isArray(value)) return value.map(scrub);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!SECRET_NAME.test(key) && inner !== undefined) out[key] = scrub(inner);
  }
  return out;
}

export function publicConfig(config: Config): Record<string, unknown> {
  const { auth, elasticsearch, ...rest } = config;
  const { secret: _secret, ...publicAuth } = auth;
  const { apiKey: _apiKey, ...publicElasticsearch } = elasticsearch;
  return scrub({ ...rest, auth: publicAuth, elasticsearch: publicElasticsearch }) as Record<string, unknown>;
}
