import { loadConfig } from '../../config';
import { createStore } from '../../server';
import { EmbeddedStore } from '../embedded/embeddedStore';
import { ElasticsearchStore } from './elasticsearchStore';
import { FakeElasticsearch } from './testing/fakeElasticsearch';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('ElasticsearchStore', () => {
  it('is ready when the cluster answers, and says so when it does not', async () => {
    const fake = new FakeElasticsearch();
    const store = new ElasticsearchStore({ client: fake.client(), indexPrefix: 'gw' });
    expect(store.name).toBe('elasticsearch');
    expect(await store.ready()).toBe(true);
    expect(fake.requests.map((r) => [r.method, r.path])).toEqual([['HEAD', '/']]);
    fake.unreachable = true;
    expect(await store.ready()).toBe(false);
    await store.close();
  });

  it('is built from the settings, with the configured retries', async () => {
    const fake = new FakeElasticsearch();
    fake.unreachable = true;
    const store = ElasticsearchStore.fromSettings(
      { url: 'http://localhost:9200', indexPrefix: 'custom', requestTimeoutMs: 1000, maxRetries: 1 },
      { Connection: fake.connectionClass() },
    );
    expect(store.names.apiKeys).toBe('custom-api-keys');
    await expect(store.apiKeys.getKey('k')).rejects.toThrow('Elasticsearch is unavailable');
    expect(fake.requests).toHaveLength(2); // one retry
    await store.close();
  });
});

describe('createStore(config)', () => {
  it('chooses Elasticsearch when ELASTICSEARCH_URL is set, the embedded store otherwise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-store-'));
    try {
      const es = createStore(loadConfig({ DATA_DIR: dir, ELASTICSEARCH_URL: 'http://127.0.0.1:1', ES_INDEX_PREFIX: 'abc' }));
      expect(es).toBeInstanceOf(ElasticsearchStore);
      expect((es as ElasticsearchStore).names.entities('countries')).toBe('abc-countries');
      await es.close();
      const embedded = createStore(loadConfig({ DATA_DIR: dir }));
      expect(embedded).toBeInstanceOf(EmbeddedStore);
      await embedded.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads and checks the Elasticsearch settings', () => {
    const defaults = loadConfig({}).elasticsearch;
    expect(defaults).toEqual({ url: undefined, apiKey: undefined, indexPrefix: 'gateway', requestTimeoutMs: 30_000, maxRetries: 3 });
    const set = loadConfig({ ELASTICSEARCH_URL: ' https://u:p@es:9200 ', ELASTICSEARCH_API_KEY: 'k==', ES_INDEX_PREFIX: 'gw-2', ES_REQUEST_TIMEOUT_MS: '5000', ES_MAX_RETRIES: '0' }).elasticsearch;
    expect(set).toEqual({ url: 'https://u:p@es:9200', apiKey: 'k==', indexPrefix: 'gw-2', requestTimeoutMs: 5000, maxRetries: 0 });
    expect(loadConfig({ ELASTICSEARCH_URL: '' }).elasticsearch.url).toBeUndefined();
    for (const [name, value] of [
      ['ELASTICSEARCH_URL', 'es:9200'],
      ['ES_INDEX_PREFIX', 'Gateway'],
      ['ES_INDEX_PREFIX', '_gw'],
      ['ES_REQUEST_TIMEOUT_MS', 'soon'],
      ['ES_MAX_RETRIES', '-1'],
    ]) {
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    }
  });
});
