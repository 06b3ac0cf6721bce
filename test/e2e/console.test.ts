/**
 * The console over HTTP (README "Console"): the page at /, the GraphiQL IDE at /graphql for
 * browsers, their files from the gateway itself (no other origin), the security headers; CONSOLE
 * off (the default in production): / is the JSON 404 and /graphql gives a browser no IDE;
 * GRAPHQL_LANDING_PAGE switches the IDE alone. The pages at work in a real browser:
 * consoleBrowser.test.ts.
 */
import { request, startTestServer, type TestServer } from '../support/testServer';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const SECRET = 's'.repeat(40);

let on: TestServer; // NODE_ENV=test: the console is on
let off: TestServer; // CONSOLE=off
let production: TestServer; // NODE_ENV=production: off unless enabled
let productionOn: TestServer; // NODE_ENV=production, CONSOLE=on
let ideOnly: TestServer; // CONSOLE=off, GRAPHQL_LANDING_PAGE=true

beforeAll(async () => {
  [on, off, production, productionOn, ideOnly] = await Promise.all([
    startTestServer(),
    startTestServer({ env: { CONSOLE: 'off' } }),
    startTestServer({ env: { NODE_ENV: 'production', AUTH_SECRET: SECRET } }),
    startTestServer({ env: { NODE_ENV: 'production', AUTH_SECRET: SECRET, CONSOLE: 'on' } }),
    startTestServer({ env: { CONSOLE: 'off', GRAPHQL_LANDING_PAGE: 'true' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([on, off, production, productionOn, ideOnly].map((s) => s?.stop()));
});

const page = (server: TestServer, path: string) => request(server, 'GET', path, { headers: { Accept: BROWSER } });
/** The /console/assets/... URLs a page names. */
const assetUrls = (html: string) => [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]).filter((u) => u.startsWith('/console/assets/'));

function expectPageHeaders(res: { headers: Headers }, server: TestServer): void {
  const host = new URL(server.url).host;
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(res.headers.get('content-security-policy')).toBe(
    `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; connect-src 'self' ws://${host} wss://${host}; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  );
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
}

function expectNotFound(res: { status: number; body: any }, what: string): void {
  expect(res.status).toBe(404);
  expect(res.body).toMatchObject({ status: 404, error: { id: 'api.process.action_not_found' } });
  expect(res.body.error.message).toContain(what);
}

describe('CONSOLE on (outside production by default)', () => {
  it('GET / is the console page, with a strict Content-Security-Policy and no inline script', async () => {
    const res = await page(on, '/');
    expect(res.status).toBe(200);
    expectPageHeaders(res, on);
    expect(res.text).toContain('<title>Console');
    expect(res.text).toMatch(/<script src="\/console\/assets\/[0-9a-f]{16}\/console\.js"><\/script>/);
    // every script is a file of this origin: no inline code, no other host
    expect(res.text.match(/<script[^>]*>/g)!.every((tag) => /^<script src="\/console\/assets\//.test(tag))).toBe(true);
    expect(res.text).not.toMatch(/(?:src|href)="(?!\/)/);
  });

  it('GET /graphql from a browser is GraphiQL, served by the gateway; an API client still gets GraphQL', async () => {
    const ide = await page(on, '/graphql');
    expect(ide.status).toBe(200);
    expectPageHeaders(ide, on);
    expect(ide.text).toContain('<title>GraphQL IDE');
    expect(assetUrls(ide.text).map((u) => u.split('/').pop())).toEqual(['graphiql.css', 'graphiql-page.css', 'react.js', 'react-dom.js', 'graphiql.js', 'graphiql-boot.js']);
    expect(ide.text).not.toMatch(/(?:src|href)="(?!\/)/);
    const token = await on.token({ sub: 'alice', tenantId: 'acme' });
    const api = await request(on, 'GET', '/graphql?query=%7B%20me%20%7B%20userId%20%7D%20%7D', { token, headers: { Accept: 'application/json', 'Apollo-Require-Preflight': 'true' } });
    expect(api.status).toBe(200);
    expect(api.body).toEqual({ data: { me: { userId: 'alice' } } });
  });

  it("the pages' files come from the gateway (React 18, GraphiQL 3.8.2 from node_modules), cached for a year", async () => {
    const urls = [...new Set([...assetUrls((await page(on, '/')).text), ...assetUrls((await page(on, '/graphql')).text)])];
    expect(urls).toHaveLength(8);
    for (const url of urls) {
      const res = await request(on, 'GET', url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(url.endsWith('.css') ? /^text\/css/ : /^(text|application)\/javascript/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      if (url.endsWith('/graphiql.js')) expect(res.text).toContain('window.GraphiQL');
      if (url.endsWith('/react.js')) expect(res.text).toContain('18.3.1');
      // no file reaches for another origin (a CDN, web fonts): the console works offline
      if (url.endsWith('.css')) expect(res.text).not.toMatch(/url\((?!data:)/);
    }
  });

  it('a file the console does not serve, or an old version of one, is the JSON 404', async () => {
    const [current] = assetUrls((await page(on, '/')).text);
    const name = current.split('/').pop();
    expectNotFound(await request(on, 'GET', `/console/assets/0000000000000000/${name}`), 'Route "GET /console/assets/0000000000000000/');
    expectNotFound(await request(on, 'GET', '/console/assets/x/..%2F..%2Fpackage.json'), 'Route "GET /console/assets/');
    expectNotFound(await request(on, 'GET', '/console/assets/x/index.html'), 'Route "GET /console/assets/x/index.html"');
  });

  it('the API around the console is unchanged: /v4 routes, a POST to /, the health probes', async () => {
    expectNotFound(await request(on, 'POST', '/', { body: { token: 'x' } }), 'Route "POST /"');
    expect((await request(on, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(on, 'GET', '/v4/_now')).status).toBe(200);
  });
});

describe('CONSOLE off', () => {
  it.each([
    ['CONSOLE=off', () => off],
    ['NODE_ENV=production', () => production],
  ])('%s: / is the JSON 404, /graphql gives a browser no IDE, no file is served', async (_name, server) => {
    expectNotFound(await page(server(), '/'), 'Route "GET /"');
    const ide = await page(server(), '/graphql');
    // Apollo's answer without a landing page: a GET with no operation is refused
    expect(ide.status).toBe(400);
    expect(ide.headers.get('content-type')).not.toMatch(/html/);
    expect(ide.text).not.toMatch(/<html/i);
    expect(ide.body.errors[0]).toMatchObject({ message: expect.stringContaining('CSRF'), extensions: { code: 'BAD_REQUEST', status: 400 } });
    const urls = assetUrls((await page(on, '/graphql')).text);
    for (const url of urls) expect((await request(server(), 'GET', url)).status).toBe(404);
  });

  it('CONSOLE=on in production serves both', async () => {
    expect((await page(productionOn, '/')).status).toBe(200);
    expect((await page(productionOn, '/graphql')).text).toContain('<title>GraphQL IDE');
  });

  it('GRAPHQL_LANDING_PAGE=true with CONSOLE=off: the IDE and its files, no page at /', async () => {
    expectNotFound(await page(ideOnly, '/'), 'Route "GET /"');
    const ide = await page(ideOnly, '/graphql');
    expect(ide.status).toBe(200);
    for (const url of assetUrls(ide.text)) expect((await request(ideOnly, 'GET', url)).status).toBe(200);
  });
});
