/** TEST SUPPORT: an ElasticsearchStore (prefix "gw") on a FakeElasticsearch, with instant retries. */
import { ElasticsearchStore, type ElasticsearchStoreOptions } from '../elasticsearchStore';
import { FakeElasticsearch } from './fakeElasticsearch';

export function storeOnFake(options: Partial<ElasticsearchStoreOptions> = {}, fake = new FakeElasticsearch()): { fake: FakeElasticsearch; store: ElasticsearchStore } {
  const store = new ElasticsearchStore({
    client: fake.client(),
    indexPrefix: 'gw',
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 },
    ...options,
  });
  return { fake, store };
}

/** An entity source as the core writes it (the fields the store looks at, and a name). */
export const entity = (id: string, slug: string, extra: Record<string, unknown> = {}) => ({
  id,
  entityType: 'country',
  slug,
  allowTenantIds: ['acme'],
  name: `Name of ${id}`,
  ...extra,
});
