/** publicConfig: server:getConfig's settings, without any secret. */
import { loadConfig } from './config';
import { publicConfig, withoutUrlCredentials } from './publicConfig';

const SECRETS = {
  AUTH_SECRET: 'auth-secret-0123456789-0123456789-abc',
  ELASTICSEARCH_URL: 'https://elastic:es-password-42@es.example:9200',
  ELASTICSEARCH_API_KEY: 'es-api-key-value-xyz',
  REDIS_URL: 'redis://default:redis-password-77@cache.example:6379/0',
  AUTH_JWKS_URL: 'https://jwks-user:jwks-password-9@idp.example/.well-known/jwks.json',
};

describe('publicConfig', () => {
  it('holds no secret, whichever is set', () => {
    const text = JSON.stringify(publicConfig(loadConfig({ NODE_ENV: 'production', ...SECRETS })));
    for (const secret of ['auth-secret-0123456789', 'es-password-42', 'es-api-key-value-xyz', 'redis-password-77', 'jwks-password-9', 'elastic:', 'default:']) expect(text).not.toContain(secret);
  });

  it('keeps every other setting, and where each URL points', () => {
    const shown = publicConfig(loadConfig({ NODE_ENV: 'production', PORT: '8080', INDEX_NAME: 'things', ...SECRETS })) as any;
    expect(shown).toMatchObject({ nodeEnv: 'production', port: 8080, indexName: 'things', auth: { tenantClaim: 'tenantId' }, limits: { maxBodyBytes: 1048576 } });
    expect(shown.auth.secret).toBeUndefined();
    expect(shown.elasticsearch).toEqual(expect.objectContaining({ url: 'https://***@es.example:9200', indexPrefix: 'gateway' }));
    expect(shown.elasticsearch.apiKey).toBeUndefined();
    expect(shown.redis.url).toBe('redis://***@cache.example:6379/0');
    expect(shown.auth.jwksUrl).toBe('https://***@idp.example/.well-known/jwks.json');
  });

  it('drops any key whose name says it is a secret, at any depth (a setting added later)', () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    const shown = publicConfig({ ...config, extra: { nested: { password: 'p', clientSecret: 's', accessToken: 't', privateKey: 'k', api_key: 'a', keep: 1 } } } as never) as any;
    expect(shown.extra).toEqual({ nested: { keep: 1 } });
  });

  it('scrubs credentials from URLs only', () => {
    expect(withoutUrlCredentials('http://user:pw@host/x?a=b@c')).toBe('http://***@host/x?a=b@c');
    expect(withoutUrlCredentials('redis://:pw@host')).toBe('redis://***@host');
    expect(withoutUrlCredentials('http://host/path@x')).toBe('http://host/path@x');
    expect(withoutUrlCredentials('alice@example.com')).toBe('alice@example.com');
  });
});
