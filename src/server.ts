/**
 * Builds the whole service from a Config: store -> core -> transports -> one HTTP server.
 * `main.ts` calls it to serve; the end-to-end tests call it to start a real server on port 0.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Config } from './config';
import { Authenticator } from './core/auth/authenticate';
import { resolveSecret } from './core/auth/secret';
import { TokenService } from './core/auth/tokens';
import type { CoreDeps } from './core/deps';
import { Dispatcher } from './core/dispatch';
import { ChangeFeed } from './core/events/changeFeed';
import { operations } from './core/operations';
import type { Logger } from './log';
import type { Store } from './store/port';
import { EmbeddedStore } from './store/embedded/embeddedStore';
import { createExpressApp } from './transport/http/expressApp';
import { REST_PREFIX, createRestHandler } from './transport/http/restHandler';
import { createRawSocketServer } from './transport/websocket/rawSocket';

export interface Gateway {
  server: Server;
  deps: CoreDeps;
  dispatcher: Dispatcher;
  /** Listens on config.port/host (0 = an ephemeral port); resolves with the bound port. */
  listen(): Promise<number>;
  /** Stops accepting, closes WebSocket clients with 1001, drains HTTP, closes the store. */
  close(): Promise<void>;
}

export function createStore(config: Config): Store {
  return new EmbeddedStore(config.dataDir);
}

export function createGateway(config: Config, logger: Logger, store: Store = createStore(config)): Gateway {
  const { secret } = resolveSecret(config.auth.secret, config.dataDir);
  const tokens = new TokenService(
    secret,
    config.auth.jwksUrl ? { jwksUrl: config.auth.jwksUrl, issuer: config.auth.issuer, audience: config.auth.audience } : undefined,
  );
  const authenticator = new Authenticator(tokens, store.apiKeys, { tenantClaim: config.auth.tenantClaim, keyCacheMs: config.apiKeys.cacheMs });
  const deps: CoreDeps = {
    store,
    tokens,
    authenticator,
    feed: new ChangeFeed(),
    settings: { indexName: config.indexName, apiKeyMaxTtl: config.apiKeys.maxTtl },
    now: Date.now,
    newId: randomUUID,
  };
  const dispatcher = new Dispatcher(deps, operations, (err, req) =>
    logger.error({ err, requestId: req.requestId, controller: req.controller, action: req.action }, 'internal error'),
  );

  const rest = createRestHandler(dispatcher, config.limits.maxBodyBytes);
  const app = createExpressApp({ store });
  const server = createServer((req, res) => {
    if (req.url !== undefined && req.url.startsWith(REST_PREFIX)) {
      rest(req, res).catch((err) => {
        logger.error({ err }, 'REST handler failed');
        if (!res.headersSent) res.writeHead(500).end();
      });
    } else {
      app(req, res);
    }
  });

  const raw = createRawSocketServer({ dispatcher, maxMessageBytes: config.limits.maxMessageBytes });
  server.on('upgrade', (req, socket: Duplex, head) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/') {
      raw.handleUpgrade(req, socket, head, (ws) => raw.emit('connection', ws, req));
    } else {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
    }
  });

  return {
    server,
    deps,
    dispatcher,
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      }),
    async close() {
      for (const client of raw.clients) client.close(1001, 'server shutting down');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      });
      raw.close();
      await store.close();
    },
  };
}
