/**
 * The Elasticsearch store (DESIGN.md "Elasticsearch store"): the storage port on an Elasticsearch 8
 * cluster that several gateway instances share. Chosen by createStore (src/server.ts) when
 * ELASTICSEARCH_URL is set.
 */
import type { Client, ClientOptions } from '@elastic/elasticsearch';
import type { Store } from '../port';
import { ElasticsearchApiKeys } from './apiKeys';
import { Backend } from './backend';
import { createClient } from './client';
import { ElasticsearchEntities } from './entities';
import { IndexManager } from './indexManager';
import { indexNames, type IndexNames } from './indexNames';
import { DEFAULT_RETRY, type RetryPolicy, type Sleep } from './retry';

/** The settings of src/config.ts `elasticsearch`, with the URL set. */
export interface ElasticsearchSettings {
  url: string;
  apiKey?: string;
  indexPrefix: string;
  requestTimeoutMs: number;
  maxRetries: number;
}

export interface ElasticsearchStoreOptions {
  client: Client;
  indexPrefix: string;
  retry?: RetryPolicy;
  sleep?: Sleep;
  /** Clock of the slug reservations (tests). */
  now?: () => number;
  /** Age after which an unused slug reservation may be taken over (tests); default 2 minutes. */
  slugGraceMs?: number;
}

/** A readiness probe must answer quickly, even when the cluster does not. */
const READY_TIMEOUT_MS = 2000;

export class ElasticsearchStore implements Store {
  readonly name = 'elasticsearch';
  readonly entities: ElasticsearchEntities;
  readonly apiKeys: ElasticsearchApiKeys;
  readonly names: IndexNames;
  readonly client: Client;

  constructor(options: ElasticsearchStoreOptions) {
    this.client = options.client;
    this.names = indexNames(options.indexPrefix);
    const backend = new Backend(options.client, { retry: options.retry, sleep: options.sleep });
    const indices = new IndexManager(backend);
    this.entities = new ElasticsearchEntities(backend, this.names, indices, { now: options.now, graceMs: options.slugGraceMs });
    this.apiKeys = new ElasticsearchApiKeys(backend, this.names, indices);
  }

  /** From the settings; `clientOptions` adds to the client's (tests pass a mock Connection). */
  static fromSettings(settings: ElasticsearchSettings, clientOptions: Partial<ClientOptions> = {}): ElasticsearchStore {
    return new ElasticsearchStore({
      client: createClient(settings, clientOptions),
      indexPrefix: settings.indexPrefix,
      retry: { ...DEFAULT_RETRY, retries: settings.maxRetries },
    });
  }

  /** true when the cluster answers (GET /readyz answers 503 otherwise). */
  async ready(): Promise<boolean> {
    try {
      return await this.client.ping({}, { requestTimeout: READY_TIMEOUT_MS });
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
