/**
 * `npm run migrate` from a real embedded DATA_DIR (written through a real gateway) into the
 * Elasticsearch store on a mock cluster: progress and summary on stderr, the cursor, a failure in
 * the middle and --resume, and afterwards a gateway on Elasticsearch that accepts the migrated API
 * key and finds the same entities.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, startTestServer } from '../../test/support/testServer';
import { loadConfig } from '../config';
import { createLogger } from '../log';
import { createGateway } from '../server';
import { ElasticsearchStore } from '../store/elasticsearch/elasticsearchStore';
import { CursorFile } from '../store/elasticsearch/migration/cursor';
import { FakeElasticsearch } from '../store/elasticsearch/testing/fakeElasticsearch';
import { runMigrate, USAGE } from './migrate';

const SECRET = 'migration-test-secret-0123456789-abcdefghijklmnopqrstuv';

function io(fake: FakeElasticsearch, env: Record<string, string>, argv: string[] = []) {
  const lines: string[] = [];
  return {
    lines,
    io: {
      argv,
      env: { ELASTICSEARCH_URL: 'http://localhost:9200', ES_INDEX_PREFIX: 'mig', AUTH_SECRET: SECRET, ...env },
      stderr: { isTTY: false, write: (t: string) => lines.push(t) },
      openStore: (settings: { indexPrefix: string }) =>
        new ElasticsearchStore({ client: fake.client(), indexPrefix: settings.indexPrefix, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } }),
    },
  };
}

describe('npm run migrate', () => {
  let dataDir: string;
  let apiKey: { _id: string; token: string };
  let embeddedHits: any[];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'migrate-cli-'));
    const server = await startTestServer({ dataDir, env: { AUTH_SECRET: SECRET } });
    const admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
    const countries = Array.from({ length: 12 }, (_, i) => ({ _id: `c${i}`, name: `Country ${i} ${i % 3 === 0 ? 'south' : 'north'}`, allowTenantIds: ['*'] }));
    expect((await request(server, 'POST', '/v4/entity/countries/_bulk', { token: admin, body: countries })).status).toBe(200);
    expect((await request(server, 'POST', '/v4/entity/regions?_id=eu', { token: admin, body: { name: 'Europe', allowTenantIds: ['*'] } })).status).toBe(200);
    const alice = await server.token({ sub: 'alice', tenantId: 'acme', roles: [] });
    const created = await request(server, 'POST', '/v4/api-keys/_create?expiresIn=-1', { token: alice, body: { description: 'kept' } });
    apiKey = { _id: created.body.result._id, token: created.body.result._source.token };
    embeddedHits = (await request(server, 'POST', '/v4/entity/countries/search?size=20', { token: alice, body: { query: { match: { name: 'south' } } } })).body.result.hits;
    await server.stop({ keepData: true });
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses bad usage and missing settings (exit 2)', async () => {
    const fake = new FakeElasticsearch();
    expect(await runMigrate(io(fake, { DATA_DIR: dataDir }, ['--batch', '0']).io)).toBe(2);
    expect(await runMigrate(io(fake, { DATA_DIR: dataDir }, ['--nope']).io)).toBe(2);
    expect(await runMigrate(io(fake, { DATA_DIR: dataDir, ELASTICSEARCH_URL: '' }).io)).toBe(2);
    const empty = mkdtempSync(join(tmpdir(), 'migrate-empty-'));
    const run = io(fake, { DATA_DIR: empty });
    expect(await runMigrate(run.io)).toBe(2);
    expect(run.lines.join('')).toContain('no embedded store');
    rmSync(empty, { recursive: true, force: true });
    const help = io(fake, {}, ['--help']);
    expect(await runMigrate(help.io)).toBe(0);
    expect(help.lines.join('')).toContain(USAGE);
  });

  it('says so when Elasticsearch does not answer (exit 1)', async () => {
    const fake = new FakeElasticsearch();
    fake.unreachable = true;
    const run = io(fake, { DATA_DIR: dataDir });
    expect(await runMigrate(run.io)).toBe(1);
    expect(run.lines.join('')).toContain('does not answer');
  });

  it('fails in the middle keeping its cursor, resumes, and leaves a working Elasticsearch gateway', async () => {
    const fake = new FakeElasticsearch();
    let entityBulks = 0;
    const stop = fake.intercept((req) => {
      if (req.path === '/_bulk' && req.querystring.refresh === 'wait_for' && req.body[0].create?._index === 'mig-countries' && ++entityBulks === 2) fake.unreachable = true;
      return undefined;
    });
    const first = io(fake, { DATA_DIR: dataDir }, ['--batch', '5']);
    expect(await runMigrate(first.io)).toBe(1);
    const failed = first.lines.join('');
    expect(failed).toContain('API keys  [##############################] 100%  1/1');
    expect(failed).toContain('migration failed');
    expect(failed).toContain('--resume');
    expect(new CursorFile(dataDir).read()).toEqual(expect.objectContaining({ keys: 1, entities: 10, done: false }));

    stop();
    fake.unreachable = false;
    const second = io(fake, { DATA_DIR: dataDir }, ['--batch', '5', '--resume']);
    expect(await runMigrate(second.io)).toBe(0);
    const resumed = second.lines.join('');
    expect(resumed).toContain('resuming');
    expect(resumed).toMatch(/entities {2}\[#+\] 100% {2}13\/13/);
    expect(resumed).toContain('API keys: 0 copied, 0 already there');
    expect(new CursorFile(dataDir).read()?.done).toBe(true);
    expect(fake.ids('mig-countries')).toHaveLength(12);
    expect(fake.ids('mig-regions')).toEqual(['eu']);

    // A gateway on Elasticsearch with the same AUTH_SECRET: the key works, the entities are there.
    const esDir = mkdtempSync(join(tmpdir(), 'migrate-es-gw-'));
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATA_DIR: esDir, LOG_LEVEL: 'silent', AUTH_SECRET: SECRET });
    const gateway = createGateway(config, createLogger('silent'), new ElasticsearchStore({ client: fake.client(), indexPrefix: 'mig' }));
    const port = await gateway.listen();
    try {
      const url = `http://127.0.0.1:${port}`;
      const search = await request({ url }, 'POST', '/v4/entity/countries/search?size=20', { token: apiKey.token, body: { query: { match: { name: 'south' } } } });
      expect(search.status).toBe(200);
      expect(search.body.result.hits).toEqual(embeddedHits);
      const keys = await request({ url }, 'POST', '/v4/api-keys/_search', { token: apiKey.token, body: {} });
      expect(keys.body.result.hits.map((h: any) => h._id)).toEqual([apiKey._id]);
      // slugs came along: a chosen duplicate is still refused, a derived one takes the next form
      const admin = await gateway.deps.tokens.sign({ sub: 'ada', tenantId: 'hq', roles: ['admin'] }, 60_000);
      const dup = await request({ url }, 'POST', '/v4/entity/regions', { token: admin, body: { name: 'Europa', slug: 'europe', allowTenantIds: ['*'] } });
      expect(dup.status).toBe(409);
      const derived = await request({ url }, 'POST', '/v4/entity/regions', { token: admin, body: { name: 'Europe', allowTenantIds: ['*'] } });
      expect(derived.body.result._source.slug).toBe('europe-2');
    } finally {
      await gateway.close();
      rmSync(esDir, { recursive: true, force: true });
    }
    expect(existsSync(join(dataDir, 'gateway.sqlite'))).toBe(true); // the source is left as it was
  });
});
