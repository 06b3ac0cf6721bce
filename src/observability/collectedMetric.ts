/**
 * Metrics whose values are worked out when /metrics is scraped: registered in a prom-client
 * registry as the objects its registries read (`get()` answering name, help, type, values and the
 * aggregator that combines the workers' values), as prom-client's own AggregatorRegistry registers
 * the metrics it aggregates. Nothing is paid on the request path.
 */
import type { Aggregator, Metric, Registry } from 'prom-client';

export interface CollectedValue {
  labels: Record<string, string | number>;
  value: number;
  /** A histogram's `_bucket`, `_sum` and `_count` lines. */
  metricName?: string;
}

export interface CollectedMetric {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  /** How the workers' values of one series are combined (sum, max...). */
  aggregator: Aggregator;
  values: CollectedValue[];
}

/** Registers a metric that `collect` works out at each scrape. */
export function registerCollected(registry: Registry, name: string, collect: () => CollectedMetric): void {
  const metric = {
    name,
    get: async () => collect(),
    reset: () => undefined,
  };
  registry.registerMetric(metric as unknown as Metric);
}

/** A counter or gauge whose series are sampled at each scrape: `sample` answers [labels, value] pairs. */
export function registerSampled(
  registry: Registry,
  spec: { name: string; help: string; type: 'counter' | 'gauge'; aggregator: Aggregator },
  sample: () => Iterable<[Record<string, string | number>, number]>,
): void {
  registerCollected(registry, spec.name, () => {
    const values: CollectedValue[] = [];
    for (const [labels, value] of sample()) values.push({ labels, value });
    return { ...spec, values };
  });
}
