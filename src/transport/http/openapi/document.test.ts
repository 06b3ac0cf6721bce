import { defineOperation } from '../../../core/operation';
import { operations } from '../../../core/operations';
import { catalogue, ok } from '../../../core/errors';
import { readPackageInfo } from '../../../packageInfo';
import { ROUTES } from '../routes';
import { buildOpenApiDocument, type OpenApiDocument } from './document';
import { ContractCheck, pointer } from './testing/contractCheck';
import { validateOpenApi } from './testing/openApiValidator';

const { name, version } = readPackageInfo();
const build = (metrics: 'public' | 'admin' | 'off' = 'admin') => buildOpenApiDocument({ name, version, operations, metrics });
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every example of the document, with the pointer of the schema it must match. */
function examplesOf(doc: OpenApiDocument, check: ContractCheck): { where: string; schemaAt: string; value: unknown }[] {
  const found: { where: string; schemaAt: string; value: unknown }[] = [];
  const media = (at: string[], content: Record<string, any>) => {
    for (const [type, m] of Object.entries<any>(content ?? {})) {
      const schemaAt = pointer([...at, 'content', type, 'schema']);
      if (m.example !== undefined) found.push({ where: `${at.join(' ')} ${type} example`, schemaAt, value: m.example });
      for (const [key, e] of Object.entries<any>(m.examples ?? {})) {
        found.push({ where: `${at.join(' ')} ${type} ${key}`, schemaAt, value: (e.$ref ? check.resolve(e.$ref) : e).value });
      }
    }
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS.filter((m) => item[m] !== undefined)) {
      const op = item[method] as Record<string, any>;
      (op.parameters ?? []).forEach((p: any, i: number) => {
        if (p.example !== undefined) found.push({ where: `${method} ${path} parameter ${p.name}`, schemaAt: pointer(['paths', path, method, 'parameters', String(i), 'schema']), value: p.example });
      });
      if (op.requestBody) media(['paths', path, method, 'requestBody'], op.requestBody.content);
      for (const [status, r] of Object.entries<any>(op.responses)) {
        const at = r.$ref ? r.$ref.slice(2).split('/') : ['paths', path, method, 'responses', status];
        media(at, check.resolve(pointer(at)).content);
      }
    }
  }
  return found;
}

describe('the OpenAPI document', () => {
  const doc = build();
  const check = new ContractCheck(doc);

  it('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', () => {
    expect(validateOpenApi(doc)).toEqual({ valid: true, version: '3.1' });
    expect(validateOpenApi({ ...doc, paths: { '/x': { get: { responses: { '200': { description: 'x', content: { 'application/json': { schema: { $ref: '#/components/schemas/Nothing' } } } } } } } } }).valid).toBe(false);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: `${name} REST API`, version });
  });

  it('has every route of the table, and every operation has one route', () => {
    for (const route of ROUTES) expect([route.method, route.path, doc.paths[`/v4${route.path}`]?.[route.method.toLowerCase()] !== undefined]).toEqual([route.method, route.path, true]);
    for (const op of operations) expect([op.controller, op.action, ROUTES.filter((r) => r.controller === op.controller && r.action === op.action).length]).toEqual([op.controller, op.action, 1]);
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/v4/')).sort()).toEqual(['/healthz', '/metrics', '/readyz']);
  });

  it('marks the public operations, and only them, as needing no token', () => {
    const publicOps = Object.values(doc.paths).flatMap((item) => Object.values(item)).filter((op) => Array.isArray(op.security) && (op.security as unknown[]).length === 0);
    expect(publicOps.map((op) => op.operationId).sort()).toEqual(['authCheckToken', 'healthz', 'readyz', 'serverHealthCheck', 'serverNow', 'serverOpenapi']);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it("lists each operation's arguments, body and errors from its contract", () => {
    const search = doc.paths['/v4/entity/{collection}/search'].post as any;
    expect(search.parameters.map((p: any) => p.$ref ?? `${p.in}:${p.name}`)).toEqual(['path:collection', 'query:from', 'query:size', '#/components/parameters/RequestId']);
    expect(search.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/SearchBody' });
    expect(search.responses['413'].content['application/json'].schema.properties.error.properties.id.enum.sort()).toEqual(['network.http.request_too_large', 'services.storage.get_limit_exceeded']);
    expect(search.responses['401']).toEqual({ $ref: '#/components/responses/Error401' });
    const create = doc.paths['/v4/api-keys/_create'].post as any;
    expect(create.parameters.map((p: any) => p.name ?? p.$ref)).toEqual(['expiresIn', '_id', '#/components/parameters/RequestId']);
    expect(Object.keys(create.responses).sort()).toEqual(['200', '400', '401', '409', '413', '429', '500', '503']);
    expect((doc.paths['/v4/_now'].get as any).responses['401']).toBeUndefined();
    // _bulk's other form, Elasticsearch's NDJSON
    const bulk = (doc.paths['/v4/entity/{collection}/_bulk'].post as any).requestBody.content;
    expect(Object.keys(bulk)).toEqual(['application/json', 'application/x-ndjson']);
    expect(bulk['application/x-ndjson']).toMatchObject({ schema: { type: 'string' }, example: expect.stringMatching(/^\{"create":/) });
  });

  it('has the closed catalogue: every id in ErrorId, one example each', () => {
    const components = doc.components as any;
    expect(components.schemas.ErrorId.enum).toEqual(Object.keys(catalogue));
    expect(Object.keys(components.examples)).toEqual(Object.keys(catalogue));
    for (const [id, { status }] of Object.entries(catalogue)) expect(components.examples[id].value.error).toMatchObject({ id, status });
  });

  it('has examples its own schemas accept (ajv, JSON Schema 2020-12)', () => {
    const examples = examplesOf(doc, check);
    expect(examples.length).toBeGreaterThan(100);
    for (const { where, schemaAt, value } of examples) expect([where, check.validate(schemaAt, value)]).toEqual([where, []]);
    for (const [id, example] of Object.entries<any>((doc.components as any).examples)) {
      expect([id, check.validate('#/components/schemas/ErrorEnvelope', example.value)]).toEqual([id, []]);
    }
  });

  it('describes GET /metrics as METRICS sets it', () => {
    expect((build('admin').paths['/metrics'].get as any).responses['403']).toBeDefined();
    expect((build('public').paths['/metrics'].get as any)).toMatchObject({ security: [] });
    expect((build('public').paths['/metrics'].get as any).responses['403']).toBeUndefined();
    expect(build('off').paths['/metrics']).toBeUndefined();
  });

  it('refuses a route without an operation, or one that disagrees with its operation on the path parameters', () => {
    const route = { method: 'GET' as const, path: '/things/{_id}', controller: 'document', action: 'search' };
    expect(() => buildOpenApiDocument({ name, version, operations, metrics: 'off', routes: [route] })).toThrow('disagree on {collection}');
    expect(() => buildOpenApiDocument({ name, version, operations, metrics: 'off', routes: [{ ...route, action: 'nothing' }] })).toThrow('which no operation answers');
    const bare = defineOperation({ controller: 'test', action: 'bare', addressesCollection: false, parse: () => ok(undefined), run: () => ok(null) });
    expect(() => buildOpenApiDocument({ name, version, operations: [bare], metrics: 'off', routes: [{ method: 'GET', path: '/bare', controller: 'test', action: 'bare' }] })).toThrow('has no contract');
  });
});
