import { readFileSync } from 'node:fs';
import { createServer, get as httpGet, type IncomingMessage, type Server } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ConsoleAssets } from './assets';
import { mountConsole, prefersHtml, type ConsoleRoutesOptions } from './consoleRoutes';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('prefersHtml: what Apollo takes for a browser', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.get('/', (req, res) => res.json(prefersHtml(req)));
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each([
    [BROWSER, true],
    ['text/html', true],
    ['application/json', false],
    ['application/graphql-response+json, application/json;q=0.9', false],
    ['*/*', false],
    ['text/html;q=0.5, application/json', false],
    ['multipart/mixed;deferSpec=20220824, application/json', false],
    [undefined, false],
  ])('Accept %j: %s', async (accept, html) => {
    // fetch sends */* when no Accept is given: the request without one goes out through node:http
    const answer = accept === undefined ? await bare(`${base}/`) : await (await fetch(`${base}/`, { headers: { Accept: accept } })).json();
    expect(answer).toBe(html);
  });
});

/** A GET with no Accept header at all. */
function bare(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    httpGet(url, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve(JSON.parse(text)));
    }).on('error', reject);
  });
}

describe('mountConsole', () => {
  const servers: Server[] = [];
  afterAll(async () => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

  /** An app with the console's routes and, behind them, an answer naming itself. */
  async function app(options: Omit<ConsoleRoutesOptions, 'graphqlPath'>): Promise<string> {
    const a = express();
    mountConsole(a, { ...options, graphqlPath: '/graphql', assets: new ConsoleAssets() });
    a.use((req, res) => res.status(404).json({ next: `${req.method} ${req.path}` }));
    const server = createServer(a);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const get = (url: string, accept = BROWSER) => fetch(url, { headers: { Accept: accept } });

  it('both on: the page at /, the IDE at /graphql for a browser only, and their files', async () => {
    const base = await app({ page: true, ide: true });
    const page = await get(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('<title>Console');
    const ide = await get(`${base}/graphql`);
    expect(await ide.text()).toContain('<title>GraphQL IDE');
    expect(ide.headers.get('x-content-type-options')).toBe('nosniff');
    // an API client's GET goes on to GraphQL
    expect(await (await get(`${base}/graphql?query={__typename}`, 'application/json')).json()).toEqual({ next: 'GET /graphql' });
    expect(await (await fetch(`${base}/graphql`, { method: 'POST', headers: { Accept: BROWSER } })).json()).toEqual({ next: 'POST /graphql' });
    const script = html.match(/src="([^"]+console\.js)"/)![1];
    const file = await get(base + script);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/javascript/);
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await file.text()).toContain('gateway-console-token');
  });

  it('sends a file brotli- or gzip-compressed when the browser takes it, as it is otherwise', async () => {
    const assets = new ConsoleAssets();
    const base = await app({ page: false, ide: true });
    const url = base + assets.url('graphiql.js');
    const raw = readFileSync(require.resolve('graphiql/graphiql.min.js'));
    const br = await rawGet(url, 'gzip, deflate, br');
    expect([br.res.headers['content-encoding'], br.res.headers.vary, br.res.headers['content-type']]).toEqual(['br', 'Accept-Encoding', 'text/javascript; charset=utf-8']);
    expect(br.res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.body.length).toBeLessThan(raw.length / 3);
    expect(brotliDecompressSync(br.body).equals(raw)).toBe(true);
    const gzip = await rawGet(url, 'gzip;q=1, br;q=0');
    expect(gzip.res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(raw)).toBe(true);
    for (const accept of [undefined, 'identity']) {
      const plain = await rawGet(url, accept);
      expect([plain.res.statusCode, plain.res.headers['content-encoding'], plain.res.headers.vary]).toEqual([200, undefined, 'Accept-Encoding']);
      expect(plain.body.equals(raw)).toBe(true);
    }
  });

  it('HEAD / answers the headers without the page', async () => {
    const base = await app({ page: true, ide: false });
    const head = await fetch(`${base}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await head.text()).toBe('');
  });

  it('an unknown file, a stale hash or a path out of the folder goes on (404)', async () => {
    const base = await app({ page: true, ide: true });
    for (const path of ['/console/assets/0123456789abcdef/console.js', '/console/assets/x/package.json', '/console/assets/x/..%2F..%2Fpackage.json', '/console/assets/console.js']) {
      const res = await get(base + path);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { next: string }).next).toMatch(/^GET \/console\/assets\//);
    }
  });

  it('the IDE alone: no page at /, the IDE and its files', async () => {
    const base = await app({ page: false, ide: true });
    expect(await (await get(`${base}/`)).json()).toEqual({ next: 'GET /' });
    const html = await (await get(`${base}/graphql`)).text();
    const script = html.match(/src="([^"]+graphiql\.js)"/)![1];
    expect((await get(base + script)).status).toBe(200);
  });

  it('both off: nothing is served, not even the files', async () => {
    const assets = new ConsoleAssets();
    const base = await app({ page: false, ide: false });
    expect(await (await get(`${base}/`)).json()).toEqual({ next: 'GET /' });
    expect(await (await get(`${base}/graphql`)).json()).toEqual({ next: 'GET /graphql' });
    expect((await get(base + assets.url('console.js'))).status).toBe(404);
  });
});

/** A GET through node:http (fetch would ask for and undo compression itself): the answer's headers and its bytes as sent. */
function rawGet(url: string, acceptEncoding: string | undefined): Promise<{ res: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ res, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}
