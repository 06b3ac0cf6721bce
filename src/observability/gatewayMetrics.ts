/**
 * The gateway's Prometheus metrics (README "Observability"), in one prom-client registry per
 * gateway: requests and latencies (RequestStats, counted by the transports' observer), the store's
 * sizes and request cache, live connections and subscriptions, rate limit refusals, and prom-client's
 * default process metrics. Everything but the request counts is read when /metrics is scraped.
 *
 * Each metric says how the workers' values combine (WORKERS > 1, clusterMetrics.ts): counters and
 * connections add up; the store's sizes are the largest any worker sees (every worker holds the
 * same data); process metrics keep a series per worker (label `worker`).
 */
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import type { StoreStats } from '../store/port';
import { registerCollected, registerSampled } from './collectedMetric';
import { DURATION_METRIC, REQUESTS_METRIC, RequestStats } from './requestStats';

/** The kinds of rate limit refusals (core/rateLimit: RATE_LIMIT counts `requests`, RATE_LIMIT_AUTH_FAILURES `auth-failures`). */
export const RATE_LIMIT_KINDS = ['requests', 'auth-failures'] as const;

export interface MetricsSources {
  /** The store's sizes and request cache; undefined when the store cannot tell cheaply. */
  store(): StoreStats | undefined;
  /** Open WebSocket connections per transport (`websocket`: the raw protocol; `graphql`: graphql-ws). */
  connections(): Iterable<[string, number]>;
  /** Live subscriptions per transport (raw WebSocket realtime rooms, GraphQL subscriptions). */
  subscriptions(): Iterable<[string, number]>;
  /** This process's worker number (WORKERS > 1): a label of the process metrics. */
  worker?: string;
}

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly requests = new RequestStats();
  private readonly rateLimited: Counter<'kind'>;

  constructor(sources: MetricsSources) {
    const registry = this.registry;
    collectDefaultMetrics({ register: registry, ...(sources.worker === undefined ? {} : { labels: { worker: sources.worker } }) });
    registerCollected(registry, REQUESTS_METRIC, () => this.requests.requests());
    registerCollected(registry, DURATION_METRIC, () => this.requests.durations());

    // (each metric looks at the store: a few map reads)
    const store = (): StoreStats | undefined => sources.store();
    registerSampled(registry, { name: 'gateway_entities', help: 'Entities per collection (entity type, as its plural), in the store (the largest count any worker sees).', type: 'gauge', aggregator: 'max' }, function* () {
      for (const [collection, n] of store()?.entities ?? []) yield [{ collection }, n];
    });
    registerSampled(registry, { name: 'gateway_api_keys', help: 'API keys in the store, expired ones included until deleted (the largest count any worker sees).', type: 'gauge', aggregator: 'max' }, function* () {
      const stats = store();
      if (stats !== undefined) yield [{}, stats.apiKeys];
    });
    const cache = () => store()?.searchCache;
    registerSampled(registry, { name: 'gateway_search_cache_hits_total', help: 'Searches and counts answered from the embedded store\'s request cache.', type: 'counter', aggregator: 'sum' }, function* () {
      const c = cache();
      if (c !== undefined) yield* [[{ kind: 'search' }, c.searchHits], [{ kind: 'count' }, c.countHits]] as [Record<string, string>, number][];
    });
    registerSampled(registry, { name: 'gateway_search_cache_misses_total', help: 'Cacheable searches and counts the request cache could not answer (they ran).', type: 'counter', aggregator: 'sum' }, function* () {
      const c = cache();
      if (c !== undefined) yield* [[{ kind: 'search' }, c.searchMisses], [{ kind: 'count' }, c.countMisses]] as [Record<string, string>, number][];
    });
    registerSampled(registry, { name: 'gateway_search_cache_entries', help: 'Searches and counts held by the request caches (of every worker).', type: 'gauge', aggregator: 'sum' }, function* () {
      const c = cache();
      if (c !== undefined) yield [{}, c.entries];
    });
    registerSampled(registry, { name: 'gateway_connections', help: 'Open WebSocket connections, by transport (websocket: the raw protocol; graphql: graphql-ws).', type: 'gauge', aggregator: 'sum' }, function* () {
      for (const [transport, n] of sources.connections()) yield [{ transport }, n];
    });
    registerSampled(registry, { name: 'gateway_subscriptions', help: 'Live subscriptions, by transport (websocket: realtime rooms; graphql: subscriptions).', type: 'gauge', aggregator: 'sum' }, function* () {
      for (const [transport, n] of sources.subscriptions()) yield [{ transport }, n];
    });
    this.rateLimited = new Counter({
      name: 'gateway_rate_limited_total',
      help: 'Requests refused with 429 by a rate limit, by kind (requests: RATE_LIMIT; auth-failures: RATE_LIMIT_AUTH_FAILURES).',
      labelNames: ['kind'],
      registers: [registry],
      aggregator: 'sum',
    });
    for (const kind of RATE_LIMIT_KINDS) this.rateLimited.inc({ kind }, 0);
  }

  /** A request refused by a rate limit of this kind (see RATE_LIMIT_KINDS). */
  rateLimitedBy(kind: string): void {
    this.rateLimited.inc({ kind: (RATE_LIMIT_KINDS as readonly string[]).includes(kind) ? kind : 'other' });
  }

  /** This process's metrics, in Prometheus's text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
