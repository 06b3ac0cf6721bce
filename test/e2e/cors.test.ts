/**
 * CORS on the real server (CORS_ORIGINS; README "Browsers (CORS)"): preflights of REST and GraphQL
 * answer 204 with the allowed methods and headers; actual answers carry Access-Control-Allow-Origin
 * and expose X-Request-Id; a disallowed origin gets no CORS header and its preflight is refused;
 * production allows no origin unless told; Apollo's CSRF prevention still refuses simple requests.
 * Requests are sent as a browser sends them (Origin, Access-Control-Request-*), over real HTTP.
 */
import { request, startTestServer, type HttpResponse, type TestServer } from '../support/testServer';

const APP = 'https://app.example.com';
const DEV = 'http://localhost:3000';
const EVIL = 'https://evil.example';
const SECRET = 'cors-e2e-secret-of-at-least-32-characters!';

let any: TestServer; // NODE_ENV=test, CORS_ORIGINS unset: any origin
let listed: TestServer; // CORS_ORIGINS=APP,DEV
let production: TestServer; // NODE_ENV=production, CORS_ORIGINS unset: none
let productionAny: TestServer; // NODE_ENV=production, CORS_ORIGINS=*

beforeAll(async () => {
  [any, listed, production, productionAny] = await Promise.all([
    startTestServer(),
    startTestServer({ env: { CORS_ORIGINS: `${APP}, ${DEV}` } }),
    startTestServer({ env: { NODE_ENV: 'production', AUTH_SECRET: SECRET } }),
    startTestServer({ env: { NODE_ENV: 'production', AUTH_SECRET: SECRET, CORS_ORIGINS: '*' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([any, listed, production, productionAny].map((s) => s?.stop()));
});

/** A browser's preflight of `method path` with the headers a page adds to its fetch. */
const preflight = (server: TestServer, path: string, origin: string, method = 'POST', headers = 'authorization,content-type,x-request-id') =>
  request(server, 'OPTIONS', path, { headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers } });

const corsHeaders = (res: HttpResponse): string[] => [...res.headers.keys()].filter((h) => h.startsWith('access-control-'));

const SEARCH_PATH = '/v4/entity/countries/search';
const GQL_SEARCH = { query: '{ search(type: "countries") { total } }' };

describe('CORS with any origin (the default outside production)', () => {
  it.each([
    ['a REST search', SEARCH_PATH, 'POST'],
    ['a REST update', '/v4/entity/countries/fr', 'PATCH'],
    ['an API key deletion', '/v4/api-keys/k1', 'DELETE'],
    ['an unknown /v4 route', '/v4/nowhere', 'GET'],
  ])('the preflight of %s answers 204 with the REST methods and headers', async (_name, path, method) => {
    const res = await preflight(any, path, APP, method);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,PATCH,DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,X-Request-Id');
    expect(res.headers.get('access-control-max-age')).toBe('7200');
  });

  it('the preflight of /graphql answers 204 (not Apollo\'s CSRF refusal), allowing the headers Apollo asks of a GET', async () => {
    for (const method of ['POST', 'GET']) {
      const res = await preflight(any, '/graphql', APP, method, 'authorization,content-type,apollo-require-preflight');
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST');
      expect(res.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,X-Request-Id,Apollo-Require-Preflight,X-Apollo-Operation-Name');
    }
  });

  it('a REST answer is readable cross-origin and exposes X-Request-Id, errors included', async () => {
    const token = await any.token({ sub: 'alice', tenantId: 'acme' });
    const ok = await request(any, 'POST', SEARCH_PATH, { token, body: {}, headers: { Origin: APP, 'X-Request-Id': 'cors-1' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')).toBe('X-Request-Id,RateLimit,RateLimit-Policy,Retry-After');
    expect(ok.headers.get('x-request-id')).toBe('cors-1');
    for (const res of [
      await request(any, 'POST', SEARCH_PATH, { body: {}, headers: { Origin: APP } }), // 401
      await request(any, 'POST', SEARCH_PATH, { token, raw: '{"query":', headers: { Origin: APP } }), // 400
      await request(any, 'GET', '/v4/nowhere', { headers: { Origin: APP } }), // 404
    ]) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body.error.id).toEqual(expect.any(String));
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toBe('X-Request-Id,RateLimit,RateLimit-Policy,Retry-After');
    }
  });

  it('a GraphQL answer is readable cross-origin and exposes X-Request-Id', async () => {
    const token = await any.token({ sub: 'alice', tenantId: 'acme' });
    const res = await request(any, 'POST', '/graphql', { token, body: GQL_SEARCH, headers: { Origin: APP, 'X-Request-Id': 'gql-1' } });
    expect(res.status).toBe(200);
    expect(res.body.data.search.total).toEqual(expect.any(Number));
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toBe('X-Request-Id,RateLimit,RateLimit-Policy,Retry-After');
    expect(res.headers.get('x-request-id')).toBe('gql-1');
  });

  it("Apollo's CSRF prevention still refuses a request a browser sends without a preflight, and runs a preflighted GET", async () => {
    const token = await any.token({ sub: 'alice', tenantId: 'acme' });
    const query = encodeURIComponent('{ me { tenantId } }');
    const simpleGet = await request(any, 'GET', `/graphql?query=${query}`, { token, headers: { Origin: EVIL } });
    expect(simpleGet.status).toBe(400);
    expect(simpleGet.text).toMatch(/Cross-Site Request Forgery/);
    const textPost = await request(any, 'POST', '/graphql', { raw: JSON.stringify({ query: 'mutation { createApiKey(description: "csrf") { id } }' }), headers: { Origin: EVIL, 'Content-Type': 'text/plain' } });
    expect(textPost.status).toBe(400);
    expect(textPost.text).toMatch(/Cross-Site Request Forgery/);
    const preflighted = await request(any, 'GET', `/graphql?query=${query}`, { token, headers: { Origin: APP, 'Apollo-Require-Preflight': 'true' } });
    expect(preflighted.status).toBe(200);
    expect(preflighted.body.data.me.tenantId).toBe('acme');
    expect(preflighted.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('the probes answer cross-origin too', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const pre = await preflight(any, path, APP, 'GET', '');
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-methods')).toBe('GET,HEAD');
      const res = await request(any, 'GET', path, { headers: { Origin: APP } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it('a preflight runs nothing: an OPTIONS with a body on the create route creates no entity', async () => {
    const token = await any.token({ sub: 'alice', tenantId: 'acme', roles: ['writer'] });
    const res = await request(any, 'OPTIONS', '/v4/entity/gadgets?_id=g1', {
      token,
      body: { name: 'Gadget' },
      headers: { Origin: APP, 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.status).toBe(204);
    const get = await request(any, 'GET', '/v4/entity/gadgets/g1', { token });
    expect(get.status).toBe(404);
  });

  it('a cross-origin caller is authenticated and isolated as any other: it never sees what another tenant owns', async () => {
    const acme = await any.token({ sub: 'w', tenantId: 'acme', roles: ['writer'] });
    const beta = await any.token({ sub: 'b', tenantId: 'beta' });
    const created = await request(any, 'POST', '/v4/entity/secrets?_id=s1', { token: acme, body: { name: 'Acme plan' }, headers: { Origin: APP } });
    expect(created.status).toBe(200);
    const seen = await request(any, 'POST', '/v4/entity/secrets/search', { token: beta, body: {}, headers: { Origin: APP } });
    expect(seen.body.result).toMatchObject({ total: 0, hits: [] });
    const get = await request(any, 'GET', '/v4/entity/secrets/s1', { token: beta, headers: { Origin: APP } });
    expect(get.status).toBe(404);
    const count = await request(any, 'POST', '/graphql', { token: beta, body: { query: '{ count(type: "secrets") }' }, headers: { Origin: APP } });
    expect(count.body.data.count).toBe(0);
    // a reader cannot write cross-origin either
    const write = await request(any, 'POST', '/v4/entity/secrets', { token: beta, body: { name: 'x' }, headers: { Origin: APP } });
    expect(write.status).toBe(403);
    expect(write.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('CORS with a list of origins', () => {
  it('echoes a listed origin, with Vary: Origin, on the preflight and the answer', async () => {
    for (const origin of [APP, DEV]) {
      const pre = await preflight(listed, SEARCH_PATH, origin);
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(origin);
      expect(pre.headers.get('vary')).toBe('Origin');
      const token = await listed.token({ sub: 'alice', tenantId: 'acme' });
      const res = await request(listed, 'POST', SEARCH_PATH, { token, body: {}, headers: { Origin: origin } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-expose-headers')).toBe('X-Request-Id,RateLimit,RateLimit-Policy,Retry-After');
      expect(res.headers.get('vary')).toBe('Origin');
      const gql = await request(listed, 'POST', '/graphql', { token, body: GQL_SEARCH, headers: { Origin: origin } });
      expect(gql.headers.get('access-control-allow-origin')).toBe(origin);
    }
  });

  it('an unlisted origin gets no CORS header, and its preflight a 403 naming it (REST and GraphQL)', async () => {
    for (const origin of [EVIL, `${APP}.evil.example`, 'http://app.example.com', 'null']) {
      for (const path of [SEARCH_PATH, '/graphql']) {
        const pre = await preflight(listed, path, origin);
        expect(pre.status).toBe(403);
        expect(pre.body.error).toMatchObject({ id: 'security.rights.forbidden', message: `Forbidden: origin "${origin}" is not allowed (not in CORS_ORIGINS)` });
        expect(corsHeaders(pre)).toEqual([]);
      }
      const token = await listed.token({ sub: 'alice', tenantId: 'acme' });
      const res = await request(listed, 'POST', SEARCH_PATH, { token, body: {}, headers: { Origin: origin } });
      expect(corsHeaders(res)).toEqual([]);
      expect(res.headers.get('vary')).toBe('Origin');
    }
  });

  it('a request with no Origin (curl, a server) is answered as before, with Vary: Origin', async () => {
    const res = await request(listed, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual([]);
    expect(res.headers.get('vary')).toBe('Origin');
  });
});

describe('CORS in production', () => {
  it('allows no origin by default: preflights are refused and answers carry no CORS header', async () => {
    for (const path of [SEARCH_PATH, '/graphql', '/healthz']) {
      const pre = await preflight(production, path, APP);
      expect(pre.status).toBe(403);
      expect(pre.body.error.message).toBe('Forbidden: cross-origin requests are not allowed (CORS_ORIGINS is not set)');
      expect(corsHeaders(pre)).toEqual([]);
    }
    const token = await production.token({ sub: 'alice', tenantId: 'acme' });
    const res = await request(production, 'POST', SEARCH_PATH, { token, body: {}, headers: { Origin: APP } });
    expect(res.status).toBe(200);
    expect(corsHeaders(res)).toEqual([]);
    expect(res.headers.get('vary')).toBeNull();
  });

  it('CORS_ORIGINS=* opens it', async () => {
    const pre = await preflight(productionAny, '/graphql', APP);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    const token = await productionAny.token({ sub: 'alice', tenantId: 'acme' });
    const res = await request(productionAny, 'POST', '/graphql', { token, body: GQL_SEARCH, headers: { Origin: APP } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
