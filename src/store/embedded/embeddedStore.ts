/**
 * The default store: SQLite for durability, the in-process search engine for queries. Reads are
 * served from memory; each write is committed to SQLite first, then applied to the index.
 */
import type { ApiKeyRecord, ApiKeyStore, CountResult, Doc, EntityStore, QueryDsl, SearchRequest, SearchResult, Store, WriteOutcome } from '../port';
import { SearchIndex, compileMatcher, type Mapping, type SearchIndexOptions } from './engine';
import { EmbeddedDatabase } from './database';
import { SearchCache } from './searchCache';

export const ENTITY_MAPPING: Mapping = { keyword: ['id', 'entityType', 'slug', 'allowTenantIds'], date: ['modified'] };
export const API_KEY_MAPPING: Mapping = { keyword: ['userId', 'tenantId', 'roles', 'fingerprint'] };

export const DEFAULT_CACHE_ENTRIES = 1000;

const keySource = ({ _id, ...rest }: ApiKeyRecord): Doc => rest as unknown as Doc;

class EmbeddedEntities implements EntityStore {
  private readonly indices = new Map<string, SearchIndex>();

  constructor(
    private readonly db: EmbeddedDatabase,
    private readonly cache: SearchCache,
    private readonly options: SearchIndexOptions,
  ) {
    for (const row of db.entities()) this.index(row.collection).put(row.id, row.source);
  }

  private index(collection: string): SearchIndex {
    let index = this.indices.get(collection);
    if (index === undefined) {
      index = new SearchIndex(ENTITY_MAPPING, this.options);
      this.indices.set(collection, index);
    }
    return index;
  }

  /**
   * At once when the search ends within its first slice (the index is in memory), else a promise
   * (it runs in slices: engine/budget); a failure (a query the engine refuses) is a rejected promise.
   */
  search(collection: string, request: SearchRequest, filter: QueryDsl | null): SearchResult | Promise<SearchResult> {
    try {
      return this.cache.search(collection, request, filter, () => this.index(collection).searchSliced(request, filter));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  async count(collection: string, query: QueryDsl | undefined, filter: QueryDsl | null): Promise<CountResult> {
    return this.cache.count(collection, query, filter, () => this.index(collection).countSliced(query, filter));
  }

  async get(collection: string, id: string): Promise<Doc | null> {
    return this.indices.get(collection)?.get(id) ?? null;
  }

  async create(collection: string, id: string, source: Doc): Promise<WriteOutcome> {
    return (await this.createMany(collection, [{ id, source }]))[0];
  }

  async createMany(collection: string, items: { id: string; source: Doc }[]): Promise<WriteOutcome[]> {
    const index = this.index(collection);
    index.checkFields(items.map((item) => item.source));
    const outcomes = this.db.insertEntities(collection, items);
    if (outcomes.includes('ok')) this.cache.invalidate(collection);
    outcomes.forEach((outcome, i) => {
      if (outcome === 'ok') index.put(items[i].id, items[i].source);
    });
    return outcomes;
  }

  async replace(collection: string, id: string, source: Doc): Promise<WriteOutcome> {
    const index = this.index(collection);
    index.checkFields([source]);
    const outcome = this.db.replaceEntity(collection, id, source);
    if (outcome === 'ok') {
      this.cache.invalidate(collection);
      index.put(id, source);
    }
    return outcome;
  }

  matcher(collection: string, query: QueryDsl): (id: string, source: Doc) => boolean {
    const index = this.index(collection);
    const matches = compileMatcher(query, () => index.mappingCopy(), index.queryLimits);
    return (id, source) => matches(source, id);
  }

  async delete(collection: string, id: string): Promise<boolean> {
    const deleted = this.db.deleteEntity(collection, id);
    if (deleted) {
      this.cache.invalidate(collection);
      this.indices.get(collection)?.remove(id);
    }
    return deleted;
  }
}

class EmbeddedApiKeys implements ApiKeyStore {
  private readonly index: SearchIndex;
  private readonly records = new Map<string, ApiKeyRecord>();

  constructor(
    private readonly db: EmbeddedDatabase,
    options: SearchIndexOptions,
  ) {
    this.index = new SearchIndex(API_KEY_MAPPING, options);
    for (const record of db.keys()) this.remember(record);
  }

  private remember(record: ApiKeyRecord): void {
    this.records.set(record._id, record);
    this.index.put(record._id, keySource(record));
  }

  async createKey(record: ApiKeyRecord): Promise<WriteOutcome> {
    const outcome = this.db.insertKey(record);
    if (outcome === 'ok') this.remember(record);
    return outcome;
  }

  async getKey(id: string): Promise<ApiKeyRecord | null> {
    return this.records.get(id) ?? null;
  }

  async searchKeys(request: SearchRequest, filter: QueryDsl | null): Promise<SearchResult> {
    return this.index.searchSliced(request, filter);
  }

  async deleteKey(id: string): Promise<boolean> {
    const deleted = this.db.deleteKey(id);
    if (deleted) {
      this.records.delete(id);
      this.index.remove(id);
    }
    return deleted;
  }
}

export class EmbeddedStore implements Store {
  readonly name = 'embedded';
  readonly entities: EntityStore;
  readonly apiKeys: ApiKeyStore;
  private readonly db: EmbeddedDatabase;

  /**
   * @param cacheEntries searches and counts kept by the request cache (searchCache.ts); 0 turns it off
   * @param options query limits, default time budget and slice of every index (engine/searchIndex.ts)
   */
  constructor(dataDir: string, cacheEntries = DEFAULT_CACHE_ENTRIES, options: SearchIndexOptions = {}) {
    this.db = new EmbeddedDatabase(dataDir);
    this.entities = new EmbeddedEntities(this.db, new SearchCache(cacheEntries), options);
    this.apiKeys = new EmbeddedApiKeys(this.db, options);
  }

  async ready(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
