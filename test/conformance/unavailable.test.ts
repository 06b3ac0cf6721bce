/**
 * DESIGN.md "Errors" on the Elasticsearch store: a cluster that cannot be reached is 503
 * services.storage.not_connected for every operation that needs it, and /readyz says so. Runs
 * everywhere: the gateway uses the real client against a port where nothing listens (a refused
 * connection), and the simulated node switched off mid-run.
 */
import { expectError } from '../support/e2e';
import { request, startTestServer, type TestServer } from '../support/testServer';
import { call, ok } from './support/api';
import { startGateway } from './support/gateway';
import { FakeElasticsearch } from '../../src/store/elasticsearch/testing/fakeElasticsearch';
import { ElasticsearchStore } from '../../src/store/elasticsearch/elasticsearchStore';

const NOT_CONNECTED = 'services.storage.not_connected';

describe('an unreachable Elasticsearch (real client, connection refused)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ env: { ELASTICSEARCH_URL: 'http://127.0.0.1:1', ES_MAX_RETRIES: '1', AUTH_SECRET: 'unavailable-test-secret-0123456789-abcdefghijkl' } });
  });
  afterAll(() => server.stop());

  it('/readyz answers 503 naming the store; /healthz stays 200', async () => {
    const ready = await request(server, 'GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'unavailable', store: 'elasticsearch' });
    expect((await request(server, 'GET', '/healthz')).status).toBe(200);
  });

  it('every store operation answers 503 services.storage.not_connected', async () => {
    const caller = { server, token: await server.token({ sub: 'ada', tenantId: 'acme', roles: ['admin'] }) };
    const calls: [string, string, unknown][] = [
      ['POST', '/v4/entity/countries/search', {}],
      ['POST', '/v4/entity/countries/count', {}],
      ['GET', '/v4/entity/countries/fr', undefined],
      ['POST', '/v4/entity/countries?_id=fr', { name: 'France' }],
      ['POST', '/v4/entity/countries/_bulk', [{ name: 'France' }]],
      ['PUT', '/v4/entity/countries/fr', { name: 'France' }],
      ['DELETE', '/v4/entity/countries/fr', undefined],
      ['POST', '/v4/api-keys/_create', { description: 'x' }],
      ['POST', '/v4/api-keys/_search', {}],
      ['DELETE', '/v4/api-keys/k', undefined],
    ];
    for (const [method, path, body] of calls) {
      const answer = await call(caller, method, path, body);
      expectError(answer, NOT_CONNECTED, 503);
      expect(answer.envelope.error.code).toBe(16842776);
    }
  });
});

describe('the simulated Elasticsearch going down and coming back', () => {
  it('503 while down, answers again once it is back', async () => {
    const fake = new FakeElasticsearch();
    const backend = { env: {}, store: () => new ElasticsearchStore({ client: fake.client(), indexPrefix: 'down', retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } }), destroy: async () => undefined };
    const server = await startGateway(backend);
    try {
      const caller = { server, token: await server.token({ sub: 'w', tenantId: 'acme', roles: ['writer'] }) };
      await ok(caller, 'POST', '/v4/entity/countries?_id=fr', { name: 'France' });
      fake.unreachable = true;
      expectError(await call(caller, 'GET', '/v4/entity/countries/fr'), NOT_CONNECTED, 503);
      expect((await request(server, 'GET', '/readyz')).status).toBe(503);
      fake.unreachable = false;
      expect((await ok(caller, 'GET', '/v4/entity/countries/fr'))._source.name).toBe('France');
      expect((await request(server, 'GET', '/readyz')).body).toEqual({ status: 'ready', store: 'elasticsearch' });
    } finally {
      await server.stop();
    }
  });
});
