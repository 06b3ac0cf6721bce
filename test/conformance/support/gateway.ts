/**
 * A real gateway (createGateway, as `npm start` builds it) on a conformance backend, offered as the
 * TestServer of test/support so that the end-to-end helpers (request, transports, expectOk...) apply.
 * Every gateway of the suite signs with the same AUTH_SECRET, so that two instances of one backend
 * accept each other's tokens, as a deployment behind a load balancer does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/log';
import { createGateway } from '../../../src/server';
import type { TestServer } from '../../support/testServer';
import type { Caller } from './api';
import type { Backend, StoreTarget } from './targets';

export const CONFORMANCE_SECRET = 'conformance-suite-secret-0123456789-abcdefghijklmnop';

export async function startGateway(backend: Backend, env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'conformance-gw-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    AUTH_SECRET: CONFORMANCE_SECRET,
    ES_INDEX_PREFIX: 'conformance',
    ...backend.env,
    ...env,
  });
  const gateway = createGateway(config, createLogger(config.logLevel), backend.store(config));
  const port = await gateway.listen();
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/`,
    dataDir: config.dataDir,
    config,
    gateway,
    token: (claims, expiresInMs = 3600_000) => gateway.deps.tokens.sign(claims, expiresInMs),
    async stop() {
      await gateway.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A gateway on a store target for the calling describe block: the backend opened and the gateway
 * started in a beforeAll registered now (so before the block's own), both stopped in an afterAll.
 * `caller(sub, tenantId, roles)` is a caller holding a token of those claims; `server()` is the gateway
 * itself (for callers of other claims, or the end-to-end helpers), from the block's beforeAll on.
 */
export function gatewayOn(target: StoreTarget): { caller(sub: string, tenantId: string, roles: string[]): Promise<Caller>; server(): TestServer } {
  let backend: Backend | undefined;
  let server: TestServer | undefined;
  const started = (): TestServer => {
    if (server === undefined) throw new Error('gatewayOn: the gateway is used before the block\'s beforeAll');
    return server;
  };
  beforeAll(async () => {
    backend = await target.open();
    server = await startGateway(backend);
  });
  afterAll(async () => {
    await server?.stop();
    await backend?.destroy();
  });
  return {
    caller: async (sub, tenantId, roles) => ({ server: started(), token: await started().token({ sub, tenantId, roles }) }),
    server: started,
  };
}
