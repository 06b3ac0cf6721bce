/**
 * server:info: Kuzzle's `{serverInfo: {kuzzle: {...}, services: {...}}}` (serverController.info),
 * with what is true of this gateway: every controller and action it answers (`api.routes`, as
 * Kuzzle lists them, without `http`: the REST paths are in the README), its name and version
 * (package.json), the Node.js version, the uptime (Kuzzle's `"<seconds>s"`), and the store behind it
 * with its health. No plugin, no system or memory figures, nothing secret.
 */
import { ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import type { CoreDeps } from '../deps';
import type { Principal } from '../principal';
import { UNKNOWN_FACTS } from './serverFacts';

type Routes = Record<string, Record<string, { controller: string; action: string }>>;

export interface ServerInfo {
  serverInfo: {
    kuzzle: {
      api: { routes: Routes };
      application: { name: string; version: string };
      nodeVersion: string;
      plugins: Record<string, never>;
      uptime: string;
      version: string;
    };
    services: { publicStorage: { backend: string; status: 'green' | 'red' } };
  };
}

export async function serverInfo(deps: CoreDeps, _principal: Principal): Promise<Result<ServerInfo>> {
  const facts = deps.server ?? UNKNOWN_FACTS;
  const routes: Routes = {};
  for (const { controller, action } of facts.actions) (routes[controller] ??= {})[action] = { controller, action };
  const ready = await deps.store.ready().catch(() => false);
  return ok({
    serverInfo: {
      kuzzle: {
        api: { routes },
        application: { name: facts.name, version: facts.version },
        nodeVersion: facts.nodeVersion,
        plugins: {},
        uptime: `${Math.max(0, deps.now() - facts.startedAt) / 1000}s`,
        version: facts.version,
      },
      services: { publicStorage: { backend: deps.store.name, status: ready ? 'green' : 'red' } },
    },
  });
}

export const serverInfoOperation = defineOperation<undefined, ServerInfo>({
  controller: 'server',
  action: 'info',
  addressesCollection: false,
  contract: {
    summary: 'About the gateway',
    description: "Kuzzle's serverInfo: every controller and action, the gateway's name and version, Node.js's, the uptime, the store and its health.",
    result: {
      title: 'ServerInfo',
      type: 'object',
      required: ['serverInfo'],
      additionalProperties: false,
      properties: {
        serverInfo: {
          type: 'object',
          required: ['kuzzle', 'services'],
          properties: {
            kuzzle: {
              type: 'object',
              required: ['api', 'application', 'nodeVersion', 'plugins', 'uptime', 'version'],
              properties: {
                api: { type: 'object', required: ['routes'], properties: { routes: { type: 'object', additionalProperties: { type: 'object' } } } },
                application: { type: 'object', required: ['name', 'version'], properties: { name: { type: 'string' }, version: { type: 'string' } } },
                nodeVersion: { type: 'string' },
                plugins: { type: 'object' },
                uptime: { type: 'string', pattern: '^[0-9.]+s$' },
                version: { type: 'string' },
              },
            },
            services: { type: 'object' },
          },
        },
      },
    },
    resultExample: {
      serverInfo: {
        kuzzle: { api: { routes: { server: { now: { controller: 'server', action: 'now' } } } }, application: { name: 'entity-gateway', version: '0.1.0' }, nodeVersion: 'v20.19.0', plugins: {}, uptime: '12.5s', version: '0.1.0' },
        services: { publicStorage: { backend: 'embedded', status: 'green' } },
      },
    },
    errors: [],
  },
  parse: () => ok(undefined),
  run: serverInfo,
});
