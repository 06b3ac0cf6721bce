import { AggregatorRegistry } from 'prom-client';
import type { RequestRecord } from '../transport/observe';
import { GatewayMetrics, type MetricsSources } from './gatewayMetrics';
import { createRequestObserver } from './requestObserver';
import { aRecord } from './testing/record';

const sources = (entities: number): MetricsSources => ({
  store: () => ({ entities: new Map([['countries', entities]]), apiKeys: 2, searchCache: { searchHits: 5, searchMisses: 1, countHits: 0, countMisses: 2, entries: 3 } }),
  connections: () => [['websocket', 2], ['graphql', 1]],
  subscriptions: () => [['websocket', 1], ['graphql', 0]],
});

const record = (fields: Partial<RequestRecord>): RequestRecord => aRecord({ client: null, ...fields });

describe('GatewayMetrics', () => {
  it('reads the store, the connections and the subscriptions at each scrape, and counts what the observer is told', async () => {
    const metrics = new GatewayMetrics(sources(7));
    const observer = createRequestObserver(metrics, null);
    observer.request(record({}));
    observer.request(record({ known: false, controller: 'made-up', action: 'by-a-client', status: 404 }));
    observer.request(record({ status: 429, error: 'api.process.too_many_requests', limitedBy: 'auth-failures' }));
    const text = await metrics.text();
    for (const line of [
      'gateway_requests_total{transport="rest",controller="document",action="search",status="200"} 1',
      'gateway_requests_total{transport="rest",controller="unknown",action="unknown",status="404"} 1',
      'gateway_request_duration_seconds_count{transport="rest",controller="document",action="search"} 2',
      'gateway_entities{collection="countries"} 7',
      'gateway_api_keys 2',
      'gateway_search_cache_hits_total{kind="search"} 5',
      'gateway_search_cache_misses_total{kind="count"} 2',
      'gateway_search_cache_entries 3',
      'gateway_connections{transport="websocket"} 2',
      'gateway_subscriptions{transport="websocket"} 1',
      'gateway_rate_limited_total{kind="requests"} 0',
      'gateway_rate_limited_total{kind="auth-failures"} 1',
      '# TYPE gateway_request_duration_seconds histogram',
      '# TYPE gateway_requests_total counter',
    ]) expect(text).toContain(line);
    expect(text).not.toContain('made-up');
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it("combines workers' metrics: counters and connections add up, store sizes take the largest, process metrics stay per worker", async () => {
    const workers = [new GatewayMetrics({ ...sources(7), worker: '1' }), new GatewayMetrics({ ...sources(8), worker: '2' })];
    for (const w of workers) createRequestObserver(w, null).request(record({}));
    const combined = await AggregatorRegistry.aggregate(await Promise.all(workers.map((w) => w.registry.getMetricsAsJSON()))).metrics();
    expect(combined).toContain('gateway_requests_total{transport="rest",controller="document",action="search",status="200"} 2');
    expect(combined).toContain('gateway_request_duration_seconds_bucket{transport="rest",controller="document",action="search",le="+Inf"} 2');
    expect(combined).toContain('gateway_entities{collection="countries"} 8');
    expect(combined).toContain('gateway_connections{transport="websocket"} 4');
    expect(combined).toMatch(/process_resident_memory_bytes\{worker="1"\}/);
    expect(combined).toMatch(/process_resident_memory_bytes\{worker="2"\}/);
  });

  it('has no store metrics for a store that cannot tell', async () => {
    const text = await new GatewayMetrics({ ...sources(0), store: () => undefined }).text();
    expect(text).not.toMatch(/^gateway_entities/m);
    expect(text).not.toMatch(/^gateway_api_keys/m);
  });
});
