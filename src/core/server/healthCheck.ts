/**
 * server:healthCheck: `{status, services: {storageEngine}}` (Kuzzle's serverController.healthCheck,
 * with the one service this gateway depends on): "green" when the store answers, else "red". The
 * optional `services` argument (Kuzzle's: `storageEngine,...`, or an array) keeps only those named;
 * names of services this gateway does not have are left out, as Kuzzle leaves them. Public, like
 * GET /readyz: a probe needs no token. Always 200: Kuzzle answers a red check with 503 and the same
 * result; /readyz gives the status code.
 */
import { fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import type { CoreDeps } from '../deps';

export type Health = 'green' | 'red';
export interface HealthCheck {
  status: Health;
  services: { storageEngine?: Health };
}

export async function healthCheck(deps: CoreDeps, _principal: unknown, services: readonly string[] | null): Promise<Result<HealthCheck>> {
  const result: HealthCheck = { status: 'green', services: {} };
  if (services === null || services.includes('storageEngine')) {
    const ready = await deps.store.ready().catch(() => false);
    result.services.storageEngine = ready ? 'green' : 'red';
    if (!ready) result.status = 'red';
  }
  return ok(result);
}

/** `services`: a comma-separated string (a URL's query string) or an array of names; absent: all. */
export function parseServices(value: unknown): Result<readonly string[] | null> {
  if (value === undefined || value === null || value === '') return ok(null);
  const names = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(names) || !names.every((n) => typeof n === 'string')) return fail('api.assert.invalid_type', { name: 'services', expected: 'a comma-separated string or an array of strings' });
  return ok(names.map((n) => n.trim()));
}

export const healthCheckOperation = defineOperation<readonly string[] | null, HealthCheck>({
  controller: 'server',
  action: 'healthCheck',
  addressesCollection: false,
  public: true,
  contract: {
    summary: 'Health of the gateway',
    description: "`green` when the store answers, else `red` (always 200: GET /readyz answers 503). No token needed.",
    args: {
      services: {
        schema: { type: 'string' },
        description: 'Comma-separated names of the services to check (`storageEngine`); names of services this gateway does not have are left out. Default: all.',
        example: 'storageEngine',
      },
    },
    result: {
      title: 'HealthCheck',
      type: 'object',
      required: ['status', 'services'],
      additionalProperties: false,
      properties: {
        status: { enum: ['green', 'red'] },
        services: { type: 'object', additionalProperties: false, properties: { storageEngine: { enum: ['green', 'red'] } } },
      },
    },
    resultExample: { status: 'green', services: { storageEngine: 'green' } },
    errors: ['api.assert.invalid_type'],
  },
  parse: (req) => parseServices(req.args.services),
  run: healthCheck,
});
