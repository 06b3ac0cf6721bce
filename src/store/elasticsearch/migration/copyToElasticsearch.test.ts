import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiKeyRecord, Doc } from '../../port';
import { StoreUnavailableError } from '../../port';
import { SlugReservations } from '../slugReservations';
import { esError } from '../testing/fakeElasticsearch';
import { entity, storeOnFake } from '../testing/storeOnFake';
import { copyToElasticsearch, type MigrationSource } from './copyToElasticsearch';
import { CursorFile } from './cursor';

const key = (id: string): ApiKeyRecord => ({
  _id: id,
  userId: 'alice',
  tenantId: 'acme',
  roles: [],
  description: `key ${id}`,
  expiresAt: -1,
  ttl: -1,
  fingerprint: id.padEnd(64, '0'),
  _service_info: { author: 'alice', createdAt: 1, updatedAt: null, updater: null },
});

/** 2 keys; 7 entities over two collections, in write order. */
function source(): MigrationSource & { rows: { collection: string; id: string; source: Doc }[] } {
  const rows = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ collection: n % 3 === 0 ? 'regions' : 'countries', id: `e${n}`, source: entity(`e${n}`, `slug-${n}`) }));
  return { rows, keys: () => [key('k1'), key('k2')], entities: () => rows };
}

describe('copyToElasticsearch: declared mappings', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'migrate-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('puts each mapping unchanged before the entities, again on a second run (no conflict)', async () => {
    const { fake, store } = storeOnFake();
    const mapping = { dynamic: 'strict', _meta: { v: 1 }, properties: { code: { type: 'keyword' }, slug: { type: 'keyword' }, name: { type: 'text' }, id: { type: 'keyword' }, entityType: { type: 'keyword' }, allowTenantIds: { type: 'keyword' } } };
    const withMappings = { ...source(), mappings: () => new Map([['countries', JSON.stringify(mapping)]]) };
    const go = () => copyToElasticsearch({ source: withMappings, target: store, targetUrl: 'http://es:9200', cursor: new CursorFile(dir), batchSize: 3, resume: false });
    await go();
    expect(await store.entities.getMapping('countries')).toEqual(mapping);
    const puts = fake.requests.filter((r) => r.method === 'PUT' && r.path === '/gw-countries/_mapping');
    expect(puts).toHaveLength(1);
    expect(fake.requests.indexOf(puts[0])).toBeLessThan(fake.requests.findIndex((r) => r.path === '/_bulk' && JSON.stringify(r.body).includes('gw-countries') && !JSON.stringify(r.body).includes('gw_slugs')));
    await go();
    expect(await store.entities.getMapping('countries')).toEqual(mapping);
  });
});

