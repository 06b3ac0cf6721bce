/**
 * Requests counted by transport, controller, action and status, with a latency histogram per
 * transport, controller and action: kept in plain numbers on the request path and turned into
 * prom-client's metric objects only when /metrics is scraped.
 *
 * Why not prom-client's Counter and Histogram on the request path: with labels, their inc and
 * observe took 1.4 and 1.8 µs here (the labels are validated and hashed into a string key every
 * time), about 3 µs a request; a lookup in nested maps and a bucket count take well under 0.1 µs.
 */
import type { CollectedMetric, CollectedValue } from './collectedMetric';

/** Latency buckets, in seconds: a cached search answers in a fraction of a millisecond, a search may run SEARCH_TIMEOUT (10 s). */
export const LATENCY_BUCKETS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const REQUESTS_METRIC = 'gateway_requests_total';
export const DURATION_METRIC = 'gateway_request_duration_seconds';

type Labels = { transport: string; controller: string; action: string };

/** One transport, controller and action. */
class Series {
  /** Observations per bucket (not cumulative); the last is above every bound. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;
  count = 0;
  /** Requests per status. */
  readonly statuses = new Map<number, number>();

  constructor(readonly labels: Labels) {}

  add(status: number, seconds: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    let b = 0;
    while (b < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[b]) b++;
    this.buckets[b]++;
    this.sum += seconds;
    this.count++;
  }
}

export class RequestStats {
  /** transport -> controller -> action -> series. */
  private readonly byTransport = new Map<string, Map<string, Map<string, Series>>>();

  /**
   * One request. `controller` and `action` must come from a bounded set (the gateway's
   * operations, GraphQL's root fields, or `unknown`): each combination is a series kept forever.
   */
  record(transport: string, controller: string, action: string, status: number, seconds: number): void {
    let controllers = this.byTransport.get(transport);
    if (controllers === undefined) this.byTransport.set(transport, (controllers = new Map()));
    let actions = controllers.get(controller);
    if (actions === undefined) controllers.set(controller, (actions = new Map()));
    let series = actions.get(action);
    if (series === undefined) actions.set(action, (series = new Series({ transport, controller, action })));
    series.add(status, seconds);
  }

  private *series(): Iterable<Series> {
    for (const controllers of this.byTransport.values()) for (const actions of controllers.values()) yield* actions.values();
  }

  /** gateway_requests_total, as prom-client's registries read a metric. */
  requests(): CollectedMetric {
    const values: CollectedValue[] = [];
    for (const s of this.series()) for (const [status, n] of s.statuses) values.push({ labels: { ...s.labels, status }, value: n });
    return { name: REQUESTS_METRIC, help: 'Requests answered, by transport (rest, websocket, graphql), controller, action and status.', type: 'counter', values, aggregator: 'sum' };
  }

  /** gateway_request_duration_seconds, as prom-client's registries read a histogram (every label in `labels`, so that workers' values aggregate). */
  durations(): CollectedMetric {
    const values: CollectedValue[] = [];
    for (const s of this.series()) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, b) => {
        cumulative += s.buckets[b];
        values.push({ metricName: `${DURATION_METRIC}_bucket`, labels: { ...s.labels, le }, value: cumulative });
      });
      values.push({ metricName: `${DURATION_METRIC}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
      values.push({ metricName: `${DURATION_METRIC}_sum`, labels: { ...s.labels }, value: s.sum });
      values.push({ metricName: `${DURATION_METRIC}_count`, labels: { ...s.labels }, value: s.count });
    }
    return { name: DURATION_METRIC, help: 'Time from a request\'s arrival to its answer, in seconds, by transport, controller and action.', type: 'histogram', values, aggregator: 'sum' };
  }
}
