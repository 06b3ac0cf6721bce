/**
 * The transports' RequestObserver (transport/observe.ts) as the composition root wires it: each
 * request answered is counted in the metrics (a known operation under its name, anything else as
 * `unknown`, so that clients cannot make new series) and, unless LOG_REQUESTS=false, logged.
 */
import { now, type RequestObserver } from '../transport/observe';
import type { AccessLog } from './accessLog';
import type { GatewayMetrics } from './gatewayMetrics';

export function createRequestObserver(metrics: GatewayMetrics, log: AccessLog | null): RequestObserver {
  const stats = metrics.requests;
  return {
    request(r) {
      const ms = now() - r.startedAt;
      const known = r.known && r.controller !== undefined && r.action !== undefined;
      stats.record(r.transport, known ? r.controller! : 'unknown', known ? r.action! : 'unknown', r.status, ms / 1000);
      if (r.limitedBy !== undefined) metrics.rateLimitedBy(r.limitedBy);
      if (log !== null) log(r, ms);
    },
  };
}
