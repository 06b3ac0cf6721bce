/**
 * A test server holding the demo countries (each once: ICU names a few twice, and slugs are
 * unique) and the entities a test adds, with a reader of tenant acme and an admin: the end-to-end
 * search suites' common start.
 */
import { demoCountries } from '../../src/demo/countries';
import { request, startTestServer, type TestServer } from './testServer';

export interface DemoCountries {
  server: TestServer;
  /** rita, of tenant acme. */
  reader: string;
  admin: string;
}

export async function startDemoCountries(extra: Record<string, unknown>[] = []): Promise<DemoCountries> {
  const server = await startTestServer();
  const reader = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  const admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
  const countries = demoCountries().filter((c, i, all) => all.findIndex((d) => d.name === c.name) === i);
  const bulk = await request(server, 'POST', '/v4/entity/countries/_bulk', { token: admin, body: [...countries, ...extra] });
  if (bulk.status !== 200 || bulk.body.result.errors.length > 0) throw new Error(`demo countries not loaded: ${JSON.stringify(bulk.body)}`);
  return { server, reader, admin };
}
