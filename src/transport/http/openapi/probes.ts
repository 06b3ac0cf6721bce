/**
 * The HTTP routes outside /v4 that are part of the contract: the health probes (expressApp.ts) and
 * GET /metrics (metricsRoute.ts) as METRICS sets it. Not envelopes, except the refusals of /metrics.
 */
import type { JsonSchema } from '../../../core/contract';
import { ApiError, type ErrorObject } from '../../../core/errors';
import { METRICS_CONTENT_TYPE, METRICS_PATH } from '../metricsRoute';
import type { Components } from './components';
import { ERROR_ENVELOPE_SCHEMA } from './envelopes';
import { exampleError } from './errorExamples';

const json = (schema: JsonSchema, example: unknown) => ({ 'application/json': { schema, example } });

const READY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['status', 'store'],
  additionalProperties: false,
  properties: { status: { enum: ['ready', 'unavailable'] }, store: { type: 'string', description: 'The store: `embedded` or `elasticsearch`.' } },
};

const probes: Record<string, JsonSchema> = {
  '/healthz': {
    get: {
      operationId: 'healthz',
      tags: ['probes'],
      summary: 'Liveness',
      description: 'The process answers. No token needed; not rate limited, counted or logged.',
      security: [],
      responses: {
        '200': {
          description: 'Alive',
          content: json({ type: 'object', required: ['status'], additionalProperties: false, properties: { status: { const: 'ok' } } }, { status: 'ok' }),
        },
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'readyz',
      tags: ['probes'],
      summary: 'Readiness',
      description: 'Whether the store answers. No token needed; not rate limited, counted or logged.',
      security: [],
      responses: {
        '200': { description: 'Ready', content: json({ ...READY_SCHEMA, properties: { ...(READY_SCHEMA.properties as object), status: { const: 'ready' } } }, { status: 'ready', store: 'embedded' }) },
        '503': {
          description: 'The store is unreachable',
          content: json({ ...READY_SCHEMA, properties: { ...(READY_SCHEMA.properties as object), status: { const: 'unavailable' } } }, { status: 'unavailable', store: 'elasticsearch' }),
        },
      },
    },
  },
};

const refusal = (error: ErrorObject) => ({ requestId: '0f8e3c4a-7d3b-4d0e-9c55-2f1a8e6b9d10', status: error.status, error, controller: null, action: null, collection: null, index: null, volatile: null, result: null });

/** GET /metrics as METRICS sets it: for anyone, for admins (401/403 otherwise), or absent. */
function metrics(mode: 'public' | 'admin' | 'off', components: Components): Record<string, JsonSchema> {
  if (mode === 'off') return {};
  const error = components.use(ERROR_ENVELOPE_SCHEMA);
  const admin = mode === 'admin';
  const errors = admin
    ? {
        '401': { description: '`security.rights.unauthorized`, `security.token.invalid`, `security.token.expired`', content: json(error, refusal(exampleError('security.rights.unauthorized'))) },
        '403': { description: '`security.rights.forbidden`: not an admin', content: json(error, refusal(new ApiError('security.rights.forbidden', { reason: 'the metrics are for admins (METRICS=admin)' }).toObject())) },
      }
    : {};
  return {
    [METRICS_PATH]: {
      get: {
        operationId: 'metrics',
        tags: ['probes'],
        summary: 'Metrics, in Prometheus\'s text format',
        description: `Requests by transport, controller, action and status, latencies, caches, store sizes, connections and subscriptions, rate limit refusals, process metrics. METRICS=${mode}: ${admin ? "an admin's token or API key" : 'no token needed'}. Not rate limited, counted or logged.`,
        ...(admin ? {} : { security: [] }),
        responses: {
          '200': {
            description: 'The metrics',
            content: { [METRICS_CONTENT_TYPE.split(';')[0]]: { schema: { type: 'string' }, example: '# HELP gateway_requests_total Requests answered\n# TYPE gateway_requests_total counter\ngateway_requests_total{transport="rest",controller="document",action="search",status="200"} 42\n' } },
          },
          ...errors,
        },
      },
    },
  };
}

/** The path items outside /v4, by path. */
export const probePaths = (metricsMode: 'public' | 'admin' | 'off', components: Components): Record<string, JsonSchema> => ({ ...probes, ...metrics(metricsMode, components) });
