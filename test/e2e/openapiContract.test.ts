/**
 * Issue 16 item 2: the real server's answers against its own OpenAPI document (GET /v4/_openapi).
 * Every route is called, for a success and at least one refusal; each answer's status, content
 * type, required headers and body must be what the document describes (schemas compiled with ajv,
 * JSON Schema 2020-12): an answer the document does not describe fails the test.
 */
import { request as httpRequest } from 'node:http';
import { readPackageInfo } from '../../src/packageInfo';
import { ContractCheck, type Answer } from '../../src/transport/http/openapi/testing/contractCheck';
import { tenantTokens, type TenantTokens } from '../support/tenantTokens';
import { request, startTestServer, type TestServer } from '../support/testServer';

let server: TestServer;
let limited: TestServer;
let tokens: TenantTokens;
let check: ContractCheck;
/** `<METHOD> <template>` -> the statuses seen. */
const seen = new Map<string, Set<number>>();

beforeAll(async () => {
  server = await startTestServer({ env: { METRICS: 'admin' } });
  tokens = await tenantTokens(server);
  const res = await request(server, 'GET', '/v4/_openapi');
  check = new ContractCheck(res.body);
});

afterAll(async () => {
  await server.stop();
  await limited?.stop();
});

interface Call {
  token?: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

function record(answer: Answer): Answer {
  const template = check.templateOf(answer.url);
  const key = `${answer.method} ${template}`;
  seen.set(key, (seen.get(key) ?? new Set()).add(answer.status));
  return answer;
}

/** One call; its answer must be the expected status and match the document. */
async function call(method: string, url: string, status: number, opts: Call = {}, on: Pick<TestServer, 'url'> = server): Promise<any> {
  const res = await request(on, method, url, opts);
  const answer = record({ method, url, status: res.status, headers: Object.fromEntries(res.headers), body: res.body ?? res.text });
  expect([method, url, res.status, check.problems(answer)]).toEqual([method, url, status, []]);
  return res.body;
}

/** A request fetch cannot send (a GET with a body). */
function rawCall(method: string, url: string, body: string, status: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(server.url + url, { method, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        const answer = record({ method, url, status: res.statusCode!, headers: res.headers as Record<string, string>, body: JSON.parse(text) });
        expect([method, url, res.statusCode, check.problems(answer)]).toEqual([method, url, status, []]);
        resolve();
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('GET /v4/_openapi', () => {
  it('answers the OpenAPI 3.1 document, with no token, as JSON, echoing X-Request-Id', async () => {
    const res = await request(server, 'GET', '/v4/_openapi', { headers: { 'X-Request-Id': 'contract-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toBe('contract-1');
    expect(res.body).toMatchObject({ openapi: '3.1.0', info: { version: readPackageInfo().version } });
    await call('GET', '/v4/_openapi?pretty', 200);
  });

  it('flags an answer it does not describe', async () => {
    const res = await request(server, 'GET', '/v4/nothing', { token: tokens.readerAcme });
    expect(res.status).toBe(404);
    expect(check.problems({ method: 'GET', url: '/v4/nothing', status: 404, headers: Object.fromEntries(res.headers), body: res.body })).toEqual(['GET /v4/nothing: not in the document']);
    expect(check.problems({ method: 'GET', url: '/v4/_now', status: 418, headers: {}, body: {} })[0]).toMatch(/status not in the document/);
    const now = await request(server, 'GET', '/v4/_now');
    const answer = { method: 'GET', url: '/v4/_now', status: 200, headers: Object.fromEntries(now.headers), body: now.body };
    expect(check.problems({ ...answer, body: { ...now.body, result: { now: 'soon' } } })[0]).toMatch(/result\/now must be integer/);
    expect(check.problems({ ...answer, body: { ...now.body, extra: 1 } })[0]).toMatch(/must NOT have additional properties/);
    expect(check.problems({ ...answer, headers: { ...answer.headers, 'content-type': 'text/html' } })[0]).toMatch(/content type "text\/html" not in the document/);
    const { 'x-request-id': _dropped, ...without } = answer.headers;
    expect(check.problems({ ...answer, headers: without })).toEqual(['GET /v4/_now 200: header X-Request-Id missing']);
  });
});

describe('every route answers as the document says', () => {
  const E = '/v4/entity/countries';

  it('document:create, get, replace, update, delete', async () => {
    const created = await call('POST', `${E}?_id=contract-land`, 200, { token: tokens.writerAcme, body: { name: 'Contract Land', code: 'CL', tags: ['a'], nested: { x: 1 } } });
    expect(created.result._id).toBe('contract-land');
    await call('POST', `${E}?_id=contract-land`, 409, { token: tokens.writerAcme, body: { name: 'Again' } });
    await call('POST', E, 403, { token: tokens.readerAcme, body: { name: 'Nope' } });
    await call('POST', E, 400, { token: tokens.writerAcme });
    await call('POST', '/v4/entity/country', 400, { token: tokens.writerAcme, body: { name: 'Singular' } });
    await call('POST', E, 401, { body: { name: 'Anonymous' } });
    await call('GET', `${E}/contract-land`, 200, { token: tokens.readerAcme });
    await call('GET', `${E}/contract-land`, 404, { token: tokens.readerGlobex });
    await call('GET', `${E}/bad%20id`, 400, { token: tokens.readerAcme });
    await call('PUT', `${E}/contract-land`, 200, { token: tokens.writerAcme, body: { name: 'Contract Land', code: 'CX' } });
    await call('PUT', `${E}/nowhere`, 404, { token: tokens.writerAcme, body: { name: 'Nowhere' } });
    await call('PATCH', `${E}/contract-land`, 200, { token: tokens.writerAcme, body: { code: 'CY' } });
    await call('PATCH', `${E}/contract-land`, 400, { token: tokens.writerAcme, body: ['not', 'an', 'object'] });
    await call('DELETE', `${E}/contract-land`, 403, { token: tokens.readerAcme });
    await call('DELETE', `${E}/contract-land`, 200, { token: tokens.writerAcme });
    await call('DELETE', `${E}/contract-land`, 404, { token: tokens.writerAcme });
  });

  it('collection:create, updateMapping, getMapping', async () => {
    const M = '/v4/entity/contract-mapped-things';
    await call('PUT', M, 200, { token: tokens.admin, body: { mappings: { properties: { code: { type: 'keyword' } } } } });
    await call('PUT', M, 403, { token: tokens.writerAcme, body: { mappings: { properties: {} } } });
    await call('PUT', `${M}/_mapping`, 200, { token: tokens.admin, body: { properties: { rank: { type: 'integer' } } } });
    await call('PUT', `${M}/_mapping`, 400, { token: tokens.admin, body: { properties: { code: { type: 'text' } } } });
    await call('PUT', `${M}/_mapping`, 403, { token: tokens.writerAcme, body: { properties: {} } });
    await call('GET', `${M}/_mapping`, 200, { token: tokens.readerAcme });
    await call('GET', '/v4/entity/country/_mapping', 400, { token: tokens.readerAcme });
  });

  it('document:mCreate', async () => {
    const bulk = await call('POST', `${E}/_bulk`, 200, { token: tokens.writerAcme, body: [{ name: 'Bulk One' }, { _id: 'bad id', name: 'Bulk Two' }] });
    expect([bulk.result.successes.length, bulk.result.errors.length]).toEqual([1, 1]);
    await call('POST', `${E}/_bulk`, 200, { token: tokens.writerAcme, body: { documents: [{ _id: 'bulk-three', body: { name: 'Bulk Three' } }] } });
    await call('POST', `${E}/_bulk`, 400, { token: tokens.writerAcme, body: { nothing: [] } });
  });

  it('document:search and count', async () => {
    await call('POST', `${E}/_bulk`, 200, { token: tokens.admin, body: [{ name: 'South Land', region: 'Oceans', allowTenantIds: ['*'] }, { name: 'North Land', region: 'Oceans', allowTenantIds: ['*'] }] });
    const found = await call('POST', `${E}/search?size=2`, 200, { token: tokens.readerAcme, body: { query: { match: { name: 'land' } }, highlight: { fields: { name: {} } } } });
    expect(found.result.total).toBeGreaterThanOrEqual(2);
    await call('POST', `${E}/search`, 200, { token: tokens.readerAcme, body: { sort: [{ 'name.keyword': 'asc' }], _source: ['name'], size: 1 } });
    await call('POST', `${E}/search`, 200, { token: tokens.readerAcme, body: { size: 0, aggs: { regions: { terms: { field: 'region.keyword' } } } } });
    await call('POST', '/v4/entity/never-written-things/search', 200, { token: tokens.readerAcme });
    await call('POST', `${E}/search`, 400, { token: tokens.readerAcme, body: { bogus: 1 } });
    await call('POST', `${E}/search?from=9995&size=10`, 413, { token: tokens.readerAcme, body: {} });
    await call('POST', `${E}/search?size=abc`, 400, { token: tokens.readerAcme, body: {} });
    await call('POST', `${E}/search`, 400, { token: tokens.readerAcme, raw: '{"query":' });
    await call('POST', `${E}/search`, 401, { token: 'not-a-jwt', body: {} });
    await call('POST', `${E}/count`, 200, { token: tokens.readerAcme, body: { query: { match: { region: 'oceans' } } } });
    await call('POST', `${E}/count`, 200, { token: tokens.readerAcme });
    await call('POST', `${E}/count`, 400, { token: tokens.readerAcme, body: { size: 1 } });
  });

  it('auth:createApiKey, searchApiKeys, deleteApiKey, checkToken', async () => {
    const key = await call('POST', '/v4/api-keys/_create?expiresIn=2h&_id=contract-key', 200, { token: tokens.readerAcme, body: { description: 'contract' } });
    await call('POST', '/v4/api-keys/_create?_id=contract-key', 409, { token: tokens.readerAcme, body: { description: 'again' } });
    await call('POST', '/v4/api-keys/_create?expiresIn=soon', 400, { token: tokens.readerAcme, body: { description: 'bad' } });
    await call('POST', '/v4/api-keys/_search', 200, { token: tokens.readerAcme, body: { query: { match: { description: 'contract' } } } });
    await call('POST', '/v4/api-keys/_search?size=1', 200, { token: key.result._source.token, body: { _source: ['description'] } });
    await call('POST', '/v4/api-keys/_search', 400, { token: tokens.readerAcme, body: { query: 'x' } });
    await call('POST', '/v4/_checkToken', 200, { body: { token: key.result._source.token } });
    await call('POST', '/v4/_checkToken', 200, { body: { token: 'not-a-jwt' } });
    await call('POST', '/v4/_checkToken', 400, { body: {} });
    await call('POST', '/v4/_checkToken', 413, { raw: JSON.stringify({ token: 'x'.repeat(server.config.limits.maxBodyBytes) }) });
    await call('DELETE', '/v4/api-keys/contract-key', 404, { token: tokens.readerGlobex });
    await call('DELETE', '/v4/api-keys/contract-key', 200, { token: tokens.readerAcme });
    await call('GET', '/v4/_me', 401, { token: key.result._source.token });
  });

  it('auth:getCurrentUser, checkRights; server:now, info, healthCheck, getConfig', async () => {
    await call('GET', '/v4/_me', 200, { token: tokens.writerAcme });
    await call('GET', '/v4/_me', 401);
    await call('POST', '/v4/_checkRights', 200, { token: tokens.readerAcme, body: { controller: 'document', action: 'create' } });
    await call('POST', '/v4/_checkRights', 400, { token: tokens.readerAcme, body: { controller: 'document' } });
    await call('GET', '/v4/_now', 200);
    await rawCall('GET', '/v4/_now', '{', 400);
    await call('GET', '/v4/_serverInfo', 200, { token: tokens.readerAcme });
    await call('GET', '/v4/_serverInfo', 401);
    await call('GET', '/v4/_healthCheck?services=storageEngine', 200);
    await rawCall('GET', '/v4/_healthCheck', '[[[', 400);
    await call('GET', '/v4/_getConfig', 200, { token: tokens.admin });
    await call('GET', '/v4/_getConfig', 401, { token: 'Bearer' });
  });

  it('the probes and GET /metrics (METRICS=admin)', async () => {
    await call('GET', '/healthz', 200);
    await call('GET', '/readyz', 200);
    await call('GET', '/metrics', 200, { token: tokens.admin });
    await call('GET', '/metrics', 401);
    await call('GET', '/metrics', 403, { token: tokens.readerAcme });
  });

  it('a request over RATE_LIMIT: 429 with Retry-After and the RateLimit headers', async () => {
    limited = await startTestServer({ env: { RATE_LIMIT: '1/1m' } });
    const token = await limited.token({ sub: 'rita', tenantId: 'acme' });
    await call('GET', '/v4/_me', 200, { token }, limited);
    const refused = await request(limited, 'GET', '/v4/_me', { token });
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    await call('GET', '/v4/_me', 429, { token }, limited);
  });

  it('GET /readyz when the store does not answer: 503', async () => {
    // (the store's own probe, made to fail: an unreachable Elasticsearch answers the same)
    limited.gateway.deps.store.ready = () => Promise.resolve(false);
    await call('GET', '/readyz', 503, {}, limited);
  });

  it('covered every operation of the document: a success each, and a refusal each where one can happen', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(check.document.paths)) {
      for (const method of Object.keys(item)) {
        const statuses = [...(seen.get(`${method.toUpperCase()} ${path}`) ?? [])];
        const refusable = Object.keys(item[method].responses).some((s) => Number(s) >= 400);
        if (!statuses.some((s) => s < 300)) missing.push(`${method} ${path}: no success`);
        if (refusable && !statuses.some((s) => s >= 400)) missing.push(`${method} ${path}: no refusal`);
      }
    }
    expect(missing).toEqual([]);
  });
});
