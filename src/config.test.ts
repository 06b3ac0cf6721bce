import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(7512);
    expect(c.dataDir).toBe('./data');
    expect(c.indexName).toBe('entity');
    expect(c.limits.maxBodyBytes).toBe(1024 * 1024);
    expect(c.apiKeys.maxTtl).toBeUndefined();
    expect(c.demoData).toBe(true);
  });

  it('reads durations for API_KEY_MAX_TTL', () => {
    expect(loadConfig({ API_KEY_MAX_TTL: '30d' }).apiKeys.maxTtl).toBe(30 * 86_400_000);
  });

  it.each([
    [{ PORT: 'http' }, 'PORT'],
    [{ API_KEY_MAX_TTL: 'soon' }, 'API_KEY_MAX_TTL'],
    [{ AUTH_SECRET: 'short' }, 'AUTH_SECRET'],
    [{ INDEX_NAME: 'Bad Name' }, 'INDEX_NAME'],
    [{ NODE_ENV: 'production' }, 'AUTH_SECRET or AUTH_JWKS_URL'],
  ])('refuses %p naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
