import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CORS_MAX_AGE_SECONDS, createCorsLayer, type CorsOrigins } from './cors';

/** The layer in front of a route that answers 200 "routed". */
async function serve(origins: CorsOrigins): Promise<{ url: string; server: Server }> {
  const cors = createCorsLayer(origins);
  const server = createServer((req, res) => cors(req, res, () => res.writeHead(200, ['Content-Type', 'text/plain', 'X-Request-Id', 'r-1']).end('routed')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const preflight = (origin: string, method = 'POST') => ({ method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization,content-type' } });
const APP = 'https://app.example.com';

describe('createCorsLayer', () => {
  let servers: Server[] = [];
  const start = async (origins: CorsOrigins) => {
    const s = await serve(origins);
    servers.push(s.server);
    return s.url;
  };
  afterEach(async () => {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    servers = [];
  });

  describe('any origin (*)', () => {
    it('answers a REST preflight 204 with its methods, headers and max age, without reaching the route', async () => {
      const url = await start('*');
      const res = await fetch(`${url}/v4/entity/countries/search`, preflight(APP));
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,PATCH,DELETE');
      expect(res.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,X-Request-Id');
      expect(res.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE_SECONDS));
      expect(res.headers.get('vary')).toBeNull();
    });

    it('allows GraphQL the methods and the headers Apollo CSRF prevention accepts; the probes GET and HEAD', async () => {
      const url = await start('*');
      for (const path of ['/graphql/', '/graphqlx']) {
        const methods = (await fetch(`${url}${path}`, preflight(APP, 'GET'))).headers.get('access-control-allow-methods');
        expect(methods).toBe(path === '/graphql/' ? 'GET,POST' : 'GET,HEAD');
      }
      const graphql = await fetch(`${url}/graphql?query=%7B__typename%7D`, preflight(APP, 'GET'));
      expect(graphql.status).toBe(204);
      expect(graphql.headers.get('access-control-allow-methods')).toBe('GET,POST');
      expect(graphql.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,X-Request-Id,Apollo-Require-Preflight,X-Apollo-Operation-Name');
      const probe = await fetch(`${url}/healthz`, preflight(APP, 'GET'));
      expect(probe.status).toBe(204);
      expect(probe.headers.get('access-control-allow-methods')).toBe('GET,HEAD');
    });

    it('marks actual answers readable by any origin and exposes X-Request-Id and the rate limit headers', async () => {
      const url = await start('*');
      for (const headers of [{ Origin: APP }, {}] as Record<string, string>[]) {
        const res = await fetch(`${url}/v4/entity/countries/x`, { headers });
        expect(await res.text()).toBe('routed');
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect(res.headers.get('access-control-expose-headers')).toBe('X-Request-Id,RateLimit,RateLimit-Policy,Retry-After');
        expect(res.headers.get('access-control-allow-methods')).toBeNull();
      }
    });
  });

  describe('a list of origins', () => {
    const LIST = [APP, 'http://localhost:3000'];

    it('echoes an allowed origin, with Vary: Origin, on preflights and actual answers', async () => {
      const url = await start(LIST);
      const pre = await fetch(`${url}/v4/api-keys/_create`, preflight('http://localhost:3000'));
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
      expect(pre.headers.get('vary')).toBe('Origin');
      const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { Origin: APP } });
      expect(await res.text()).toBe('routed');
      expect(res.headers.get('access-control-allow-origin')).toBe(APP);
      expect(res.headers.get('access-control-expose-headers')).toBe('X-Request-Id,RateLimit,RateLimit-Policy,Retry-After');
      expect(res.headers.get('vary')).toBe('Origin');
    });

    it('gives another origin no CORS header and refuses its preflight with a 403 naming it', async () => {
      const url = await start(LIST);
      for (const origin of ['https://evil.example', 'https://app.example.com.evil.example', 'HTTPS://APP.EXAMPLE.COM', 'null']) {
        const pre = await fetch(`${url}/v4/entity/countries/search`, { ...preflight(origin), headers: { ...preflight(origin).headers, 'X-Request-Id': 'pre-1' } });
        expect(pre.status).toBe(403);
        const body = (await pre.json()) as { error: { message: string } };
        expect(body).toMatchObject({ requestId: 'pre-1', status: 403, error: { id: 'security.rights.forbidden' }, result: null });
        expect(body.error.message).toBe(`Forbidden: origin "${origin}" is not allowed (not in CORS_ORIGINS)`);
        expect([...pre.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
        expect(pre.headers.get('vary')).toBe('Origin');
        // the actual request is answered (the browser, not the server, withholds it from the page)
        const res = await fetch(`${url}/healthz`, { headers: { Origin: origin } });
        expect(await res.text()).toBe('routed');
        expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
      }
    });

    it('answers requests without an Origin (not from a browser page) as before, with Vary: Origin', async () => {
      const url = await start(LIST);
      const res = await fetch(`${url}/readyz`);
      expect(await res.text()).toBe('routed');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('vary')).toBe('Origin');
      // an OPTIONS that is no preflight goes to the routes
      expect(await (await fetch(`${url}/v4/entity/countries/search`, { method: 'OPTIONS' })).text()).toBe('routed');
    });
  });

  describe('no origin (none, the production default)', () => {
    it('refuses every preflight, saying that CORS_ORIGINS is not set, and adds no header to answers', async () => {
      const url = await start([]);
      const pre = await fetch(`${url}/graphql`, preflight(APP));
      expect(pre.status).toBe(403);
      expect(((await pre.json()) as { error: { message: string } }).error.message).toBe('Forbidden: cross-origin requests are not allowed (CORS_ORIGINS is not set)');
      expect(pre.headers.get('access-control-allow-origin')).toBeNull();
      const res = await fetch(`${url}/v4/entity/countries/search`, { method: 'POST', headers: { Origin: APP } });
      expect(await res.text()).toBe('routed');
      expect([...res.headers.keys()].filter((h) => h.startsWith('access-control-') || h === 'vary')).toEqual([]);
    });

    it('drains a preflight that carries a body and keeps the connection usable', async () => {
      const url = await start([]);
      const pre = await fetch(`${url}/v4/entity/countries`, { ...preflight(APP), body: 'x'.repeat(100_000) });
      expect(pre.status).toBe(403);
      expect(await (await fetch(`${url}/healthz`)).text()).toBe('routed');
    });
  });
});
