import { ContractCheck, pointer } from './contractCheck';

const doc = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          '200': { description: 'ok', headers: { 'X-Id': { required: true, schema: { type: 'string' } }, 'Retry-After': { schema: { type: 'integer' } } }, content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { $ref: '#/components/responses/Missing' },
        },
      },
    },
    '/things/special': { get: { responses: { '200': { description: 'ok', content: { 'text/plain': { schema: { type: 'string' } } } } } } },
  },
  components: {
    schemas: { Thing: { type: 'object', required: ['at'], properties: { at: { type: 'string', format: 'date-time' } }, additionalProperties: false } },
    responses: { Missing: { description: 'no', content: { 'application/json': { schema: { const: null } } } } },
  },
};

describe('ContractCheck', () => {
  const check = new ContractCheck(doc);
  const ok = { method: 'GET', url: '/things/a1?x=1', status: 200, headers: { 'x-id': '1', 'content-type': 'application/json; charset=utf-8' }, body: { at: '2026-01-01T00:00:00Z' } };

  it('finds the template of a path, literal ones first', () => {
    expect(check.templateOf('/things/a1?q')).toBe('/things/{id}');
    expect(check.templateOf('/things/special')).toBe('/things/special');
    expect(check.templateOf('/things/a/b')).toBeUndefined();
  });

  it('passes an answer the document describes, $refs followed', () => {
    expect(check.problems(ok)).toEqual([]);
    expect(check.problems({ ...ok, status: 404, body: null })).toEqual([]);
    expect(check.problems({ ...ok, url: '/things/special', headers: { 'content-type': 'text/plain' }, body: 'x' })).toEqual([]);
  });

  it('tells what the document does not describe', () => {
    expect(check.problems({ ...ok, method: 'POST' })).toEqual(['POST /things/a1?x=1: not in the document']);
    expect(check.problems({ ...ok, status: 500 })).toEqual(['GET /things/{id} 500: status not in the document (200, 404)']);
    expect(check.problems({ ...ok, headers: { 'content-type': 'application/json' } })).toEqual(['GET /things/{id} 200: header X-Id missing']);
    expect(check.problems({ ...ok, headers: { ...ok.headers, 'retry-after': 'soon' } })).toEqual(['GET /things/{id} 200: header Retry-After is not an integer: soon']);
    expect(check.problems({ ...ok, headers: { 'x-id': '1', 'content-type': 'text/html' } })[0]).toMatch(/content type "text\/html" not in the document \(application\/json\)/);
    expect(check.problems({ ...ok, body: { at: 'yesterday' } })[0]).toMatch(/\/at must match format "date-time"/);
    expect(check.problems({ ...ok, body: { at: '2026-01-01T00:00:00Z', more: 1 } })[0]).toMatch(/must NOT have additional properties/);
  });

  it('validates a value against the schema at a pointer', () => {
    expect(pointer(['paths', '/things/{id}', 'get'])).toBe('#/paths/~1things~1%7Bid%7D/get');
    expect(check.validate('#/components/schemas/Thing', {})[0]).toMatch(/must have required property 'at'/);
    expect(check.resolve(pointer(['paths', '/things/{id}', 'get', 'responses', '404'])).description).toBe('no');
  });
});