describe('copyToElasticsearch', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'migrate-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (store: ReturnType<typeof storeOnFake>['store'], resume = false, events: string[] = []) =>
    copyToElasticsearch({
      source: source(),
      target: store,
      targetUrl: 'http://user:pw@es:9200',
      cursor: new CursorFile(dir),
      batchSize: 3,
      resume,
      onStart: (phase, total, done) => events.push(`start ${phase} ${done}/${total}`),
      onProgress: (phase, done) => events.push(`${phase} ${done}`),
      onDone: (phase) => events.push(`done ${phase}`),
    });

  it('copies keys (same _id, same fingerprint) then entities, through the store, batch by batch', async () => {
    const { fake, store } = storeOnFake();
    const events: string[] = [];
    const report = await run(store, false, events);
    expect(report).toEqual({ keys: { copied: 2, existing: 0 }, entities: { copied: 7, existing: 0, slugConflicts: [], rejected: [] } });
    expect(events).toEqual(['start keys 0/2', 'keys 2', 'done keys', 'start entities 0/7', 'entities 3', 'entities 6', 'entities 7', 'done entities']);
    const { _id, ...k1 } = key('k1');
    expect(fake.doc('gw-api-keys', 'k1')).toEqual(k1);
    expect(fake.ids('gw-countries')).toEqual(['e1', 'e2', 'e4', 'e5', 'e7']);
    expect(fake.ids('gw-regions')).toEqual(['e3', 'e6']);
    expect(fake.ids('gw_slugs')).toHaveLength(7);
    expect(fake.indices.get('gw-countries')?.autoCreated).toBe(false);
    expect(new CursorFile(dir).read()).toEqual(expect.objectContaining({ target: { url: 'http://es:9200', indexPrefix: 'gw' }, keys: 2, entities: 7, done: true }));
  });

  it('stops on a failure in the middle with the cursor after the last whole batch; --resume finishes the job', async () => {
    const { fake, store } = storeOnFake();
    let entityBulks = 0;
    const stop = fake.intercept((req) => {
      const isEntityWrite = req.path === '/_bulk' && req.querystring.refresh === 'wait_for' && String(req.body[0].create?._index).startsWith('gw-') && req.body[0].create._index !== 'gw-api-keys';
      if (isEntityWrite && ++entityBulks === 3) fake.unreachable = true; // from the second batch on (batch 1 = 2 bulks: countries, regions)
      return undefined;
    });
    await expect(run(store)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(new CursorFile(dir).read()).toEqual(expect.objectContaining({ keys: 2, entities: 3, done: false }));
    stop();
    fake.unreachable = false;
    fake.clearRequests();
    const events: string[] = [];
    const report = await run(store, true, events);
    expect(events[0]).toBe('start keys 2/2');
    expect(events).toContain('start entities 3/7');
    expect(report.keys).toEqual({ copied: 0, existing: 0 }); // nothing read again
    expect(report.entities.copied + report.entities.existing).toBe(4);
    expect(fake.ids('gw-countries').sort()).toEqual(['e1', 'e2', 'e4', 'e5', 'e7']);
    expect(fake.ids('gw-regions').sort()).toEqual(['e3', 'e6']);
    expect(new CursorFile(dir).read()?.done).toBe(true);
  });

  it('running again without --resume is safe: what is there is counted, not copied twice', async () => {
    const { store } = storeOnFake();
    await run(store);
    const again = await run(store);
    expect(again).toEqual({ keys: { copied: 0, existing: 2 }, entities: { copied: 0, existing: 7, slugConflicts: [], rejected: [] } });
  });

  it('reports slug conflicts and refused documents, and copies the rest', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('countries', 'intruder', entity('intruder', 'slug-1'));
    fake.intercept((req) => {
      if (req.path === '/_bulk' && req.querystring.refresh === 'wait_for' && req.body.some((l: any) => l.create?._id === 'e5')) {
        return { errors: true, items: req.body.filter((l: any) => l.create).map((l: any) => ({ create: { _index: l.create._index, _id: l.create._id, status: l.create._id === 'e5' ? 400 : 201, _seq_no: 0, _primary_term: 1, error: l.create._id === 'e5' ? { type: 'document_parsing_exception', reason: 'bad' } : undefined } })) };
      }
      return undefined;
    });
    const report = await run(store);
    expect(report.entities.slugConflicts).toEqual(['countries/e1 (slug "slug-1")']);
    expect(report.entities.rejected).toEqual([expect.stringMatching(/^countries\/e5: Elasticsearch refused entity "e5"/)]);
    expect(report.entities.copied).toBe(5);
    expect(fake.doc('gw_slugs', SlugReservations.docId('countries', 'slug-5'))).toBeUndefined();
  });

  it('refuses to resume a cursor made for another target', async () => {
    const { store } = storeOnFake();
    new CursorFile(dir).write({ target: { url: 'http://other:9200', indexPrefix: 'gw' }, keys: 0, entities: 0, done: false });
    await expect(run(store, true)).rejects.toThrow('is for http://other:9200');
  });

  it('passes on what it cannot handle', async () => {
    const { fake, store } = storeOnFake();
    fake.intercept((req) => (req.method === 'PUT' ? esError(403, 'security_exception', 'action [indices:admin/create] is unauthorized') : undefined));
    await expect(run(store)).rejects.toThrow('Elasticsearch is unavailable');
  });
});
