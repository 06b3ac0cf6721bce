import { ConfigError, defaultSearchConcurrency, loadConfig } from './config';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(7512);
    expect(c.dataDir).toBe('./data');
    expect(c.indexName).toBe('entity');
    expect(c.limits.maxBodyBytes).toBe(1024 * 1024);
    expect(c.limits.maxBulkBytes).toBe(100 * 1024 * 1024);
    expect(loadConfig({ MAX_BULK_BYTES: '5000' }).limits.maxBulkBytes).toBe(5000);
    expect(() => loadConfig({ MAX_BULK_BYTES: '0' })).toThrow('MAX_BULK_BYTES');
    expect(c.apiKeys.maxTtl).toBeUndefined();
    expect(c.demoData).toBe(true);
  });

  it('commits bulk writes of 100 entities or more in the commit thread unless COMMIT_THREAD_FROM says otherwise', () => {
    expect(loadConfig({}).commitThreadFrom).toBe(100);
    expect(loadConfig({ COMMIT_THREAD_FROM: '2' }).commitThreadFrom).toBe(2);
    expect(loadConfig({ COMMIT_THREAD_FROM: 'off' }).commitThreadFrom).toBe(Infinity);
    expect(() => loadConfig({ COMMIT_THREAD_FROM: '0' })).toThrow('COMMIT_THREAD_FROM');
    expect(() => loadConfig({ COMMIT_THREAD_FROM: 'never' })).toThrow('COMMIT_THREAD_FROM');
  });

  it('runs one process unless WORKERS says how many, or auto: one per core', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ WORKERS: ' ' }).workers).toBe(1);
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(require('node:os').availableParallelism());
  });

  it('joins no fleet unless REDIS_URL is set', () => {
    expect(loadConfig({}).redis).toEqual({ url: undefined, prefix: 'gateway' });
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/0', REDIS_PREFIX: 'prod' }).redis).toEqual({ url: 'redis://127.0.0.1:6379/0', prefix: 'prod' });
    expect(loadConfig({ REDIS_URL: 'rediss://user:pw@redis.example:6380' }).redis.url).toBe('rediss://user:pw@redis.example:6380');
  });

  it('logs every request unless LOG_REQUESTS=false; serves /metrics to anyone outside production and to admins in production unless METRICS says', () => {
    expect(loadConfig({}).logRequests).toBe(true);
    expect(loadConfig({ LOG_REQUESTS: 'false' }).logRequests).toBe(false);
    expect(loadConfig({ LOG_REQUESTS: '0' }).logRequests).toBe(false);
    expect(loadConfig({}).metrics).toBe('public');
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32) }).metrics).toBe('admin');
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), METRICS: 'public' }).metrics).toBe('public');
    expect(loadConfig({ METRICS: 'off' }).metrics).toBe('off');
    expect(() => loadConfig({ METRICS: 'yes' })).toThrow(/METRICS/);
    expect(() => loadConfig({ LOG_REQUESTS: 'no' })).toThrow(/LOG_REQUESTS/);
  });

  it('serves the console (and the GraphQL IDE) outside production, in production only when CONSOLE says so', () => {
    const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32) };
    expect(loadConfig({}).console).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).console).toBe(true);
    expect(loadConfig(production).console).toBe(false);
    expect(loadConfig(production).graphql.landingPage).toBe(false);
    expect(loadConfig({ ...production, CONSOLE: 'on' }).console).toBe(true);
    expect(loadConfig({ ...production, CONSOLE: 'on' }).graphql.landingPage).toBe(true);
    expect(loadConfig({ CONSOLE: 'off' }).console).toBe(false);
    expect(loadConfig({ CONSOLE: 'off' }).graphql.landingPage).toBe(false);
    expect(loadConfig({ CONSOLE: 'false' }).console).toBe(false);
    expect(loadConfig({ ...production, CONSOLE: '1' }).console).toBe(true);
    // GRAPHQL_LANDING_PAGE still switches the IDE alone
    expect(loadConfig({ GRAPHQL_LANDING_PAGE: 'false' })).toMatchObject({ console: true, graphql: { landingPage: false } });
    expect(loadConfig({ CONSOLE: 'off', GRAPHQL_LANDING_PAGE: 'true' })).toMatchObject({ console: false, graphql: { landingPage: true } });
    expect(() => loadConfig({ CONSOLE: 'yes' })).toThrow(/CONSOLE/);
  });

  it('reads durations for API_KEY_MAX_TTL', () => {
    expect(loadConfig({ API_KEY_MAX_TTL: '30d' }).apiKeys.maxTtl).toBe(30 * 86_400_000);
  });

  it("has Elasticsearch's query limits and the search budget as settings", () => {
    expect(loadConfig({}).search).toEqual({ maxQueryDepth: 30, maxClauseCount: 4096, maxTermsCount: 65_536, maxRegexLength: 1000, maxDeterminizedStates: 10_000, maxFields: 1000, maxBuckets: 65_536, maxAnalyzedOffset: 1_000_000, timeoutMs: 10_000, sliceMs: 1, concurrency: defaultSearchConcurrency, queueSize: 1000 });
    expect(loadConfig({}).limits.maxJsonDepth).toBe(1000);
    expect(loadConfig({ MAX_BUCKETS: '100' }).search.maxBuckets).toBe(100);
    expect(() => loadConfig({ MAX_BUCKETS: '0' })).toThrow(/MAX_BUCKETS/);
    const set = loadConfig({ SEARCH_TIMEOUT: '2s', SEARCH_SLICE_MS: '20', MAX_CLAUSE_COUNT: '1024', MAX_JSON_DEPTH: '50' });
    expect([set.search.timeoutMs, set.search.sliceMs, set.search.maxClauseCount, set.limits.maxJsonDepth]).toEqual([2000, 20, 1024, 50]);
  });

  it('reads MAX_ANALYZED_OFFSET (index.highlight.max_analyzed_offset) and refuses a value that is not a positive integer', () => {
    expect(loadConfig({ MAX_ANALYZED_OFFSET: '5000' }).search.maxAnalyzedOffset).toBe(5000);
    expect(() => loadConfig({ MAX_ANALYZED_OFFSET: '0' })).toThrow(/MAX_ANALYZED_OFFSET/);
    expect(() => loadConfig({ MAX_ANALYZED_OFFSET: 'lots' })).toThrow(/MAX_ANALYZED_OFFSET/);
  });

  describe('RATE_LIMIT, RATE_LIMIT_AUTH_FAILURES, TRUST_PROXY', () => {
    it('default to no request limit, 60 refused tokens a minute per address, and X-Forwarded-For not trusted', () => {
      const config = loadConfig({});
      expect(config.rateLimit).toEqual({ requests: null, authFailures: { limit: 60, windowSeconds: 60 } });
      expect(config.trustProxy).toBe(0);
    });

    it('read <requests>/<window>, off, and a number of proxies', () => {
      const config = loadConfig({ RATE_LIMIT: '600/1m', RATE_LIMIT_AUTH_FAILURES: 'off', TRUST_PROXY: '2' });
      expect(config.rateLimit).toEqual({ requests: { limit: 600, windowSeconds: 60 }, authFailures: null });
      expect(config.trustProxy).toBe(2);
      expect(loadConfig({ RATE_LIMIT: '20/30s', TRUST_PROXY: 'false' })).toMatchObject({ rateLimit: { requests: { limit: 20, windowSeconds: 30 } }, trustProxy: 0 });
    });

    it.each([
      [{ RATE_LIMIT: '600' }, /RATE_LIMIT: "600": write <requests>\/<window>/],
      [{ RATE_LIMIT: '600/1.5s' }, /RATE_LIMIT: .*whole number of seconds/],
      [{ RATE_LIMIT_AUTH_FAILURES: '0/1m' }, /RATE_LIMIT_AUTH_FAILURES: .*integer from 1/],
      [{ TRUST_PROXY: 'true' }, /TRUST_PROXY: "true" is not a number of proxies/],
      [{ TRUST_PROXY: '-1' }, /TRUST_PROXY/],
    ])('refuse %p at start, naming the variable', (env, message) => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(message);
    });
  });

  describe('CORS_ORIGINS', () => {
    it('defaults to any origin outside production and to none in production', () => {
      expect(loadConfig({}).cors.origins).toBe('*');
      expect(loadConfig({ NODE_ENV: 'test' }).cors.origins).toBe('*');
      expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32) }).cors.origins).toEqual([]);
      expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), CORS_ORIGINS: ' ' }).cors.origins).toEqual([]);
    });

    it('reads *, none and a list (trimmed, duplicates dropped)', () => {
      expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), CORS_ORIGINS: '*' }).cors.origins).toBe('*');
      expect(loadConfig({ CORS_ORIGINS: 'none' }).cors.origins).toEqual([]);
      expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:3000,https://app.example.com' }).cors.origins).toEqual([
        'https://app.example.com',
        'http://localhost:3000',
      ]);
      expect(loadConfig({ CORS_ORIGINS: 'http://[::1]:8080,capacitor://localhost,https://xn--bcher-kva.example' }).cors.origins).toEqual([
        'http://[::1]:8080',
        'capacitor://localhost',
        'https://xn--bcher-kva.example',
      ]);
    });

    it.each([
      ['https://app.example.com/', 'write "https://app.example.com"'],
      ['https://App.Example.com', 'write "https://app.example.com"'],
      ['https://app.example.com:443', 'write "https://app.example.com"'],
      ['https://app.example.com/path', 'write "https://app.example.com"'],
      ['https://bücher.example', 'write "https://xn--bcher-kva.example"'],
      ['app.example.com', 'is not an origin'],
      ['localhost:3000', 'is not an origin'],
      ['app://host/path', 'is not an origin'],
      ['https://*.example.com', 'cannot hold a wildcard'],
      ['*,https://a.example', 'stands alone'],
      ['https://a.example,,https://b.example', 'empty entry'],
      ['null', '"null"'],
    ])('refuses %p at start (%s)', (value, message) => {
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(`CORS_ORIGINS: `);
      expect(() => loadConfig({ CORS_ORIGINS: value })).toThrow(message);
    });
  });

  it.each([
    [{ SEARCH_TIMEOUT: 'soon' }, 'SEARCH_TIMEOUT'],
    [{ MAX_JSON_DEPTH: '5000' }, 'MAX_JSON_DEPTH'],
    [{ MAX_CLAUSE_COUNT: '0' }, 'MAX_CLAUSE_COUNT'],
    [{ SEARCH_SLICE_MS: 'fast' }, 'SEARCH_SLICE_MS'],
    [{ PORT: 'http' }, 'PORT'],
    [{ WORKERS: '0' }, 'WORKERS'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ REDIS_PREFIX: 'a b' }, 'REDIS_PREFIX'],
    [{ WORKERS: 'many' }, 'WORKERS'],
    [{ WORKERS: '2.5' }, 'WORKERS'],
    [{ API_KEY_MAX_TTL: 'soon' }, 'API_KEY_MAX_TTL'],
    [{ AUTH_SECRET: 'short' }, 'AUTH_SECRET'],
    [{ INDEX_NAME: 'Bad Name' }, 'INDEX_NAME'],
    [{ NODE_ENV: 'production' }, 'AUTH_SECRET or AUTH_JWKS_URL'],
  ])('refuses %p naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
