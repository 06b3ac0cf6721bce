import { errors } from '@elastic/elasticsearch';
import type { ApiKeyRecord } from '../port';
import { StoreUnavailableError } from '../port';
import { keyDocument } from './apiKeys';
import { apiKeyIndexDefinition } from './mappings';
import { storeOnFake } from './testing/storeOnFake';

const key = (id: string, userId = 'alice'): ApiKeyRecord => ({
  _id: id,
  userId,
  tenantId: 'acme',
  roles: ['writer'],
  description: `key ${id}`,
  expiresAt: 1_700_003_600_000,
  ttl: 3_600_000,
  fingerprint: 'a'.repeat(64),
  _service_info: { author: userId, createdAt: 1_700_000_000_000, updatedAt: null, updater: null },
});
const shape = (r: { method: string; path: string; querystring: Record<string, string> }) => [r.method, r.path, r.querystring];

describe('API keys on Elasticsearch: what is sent', () => {
  it('createKey: the index on first write, then a create (op_type create) with refresh wait_for; the record without _id, no token', async () => {
    const { fake, store } = storeOnFake();
    expect(await store.apiKeys.createKey(key('k1'))).toBe('ok');
    expect(fake.requests.map(shape)).toEqual([
      ['HEAD', '/gw-api-keys', {}],
      ['PUT', '/gw-api-keys', {}],
      ['POST', '/_bulk', { refresh: 'wait_for' }],
    ]);
    expect(fake.requests[1].body).toEqual(apiKeyIndexDefinition());
    const { _id, ...document } = key('k1');
    expect(fake.requests[2].body).toEqual([{ create: { _index: 'gw-api-keys', _id: 'k1' } }, document]);
    expect(keyDocument(key('k1'))).toEqual(document);
    expect(JSON.stringify(fake.requests)).not.toContain('token');
  });

  it('getKey: a realtime _mget, the record with its _id back', async () => {
    const { fake, store } = storeOnFake();
    await store.apiKeys.createKey(key('k1'));
    fake.clearRequests();
    expect(await store.apiKeys.getKey('k1')).toEqual(key('k1'));
    expect(fake.requests).toEqual([{ method: 'POST', path: '/gw-api-keys/_mget', querystring: {}, body: { ids: ['k1'] } }]);
  });

  it("searchKeys: the caller's filter as bool.filter, track_total_hits", async () => {
    const { fake, store } = storeOnFake();
    await store.apiKeys.createKey(key('k1'));
    await store.apiKeys.createKey(key('k2', 'bob'));
    fake.clearRequests();
    const result = await store.apiKeys.searchKeys({ from: 0, size: 10, query: { match: { description: 'key' } } }, { term: { userId: 'alice' } });
    expect(result.total).toBe(1);
    expect(result.hits.map((h) => h._id)).toEqual(['k1']);
    expect(fake.requests).toEqual([
      {
        method: 'POST',
        path: '/gw-api-keys/_search',
        querystring: { ignore_unavailable: 'true', allow_no_indices: 'true' },
        body: { from: 0, size: 10, track_total_hits: true, query: { bool: { must: [{ match: { description: 'key' } }], filter: [{ term: { userId: 'alice' } }] } } },
      },
    ]);
  });

  it('deleteKey: a bulk delete with refresh wait_for', async () => {
    const { fake, store } = storeOnFake();
    await store.apiKeys.createKey(key('k1'));
    fake.clearRequests();
    expect(await store.apiKeys.deleteKey('k1')).toBe(true);
    expect(fake.requests).toEqual([{ method: 'POST', path: '/_bulk', querystring: { refresh: 'wait_for' }, body: [{ delete: { _index: 'gw-api-keys', _id: 'k1' } }] }]);
    expect(await store.apiKeys.getKey('k1')).toBeNull();
  });

  it('an id of "." or ".." never becomes a URL path (which would address the index itself)', async () => {
    const { fake, store } = storeOnFake();
    expect(await store.apiKeys.createKey(key('..'))).toBe('ok');
    expect(await store.apiKeys.getKey('..')).toEqual(key('..'));
    expect(await store.apiKeys.deleteKey('..')).toBe(true);
    expect(await store.apiKeys.deleteKey('.')).toBe(false);
    expect(fake.indices.has('gw-api-keys')).toBe(true);
    for (const r of fake.requests) expect(r.path).not.toMatch(/\/\.\.?$/);
  });
});

describe('API keys on Elasticsearch: outcomes', () => {
  it('id_taken for a taken id (409), including within one batch', async () => {
    const { store } = storeOnFake();
    expect(await store.apiKeys.createKey(key('k1'))).toBe('ok');
    expect(await store.apiKeys.createKey(key('k1'))).toBe('id_taken');
    expect(await store.apiKeys.createKeys([key('k2'), key('k2'), key('k1')])).toEqual(['ok', 'id_taken', 'id_taken']);
  });

  it('null / false for a key that does not exist, even before the index does', async () => {
    const { store } = storeOnFake();
    expect(await store.apiKeys.getKey('nope')).toBeNull();
    expect(await store.apiKeys.deleteKey('nope')).toBe(false);
    expect(await store.apiKeys.searchKeys({ from: 0, size: 10 }, null)).toEqual({ hits: [], total: 0 });
  });

  it('a create whose answer was lost is still ok after the retry', async () => {
    const { fake, store } = storeOnFake();
    let lose = true;
    fake.intercept((req, next) => {
      if (lose && req.path === '/_bulk') {
        lose = false;
        next();
        return new errors.ConnectionError('socket hang up');
      }
      return undefined;
    });
    expect(await store.apiKeys.createKey(key('k1'))).toBe('ok');
  });

  it('an unreachable cluster is StoreUnavailableError', async () => {
    const { fake, store } = storeOnFake();
    fake.unreachable = true;
    for (const op of [store.apiKeys.createKey(key('k')), store.apiKeys.getKey('k'), store.apiKeys.deleteKey('k'), store.apiKeys.searchKeys({ from: 0, size: 1 }, null)]) {
      await expect(op).rejects.toBeInstanceOf(StoreUnavailableError);
    }
  });
});
