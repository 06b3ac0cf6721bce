/** mCreate with an NDJSON body on a real embedded store: batches, index replacing, the feed told of each write, roles. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedStore } from '../../store/embedded/embeddedStore';
import type { CoreDeps } from '../deps';
import { ok } from '../errors';
import { ChangeFeed, type EntityChange } from '../events/changeFeed';
import type { Principal } from '../principal';
import { NdjsonBody, parseNdjsonBulk } from './bulkNdjson';
import { parseCollection } from './entityType';
import { mCreateEntities } from './mCreateEntities';
import { NDJSON_BATCH, mCreateNdjson } from './mCreateNdjson';

const admin: Principal = { userId: 'ada', tenantId: 'hq', roles: ['admin'], slug: 'ada', shortName: 'Ada', apiKeyId: null, expiresAt: -1 };
const type = (() => {
  const t = parseCollection('towns');
  if (!t.ok) throw t.error;
  return t.value;
})();

describe('mCreateNdjson', () => {
  let dir: string;
  let store: EmbeddedStore;
  let deps: CoreDeps;
  const changes: EntityChange[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcreate-ndjson-'));
    store = new EmbeddedStore(dir);
    const feed = new ChangeFeed();
    feed.subscribe((c) => changes.push(c));
    let n = 0;
    deps = { store, feed, now: () => 1_700_000_000_000, newId: () => `id${++n}` } as unknown as CoreDeps;
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (text: string, principal = admin) => {
    const body = new NdjsonBody(Buffer.from(text), (b) => ok(JSON.parse(b.toString())));
    const actions = parseNdjsonBulk(body, 'towns');
    if (!actions.ok) throw actions.error;
    let batches = 0;
    const createBatch: typeof mCreateEntities = (d, p, input) => (batches++, mCreateEntities(d, p, input));
    return { result: mCreateNdjson(deps, principal, type, { body, actions: actions.value }, createBatch), batches: () => batches };
  };

  it('writes in batches of NDJSON_BATCH; an index after a create of the same _id replaces it', async () => {
    const lines: string[] = [];
    for (let i = 0; i < NDJSON_BATCH + 5; i++) lines.push('{"create":{}}', JSON.stringify({ name: `Town ${i}`, allowTenantIds: ['*'] }));
    lines.push('{"create":{"_id":"t"}}', '{"name":"T","allowTenantIds":["*"]}', '{"index":{"_id":"t"}}', '{"name":"T2"}');
    const { result, batches } = run(lines.join('\n') + '\n');
    const r = await result;
    expect(r.ok && [r.value.successes.length, r.value.errors.length]).toEqual([NDJSON_BATCH + 7, 0]);
    expect(batches()).toBe(2); // 1000, then 5 + t (written before the index on t replaces it)
    expect((await store.entities.get('towns', 't'))?.name).toBe('T2');
    expect(changes.filter((c) => c._id === 't').map((c) => c.action)).toEqual(['create', 'replace']);
  });

  it('refuses a caller without the writer role whole', async () => {
    const r = await run('{"create":{}}\n{"name":"x"}\n', { ...admin, roles: [] }).result;
    expect(!r.ok && [r.error.status, r.error.id]).toEqual([403, 'security.rights.forbidden']);
  });
});
