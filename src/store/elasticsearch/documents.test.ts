import { errors } from '@elastic/elasticsearch';
import { StoreUnavailableError } from '../port';
import { Backend } from './backend';
import { DocumentRejectedError } from './bulk';
import { existingIds, holdsExactly, readDocument, readDocuments, writeDocument } from './documents';
import { FakeElasticsearch } from './testing/fakeElasticsearch';

describe('single documents (ids in the body, never in the path)', () => {
  const fake = new FakeElasticsearch();
  const backend = new Backend(fake.client(), { retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 1 } });
  fake.put('gw-countries', 'fr', { id: 'fr', name: 'France', slug: 'france' });
  beforeEach(() => fake.clearRequests());

  it('reads a document with its version through _mget (realtime)', async () => {
    expect(await readDocument(backend, 'gw-countries', 'fr')).toEqual({ source: { id: 'fr', name: 'France', slug: 'france' }, seqNo: 0, primaryTerm: 1 });
    expect(fake.requests).toEqual([{ method: 'POST', path: '/gw-countries/_mget', querystring: {}, body: { ids: ['fr'] } }]);
  });

  it('reads only some fields when asked', async () => {
    expect(await readDocuments(backend, 'gw-countries', ['fr', 'xx'], ['slug'])).toEqual([{ source: { slug: 'france' }, seqNo: 0, primaryTerm: 1 }, null]);
    expect(fake.requests[0].querystring).toEqual({ _source_includes: 'slug' });
  });

  it('answers null for a missing document or index', async () => {
    expect(await readDocument(backend, 'gw-countries', 'xx')).toBeNull();
    expect(await readDocument(backend, 'gw-nothings', 'xx')).toBeNull();
  });

  it('handles the ids "." and ".." like any other (they never reach a URL path)', async () => {
    expect(await writeDocument(backend, 'index', 'entity', 'gw-countries', '..', { source: { id: '..' } })).toEqual({ outcome: 'done', version: expect.any(Object) });
    expect(await readDocument(backend, 'gw-countries', '..')).toEqual(expect.objectContaining({ source: { id: '..' } }));
    expect(await writeDocument(backend, 'delete', 'entity', 'gw-countries', '..', {})).toEqual(expect.objectContaining({ outcome: 'done' }));
    expect(await readDocument(backend, 'gw-countries', '.')).toBeNull();
    for (const r of fake.requests) expect(r.path).not.toMatch(/\/\.\.?$/);
    expect(fake.ids('gw-countries')).toEqual(['fr']);
  });

  it('tells which ids exist with one _mget without sources', async () => {
    expect(await existingIds(backend, 'gw-countries', ['fr', 'de'])).toEqual(new Set(['fr']));
    expect(fake.requests).toEqual([{ method: 'POST', path: '/gw-countries/_mget', querystring: { _source: 'false' }, body: { ids: ['fr', 'de'] } }]);
    expect(await existingIds(backend, 'gw-nothings', ['fr'])).toEqual(new Set());
  });

  it('recognises its own lost write', async () => {
    expect(await holdsExactly(backend, 'gw-countries', 'fr', { slug: 'france', name: 'France', id: 'fr' })).toBe(true);
    expect(await holdsExactly(backend, 'gw-countries', 'fr', { id: 'fr', name: 'Francia', slug: 'france' })).toBe(false);
  });

  it('writes conditionally through _bulk with refresh wait_for, reading conflicts and absences as outcomes', async () => {
    const current = (await readDocument(backend, 'gw-countries', 'fr'))!;
    fake.clearRequests();
    const written = await writeDocument(backend, 'index', 'entity', 'gw-countries', 'fr', { source: { id: 'fr', name: 'France', slug: 'france' }, ifVersion: current });
    expect(fake.requests).toEqual([
      {
        method: 'POST',
        path: '/_bulk',
        querystring: { refresh: 'wait_for' },
        body: [{ index: { _index: 'gw-countries', _id: 'fr', if_seq_no: current.seqNo, if_primary_term: 1 } }, { id: 'fr', name: 'France', slug: 'france' }],
      },
    ]);
    expect(written.outcome).toBe('done');
    expect(await writeDocument(backend, 'index', 'entity', 'gw-countries', 'fr', { source: {}, ifVersion: current })).toEqual({ outcome: 'conflict' });
    expect(await writeDocument(backend, 'delete', 'entity', 'gw-countries', 'nope', {})).toEqual({ outcome: 'not_found' });
  });

  it('maps refused and rejected writes', async () => {
    const stop = fake.intercept(() => ({ errors: true, items: [{ index: { _index: 'gw-countries', _id: 'fr', status: 400, error: { type: 'document_parsing_exception', reason: 'failed to parse field [x]' } } }] }));
    await expect(writeDocument(backend, 'index', 'entity', 'gw-countries', 'fr', { source: { x: {} } })).rejects.toEqual(new DocumentRejectedError('Elasticsearch refused entity "fr": document_parsing_exception: failed to parse field [x]', ['fr']));
    stop();
    const stop2 = fake.intercept(() => ({ errors: true, items: [{ delete: { _index: 'gw-countries', _id: 'fr', status: 429 } }] }));
    await expect(writeDocument(backend, 'delete', 'entity', 'gw-countries', 'fr', {})).rejects.toBeInstanceOf(StoreUnavailableError);
    stop2();
  });

  it('tells the caller when a connection error made it send twice', async () => {
    let fail = true;
    fake.intercept((_req, next) => {
      if (!fail) return undefined;
      fail = false;
      next();
      return new errors.ConnectionError('socket hang up');
    });
    const attempts: number[] = [];
    expect(await writeDocument(backend, 'delete', 'entity', 'gw-countries', 'fr', { onAttempt: (n) => attempts.push(n) })).toEqual({ outcome: 'not_found' });
    expect(attempts).toEqual([0, 1]);
  });
});
