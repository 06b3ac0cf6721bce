/**
 * The official client (@elastic/elasticsearch 8.x, which speaks to Elasticsearch 8) built from the
 * settings. Its own retries are off (maxRetries 0): retry.ts retries connection errors only, with
 * backoff. Credentials: in the URL (`https://user:password@host:9200`) or ELASTICSEARCH_API_KEY; a
 * private CA is trusted through Node's NODE_EXTRA_CA_CERTS (docs/elasticsearch.md).
 */
import { Client, type ClientOptions } from '@elastic/elasticsearch';

export interface ClientSettings {
  url: string;
  apiKey?: string;
  requestTimeoutMs: number;
}

export function clientOptions(settings: ClientSettings): ClientOptions {
  const options: ClientOptions = {
    node: settings.url,
    maxRetries: 0,
    requestTimeout: settings.requestTimeoutMs,
    sniffOnStart: false,
    name: 'entity-gateway',
  };
  if (settings.apiKey !== undefined) options.auth = { apiKey: settings.apiKey };
  return options;
}

export function createClient(settings: ClientSettings, extra: Partial<ClientOptions> = {}): Client {
  return new Client({ ...clientOptions(settings), ...extra });
}
