/**
 * Unit tests of the server and auth controllers: only what they read of CoreDeps, callers, and the
 * real dispatcher over the real operations (authentication as a stub: no token is 401, any token
 * is the principal given).
 */
import type { CoreDeps } from '../../deps';
import { Dispatcher } from '../../dispatch';
import type { Envelope } from '../../envelope';
import { fail, ok } from '../../errors';
import { operations } from '../../operations';
import { ANONYMOUS, type Principal } from '../../principal';
import { makeRequest, type ApiRequest } from '../../request';
import { REALTIME_ACTIONS, type ServerFacts } from '../serverFacts';

export const NOW = 1_767_225_600_000;

export const caller = (fields: Partial<Principal> = {}): Principal => ({ ...ANONYMOUS, userId: 'alice', tenantId: 'acme', roles: ['reader'], slug: 'alice', shortName: 'Alice', expiresAt: NOW + 3600_000, ...fields });

export interface ServerDepsOptions {
  ready?: boolean | Error;
  facts?: Partial<ServerFacts>;
  withoutFacts?: boolean;
  /** Whom any token authenticates as. */
  principal?: Principal;
}

export function serverDeps(options: ServerDepsOptions = {}): CoreDeps {
  const { ready = true, principal = caller() } = options;
  const facts: ServerFacts = {
    name: 'entity-gateway',
    version: '9.9.9',
    nodeVersion: 'v20.0.0',
    startedAt: NOW - 90_500,
    config: { port: 7512, limits: { maxBodyBytes: 1024 } },
    actions: [...operations, ...REALTIME_ACTIONS],
    ...options.facts,
  };
  return {
    now: () => NOW,
    settings: { indexName: 'entity' },
    store: { name: 'embedded', ready: async () => (ready instanceof Error ? Promise.reject(ready) : ready) },
    authenticator: { authenticate: (jwt: string | null) => (jwt === null ? fail('security.rights.unauthorized') : ok(principal)) },
    ...(options.withoutFacts ? {} : { server: facts }),
  } as unknown as CoreDeps;
}

export const serverRequest = (controller: string, action: string, fields: Partial<ApiRequest> = {}): ApiRequest => makeRequest({ controller, action, requestId: 'r1', ...fields });

/** One request through the real dispatcher and operations. */
export async function dispatch(deps: CoreDeps, controller: string, action: string, fields: Partial<ApiRequest> = {}): Promise<Envelope> {
  const reported: unknown[] = [];
  const envelope = await new Dispatcher(deps, operations, (err) => reported.push(err)).dispatch(serverRequest(controller, action, fields));
  if (reported.length > 0) throw reported[0];
  return envelope;
}
