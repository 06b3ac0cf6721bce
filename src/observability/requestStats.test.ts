import { LATENCY_BUCKETS, RequestStats } from './requestStats';

describe('RequestStats', () => {
  it('counts requests per status and puts each latency in its bucket, cumulative as Prometheus reads them', () => {
    const stats = new RequestStats();
    stats.record('rest', 'document', 'search', 200, 0.0002);
    stats.record('rest', 'document', 'search', 200, 0.003);
    stats.record('rest', 'document', 'search', 401, 20);
    stats.record('websocket', 'document', 'search', 200, 0.0005);
    const requests = stats.requests();
    expect(requests).toMatchObject({ name: 'gateway_requests_total', type: 'counter', aggregator: 'sum' });
    expect(requests.values).toEqual([
      { labels: { transport: 'rest', controller: 'document', action: 'search', status: 200 }, value: 2 },
      { labels: { transport: 'rest', controller: 'document', action: 'search', status: 401 }, value: 1 },
      { labels: { transport: 'websocket', controller: 'document', action: 'search', status: 200 }, value: 1 },
    ]);
    const durations = stats.durations();
    expect(durations).toMatchObject({ name: 'gateway_request_duration_seconds', type: 'histogram', aggregator: 'sum' });
    const rest = durations.values.filter((v) => v.labels.transport === 'rest');
    const bucket = (le: number | string) => rest.find((v) => v.metricName === 'gateway_request_duration_seconds_bucket' && v.labels.le === le)?.value;
    expect(bucket(0.0005)).toBe(1);
    expect(bucket(0.005)).toBe(2);
    expect(bucket(10)).toBe(2);
    expect(bucket('+Inf')).toBe(3);
    expect(rest.find((v) => v.metricName === 'gateway_request_duration_seconds_count')?.value).toBe(3);
    expect(rest.find((v) => v.metricName === 'gateway_request_duration_seconds_sum')?.value).toBeCloseTo(20.0032);
    // a value on a bound is in that bucket (le: less than or equal)
    const ws = durations.values.find((v) => v.labels.transport === 'websocket' && v.labels.le === 0.0005);
    expect(ws?.value).toBe(1);
    expect(LATENCY_BUCKETS[0]).toBeLessThan(0.001);
    expect(LATENCY_BUCKETS.at(-1)).toBe(10);
  });

  it('has no series before any request', () => {
    const stats = new RequestStats();
    expect(stats.requests().values).toEqual([]);
    expect(stats.durations().values).toEqual([]);
  });
});
