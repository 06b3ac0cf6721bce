import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenApiRoute, OPENAPI_PATH } from './route';
import type { OpenApiDocument } from './document';

const document: OpenApiDocument = { openapi: '3.1.0', info: { title: 'é', version: '1' }, paths: {} };
let server: Server;
let base: string;

beforeAll(async () => {
  const route = createOpenApiRoute(document);
  server = createServer((req, res) => {
    if (!route(req, res)) res.writeHead(599).end('next');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('GET /v4/_openapi', () => {
  it('answers the document as JSON with its length, echoing X-Request-Id', async () => {
    for (const path of [OPENAPI_PATH, `${OPENAPI_PATH}?x=1`]) {
      const res = await fetch(base + path, { headers: { 'X-Request-Id': 'r-1' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(document))));
      expect(res.headers.get('x-request-id')).toBe('r-1');
      expect(await res.json()).toEqual(document);
    }
    expect((await fetch(base + OPENAPI_PATH)).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves other methods and paths to the next route', async () => {
    for (const [method, path] of [['POST', OPENAPI_PATH], ['HEAD', OPENAPI_PATH], ['GET', `${OPENAPI_PATH}x`], ['GET', `${OPENAPI_PATH}/x`], ['GET', '/v4/_now']]) {
      expect([method, path, (await fetch(base + path, { method })).status]).toEqual([method, path, 599]);
    }
  });
});
