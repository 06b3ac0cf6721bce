/** mCreate with an NDJSON body on a real embedded store: batches, index replacing, the feed told of each write, roles. */
import { ok } from '../errors';
import { NdjsonBody, parseNdjsonBulk } from './bulkNdjson';
import { mCreateEntities } from './mCreateEntities';
import { NDJSON_BATCH, mCreateNdjson } from './mCreateNdjson';
import { admin, bulkFixture, towns as type } from './testing/bulkFixture';

describe('mCreateNdjson', () => {
  const fixture = bulkFixture('mcreate-ndjson-');

  const run = (text: string, principal = admin) => {
    const body = new NdjsonBody(Buffer.from(text), (b) => ok(JSON.parse(b.toString())));
    const actions = parseNdjsonBulk(body, 'towns');
    if (!actions.ok) throw actions.error;
    let batches = 0;
    const createBatch: typeof mCreateEntities = (d, p, input) => (batches++, mCreateEntities(d, p, input));
    return { result: mCreateNdjson(fixture.deps, principal, type, { body, actions: actions.value }, createBatch), batches: () => batches };
  };

  it('writes in batches of NDJSON_BATCH; an index after a create of the same _id replaces it', async () => {
    const lines: string[] = [];
    for (let i = 0; i < NDJSON_BATCH + 5; i++) lines.push('{"create":{}}', JSON.stringify({ name: `Town ${i}`, allowTenantIds: ['*'] }));
    lines.push('{"create":{"_id":"t"}}', '{"name":"T","allowTenantIds":["*"]}', '{"index":{"_id":"t"}}', '{"name":"T2"}');
    const { result, batches } = run(lines.join('\n') + '\n');
    const r = await result;
    expect(r.ok && [r.value.successes.length, r.value.errors.length]).toEqual([NDJSON_BATCH + 7, 0]);
    expect(batches()).toBe(2); // 1000, then 5 + t (written before the index on t replaces it)
    expect((await fixture.store.entities.get('towns', 't'))?.name).toBe('T2');
    expect(fixture.changes.filter((c) => c._id === 't').map((c) => c.action)).toEqual(['create', 'replace']);
  });

  it('refuses a caller without the writer role whole', async () => {
    const r = await run('{"create":{}}\n{"name":"x"}\n', { ...admin, roles: [] }).result;
    expect(!r.ok && [r.error.status, r.error.id]).toEqual([403, 'security.rights.forbidden']);
  });
});
