/**
 * GET /metrics (README "Observability"): the gateway's metrics in Prometheus's text format.
 * METRICS: `public` answers anyone (scrapers usually reach an unauthenticated path, the port kept
 * off the internet); `admin` asks for `Authorization: Bearer` with an admin's token or API key
 * (401 without or with a bad one, 403 for another role); `off` leaves the path unknown (404).
 * Like the health probes, it is not rate limited and is neither counted nor logged as a request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, type Now, type Result } from '../../core/errors';
import { isAdmin, type Principal } from '../../core/principal';
import { bearerToken, requestIdFrom } from '../requestId';
import { errorEnvelope, sendEnvelope } from './restHandler';

export const METRICS_PATH = '/metrics';
/** Prometheus's text exposition format, as prom-client writes it. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface MetricsRouteOptions {
  mode: 'public' | 'admin' | 'off';
  /** The metrics' text (with WORKERS, the whole gateway's). */
  scrape(): Promise<string>;
  authenticate(jwt: string | null): Now<Result<Principal>>;
  /** Hears of a scrape that failed (answered 500). */
  failed(err: unknown): void;
}

/** The route: handles GET and HEAD of /metrics (answers true), leaves anything else to the next route (false). */
export function createMetricsRoute({ mode, scrape, authenticate, failed }: MetricsRouteOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    if (mode === 'off' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    if ((q === -1 ? url : url.slice(0, q)) !== METRICS_PATH) return false;
    const requestId = requestIdFrom(req.headers['x-request-id']);
    req.resume();
    const serve = () =>
      scrape().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(text), 'X-Request-Id': requestId });
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        (err: unknown) => {
          failed(err);
          sendEnvelope(res, errorEnvelope(requestId, new ApiError('core.fatal.unexpected_error')));
        },
      );
    if (mode === 'public') {
      void serve();
      return true;
    }
    void Promise.resolve(authenticate(bearerToken(req.headers.authorization))).then((caller) => {
      if (!caller.ok) return sendEnvelope(res, errorEnvelope(requestId, caller.error));
      if (!isAdmin(caller.value)) return sendEnvelope(res, errorEnvelope(requestId, new ApiError('security.rights.forbidden', { reason: 'the metrics are for admins (METRICS=admin)' })));
      return serve();
    }, (err: unknown) => {
      failed(err);
      sendEnvelope(res, errorEnvelope(requestId, new ApiError('core.fatal.unexpected_error')));
    });
    return true;
  };
}
