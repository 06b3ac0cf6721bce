/**
 * A restart from the index file (README "Index file"): a gateway stopped and started again on the
 * same DATA_DIR reads its indexes from entities.index instead of re-indexing, and answers every
 * search exactly as before the restart (hits, order, scores, aggregations); a damaged file is not
 * used and the answers are still the same (every entity indexed from SQLite).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmbeddedStore } from '../../src/store/embedded/embeddedStore';
import { INDEX_FILE } from '../../src/store/embedded/snapshot/indexFile';
import { request, startTestServer, type TestServer } from '../support/testServer';
import { expectOk } from '../support/e2e';

const ok = (res: { status: number; body: any }) => expectOk({ httpStatus: res.status, envelope: res.body });
const WORDS = ['river', 'stone', 'amber', 'north', 'quiet', 'harbor', 'lantern', 'meadow', 'copper', 'violet', 'ember', 'tide'];

const SEARCHES: object[] = [
  { query: { match: { description: 'amber harbor lantern' } } },
  { query: { match_phrase: { name: 'north stone' } } },
  { query: { bool: { must: [{ match: { description: 'quiet' } }], filter: [{ range: { rank: { gte: 100, lt: 700 } } }] } }, sort: [{ rank: 'desc' }, { slug: 'asc' }] },
  { query: { multi_match: { query: 'copper tide', fields: ['name^3', 'description'] } }, aggs: { colours: { terms: { field: 'colour' } }, rank: { stats: { field: 'rank' } }, buckets: { histogram: { field: 'rank', interval: 250 } } } },
  { query: { prefix: { 'name.keyword': 'ri' } }, sort: [{ 'name.keyword': 'asc' }, { slug: 'asc' }] },
  { query: { fuzzy: { name: { value: 'meadw' } } } },
  { query: { range: { released: { gte: '2021-03-01' } } }, sort: [{ released: 'asc' }, { slug: 'asc' }] },
];

let dataDir: string;
let admin: string;
let before: unknown[];

async function answers(server: TestServer): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const body of SEARCHES) out.push(ok(await request(server, 'POST', '/v4/entity/products/search?size=30', { token: admin, body })));
  out.push(ok(await request(server, 'GET', '/v4/entity/products/_mapping', { token: admin })));
  return out;
}

const startedFrom = (server: TestServer) => (server.gateway.deps.store as EmbeddedStore).indexFile.startedFrom;

beforeAll(async () => {
  const first = await startTestServer();
  dataDir = first.dataDir;
  admin = await first.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
  ok(await request(first, 'PUT', '/v4/entity/products/_mapping', { token: admin, body: { properties: { colour: { type: 'keyword' }, released: { type: 'date', format: 'dd/MM/yyyy' } } } }));
  const items = Array.from({ length: 400 }, (_, i) => ({
    name: `${WORDS[i % 12]} ${WORDS[(i * 5) % 12]} ${WORDS[(i * 7) % 11]}`,
    description: Array.from({ length: 4 + (i % 9) }, (_, j) => WORDS[(i * j + j) % 12]).join(' '),
    rank: (i * 389) % 1000,
    colour: WORDS[8 + (i % 4)],
    released: `${String(1 + (i % 28)).padStart(2, '0')}/${String(1 + (i % 12)).padStart(2, '0')}/2021`,
    allowTenantIds: ['*'],
  }));
  const documents = items.map((body, i) => ({ _id: `p${i}`, body }));
  expect(ok(await request(first, 'POST', '/v4/entity/products/_bulk', { token: admin, body: { documents } })).errors).toEqual([]);
  for (let i = 0; i < 400; i += 9) ok(await request(first, 'DELETE', `/v4/entity/products/p${i}`, { token: admin }));
  for (let i = 1; i < 400; i += 13) if (i % 9 !== 0) ok(await request(first, 'PATCH', `/v4/entity/products/p${i}`, { token: admin, body: { description: 'patched amber amber tide' } }));
  before = await answers(first);
  for (const answer of before.slice(0, SEARCHES.length)) expect((answer as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
  await first.stop({ keepData: true });
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a restart from the index file', () => {
  it('the stopped gateway wrote it; the next one reads it and answers exactly as before the restart', async () => {
    expect(existsSync(join(dataDir, INDEX_FILE))).toBe(true);
    const second = await startTestServer({ dataDir });
    try {
      expect(startedFrom(second)).toBe('index file');
      expect(await answers(second)).toEqual(before);
    } finally {
      await second.stop();
    }
  });

  it('a damaged file is not used: every entity is indexed from SQLite, and the answers are the same', async () => {
    const path = join(dataDir, INDEX_FILE);
    const bytes = readFileSync(path);
    bytes[Math.floor(bytes.length / 3)] ^= 0x40;
    writeFileSync(path, bytes);
    const third = await startTestServer({ dataDir });
    try {
      expect(startedFrom(third)).toBe('sqlite');
      expect(await answers(third)).toEqual(before);
    } finally {
      await third.stop();
    }
  });
});
