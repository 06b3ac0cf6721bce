/**
 * Everything on HTTP that is not the /v4 hot path: health probes, and (with GraphQL) /graphql.
 * Unknown paths answer the 404 envelope, like unknown /v4 routes.
 */
import express, { type Express } from 'express';
import { ApiError } from '../../core/errors';
import type { Store } from '../../store/port';
import { requestIdFrom } from '../requestId';
import { errorEnvelope, sendEnvelope } from './restHandler';

export interface ExpressAppOptions {
  store: Store;
  /** Mounted first (GraphQL). */
  mount?: (app: Express) => void;
}

export function createExpressApp({ store, mount }: ExpressAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);

  // GraphQL first: its requests then match the first layer instead of testing the probes' routes
  mount?.(app);

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    const ready = await store.ready().catch(() => false);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', store: store.name });
  });

  app.use((req, res) => {
    sendEnvelope(res, errorEnvelope(requestIdFrom(req.headers['x-request-id']), new ApiError('api.process.action_not_found', { what: `Route "${req.method} ${req.path}"` })));
  });
  return app;
}
