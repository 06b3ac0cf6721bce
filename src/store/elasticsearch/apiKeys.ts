/**
 * API keys on Elasticsearch, in `<prefix>-api-keys`: the record without its `_id` as the document
 * (userId, tenantId, roles, description, expiresAt, ttl, fingerprint, _service_info), never a
 * token (none reaches the store). Reads are realtime (_mget), so a deleted key is gone for every
 * instance at once; each instance's core caches lookups for at most API_KEY_CACHE_MS.
 */
import type { ApiKeyRecord, ApiKeyStore, Doc, QueryDsl, SearchRequest, SearchResult, WriteOutcome } from '../port';
import type { Backend } from './backend';
import { bulkItemFailure, bulkItems, isSuccess } from './bulk';
import { holdsExactly, readDocument, writeDocument } from './documents';
import type { IndexManager } from './indexManager';
import type { IndexNames } from './indexNames';
import { apiKeyIndexDefinition } from './mappings';
import { runSearch } from './search';

export const keyDocument = ({ _id, ...rest }: ApiKeyRecord): Doc => rest as unknown as Doc;

export class ElasticsearchApiKeys implements ApiKeyStore {
  constructor(
    private readonly backend: Backend,
    private readonly names: IndexNames,
    private readonly indices: IndexManager,
  ) {}

  private async ensure(): Promise<string> {
    await this.indices.ensure(this.names.apiKeys, apiKeyIndexDefinition);
    return this.names.apiKeys;
  }

  async createKey(record: ApiKeyRecord): Promise<WriteOutcome> {
    return (await this.createKeys([record]))[0];
  }

  /** Many keys in one bulk request ('ok' | 'id_taken' each, in order); the migration uses it. */
  async createKeys(records: ApiKeyRecord[]): Promise<WriteOutcome[]> {
    if (records.length === 0) return [];
    const index = await this.ensure();
    const operations = records.flatMap((r) => [{ create: { _index: index, _id: r._id } }, keyDocument(r)]);
    let retried = false;
    const response = await this.backend.call('write', (client, attempt) => {
      retried = attempt > 0;
      return client.bulk({ operations, refresh: 'wait_for' });
    });
    const items = bulkItems(response, 'create');
    const outcomes: WriteOutcome[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const first = !seen.has(records[i]._id);
      seen.add(records[i]._id);
      if (isSuccess(item)) outcomes.push('ok');
      else if (item.status === 409) {
        const lost = retried && first && (await holdsExactly(this.backend, index, records[i]._id, keyDocument(records[i])));
        outcomes.push(lost ? 'ok' : 'id_taken');
      } else throw bulkItemFailure('API key', item);
    }
    return outcomes;
  }

  async getKey(id: string): Promise<ApiKeyRecord | null> {
    const doc = await readDocument(this.backend, this.names.apiKeys, id);
    return doc === null ? null : ({ _id: id, ...doc.source } as unknown as ApiKeyRecord);
  }

  searchKeys(request: SearchRequest, filter: QueryDsl | null): Promise<SearchResult> {
    return runSearch(this.backend, this.names.apiKeys, request, filter);
  }

  async deleteKey(id: string): Promise<boolean> {
    let retried = false;
    const deleted = await writeDocument(this.backend, 'delete', 'API key', this.names.apiKeys, id, { onAttempt: (n) => (retried = n > 0) });
    // not found after a retried request: the lost attempt deleted it
    return deleted.outcome === 'done' || (deleted.outcome === 'not_found' && retried);
  }
}
