/**
 * Builds the whole service from a Config: store -> core -> transports -> one HTTP server.
 * `main.ts` calls it to serve; the end-to-end tests call it to start a real server on port 0.
 * Routes (every HTTP request through the CORS layer first): /v4/* -> lean REST handler; /graphql ->
 * Apollo (express), or GraphiQL for a browser; / and /console/assets -> the console (CONSOLE); other HTTP -> express;
 * upgrades: / -> raw Kuzzle-style WebSocket, /graphql -> graphql-ws.
 */
import { randomUUID } from 'node:crypto';
import cluster from 'node:cluster';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Config } from './config';
import { Authenticator } from './core/auth/authenticate';
import { resolveSecret } from './core/auth/secret';
import { TokenService } from './core/auth/tokens';
import type { CoreDeps } from './core/deps';
import { Dispatcher } from './core/dispatch';
import { ChangeFeed } from './core/events/changeFeed';
import { followRemoteChanges } from './core/events/remoteChanges';
import { joinFleet } from './core/events/fleet';
import { RedisBus } from './bus/redisBus';
import { operations } from './core/operations';
import { REALTIME_ACTIONS } from './core/server/serverFacts';
import { readPackageInfo } from './packageInfo';
import { publicConfig } from './publicConfig';
import type { Logger } from './log';
import type { Store } from './store/port';
import { EmbeddedStore } from './store/embedded/embeddedStore';
import type { ElasticsearchStore } from './store/elasticsearch/elasticsearchStore';
import { createCorsLayer } from './transport/http/cors';
import { mountConsole } from './transport/console/consoleRoutes';
import { trackConnections } from './transport/http/drain';
import { createExpressApp } from './transport/http/expressApp';
import { REST_PREFIX, createRestHandler } from './transport/http/restHandler';
import { createRawSocketServer } from './transport/websocket/rawSocket';
import { setAdmission, setDefaultSliceMs } from './scheduler/scheduler';
import { createMetricsRoute } from './transport/http/metricsRoute';
import { buildOpenApiDocument } from './transport/http/openapi/document';
import { createOpenApiRoute } from './transport/http/openapi/route';
import { WORKER_ID_ENV } from './cluster/primary';
import { createAccessLog } from './observability/accessLog';
import { workerMetrics } from './observability/clusterMetrics';
import { GatewayMetrics } from './observability/gatewayMetrics';
import { createRequestObserver } from './observability/requestObserver';
import { clientAddressOf } from './transport/clientAddress';
import { createRateLimits } from './rateLimit/create';
import { realtimeExtension } from './transport/websocket/realtime';
import { GRAPHQL_PATH, createGraphQLHttp } from './transport/graphql/apollo';
import { createGraphQLWs } from './transport/graphql/graphqlWs';
import { limitRules } from './transport/graphql/limits';
import { buildSchema } from './transport/graphql/schema';

export interface Gateway {
  server: Server;
  deps: CoreDeps;
  dispatcher: Dispatcher;
  /** This process's metrics (GET /metrics serves them, combined with the other workers' when WORKERS > 1). */
  metrics: GatewayMetrics;
  /** Listens on config.port/host (0 = an ephemeral port); resolves with the bound port. */
  listen(): Promise<number>;
  /** Stops accepting, closes WebSocket clients with 1001, drains HTTP, closes the store. */
  close(): Promise<void>;
}

/** ELASTICSEARCH_URL set: the Elasticsearch store (DESIGN.md "Elasticsearch store"); otherwise the embedded one in DATA_DIR. */
export function createStore(config: Config, logger?: Logger): Store {
  const { url, ...elasticsearch } = config.elasticsearch;
  if (url !== undefined) {
    // loaded only when used: the Elasticsearch client takes a third of a second to load
    const { ElasticsearchStore: Store } = require('./store/elasticsearch/elasticsearchStore') as { ElasticsearchStore: typeof ElasticsearchStore };
    return Store.fromSettings({ url, ...elasticsearch });
  }
  const { timeoutMs, sliceMs, ...limits } = config.search;
  return new EmbeddedStore(config.dataDir, config.searchCacheEntries, { limits, timeoutMs, sliceMs }, undefined, { commitThreadFrom: config.commitThreadFrom }, { quietMs: config.indexFileQuietMs, log: logger });
}

/** The URL without its password (logs). */
const redactedUrl = (url: string): string => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');

/** REDIS_URL set: this instance joins the fleet bus (core/events/fleet.ts) as a fresh id. */
function joinRedisFleet(config: Config, deps: CoreDeps, logger: Logger): { bus: RedisBus; url: string; leave: () => void } | null {
  const url = config.redis.url;
  if (url === undefined) return null;
  let lastError = 0;
  const bus = new RedisBus({
    url,
    prefix: config.redis.prefix,
    // ioredis retries by itself: one line a minute at most
    onError: (err) => {
      if (Date.now() - lastError < 60_000) return;
      lastError = Date.now();
      logger.warn({ redis: redactedUrl(url), err: err.message }, 'Redis error (retrying)');
    },
  });
  return { bus, url, leave: joinFleet(deps, bus, randomUUID()) };
}

export function createGateway(config: Config, logger: Logger, store: Store = createStore(config, logger)): Gateway {
  // large request bodies are parsed in slices of the searches' length, in their queue
  setDefaultSliceMs(config.search.sliceMs);
  // costly searches in progress at once, and waiting (README "No search keeps the process")
  setAdmission(config.search.concurrency, config.search.queueSize);
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
    settings: { indexName: config.indexName, apiKeyMaxTtl: config.apiKeys.maxTtl, apiKeyCacheMs: config.apiKeys.cacheMs, searchTimeoutMs: config.search.timeoutMs },
    now: Date.now,
    newId: randomUUID,
    // what server:info, server:getConfig and auth:checkRights tell: nothing secret
    server: { ...readPackageInfo(), nodeVersion: process.version, startedAt: Date.now(), config: publicConfig(config), actions: [...operations, ...REALTIME_ACTIONS] },
  };
  // RATE_LIMIT, RATE_LIMIT_AUTH_FAILURES: counted here, by the primary for its workers, or in Redis (rateLimit/create.ts)
  const rateLimiting = createRateLimits(config.rateLimit, {
    worker: config.workers > 1 && cluster.isWorker,
    redis: config.redis.url === undefined ? undefined : { url: config.redis.url, prefix: config.redis.prefix },
    logger,
  });
  deps.rateLimits = rateLimiting.limits;
  const clientOf = clientAddressOf(config.trustProxy);
  const unfollow = followRemoteChanges(deps);
  const fleet = joinRedisFleet(config, deps, logger);
  const dispatcher = new Dispatcher(deps, operations, (err, req) =>
    logger.error({ err, requestId: req.requestId, controller: req.controller, action: req.action }, 'internal error'),
  );

  // Observability (README "Observability"): metrics of every request, and the access log
  const worker = config.workers > 1 && cluster.isWorker ? process.env[WORKER_ID_ENV] : undefined;
  const metrics = new GatewayMetrics({
    store: () => store.stats?.(),
    connections: () => [
      ['websocket', raw.clients.size],
      ['graphql', graphqlWs.wss.clients.size],
    ],
    subscriptions: () => [
      ['websocket', realtime.subscriptions],
      ['graphql', graphqlWs.subscriptions],
    ],
    worker,
  });
  const accessLog = config.logRequests ? createAccessLog(config.logLevel, worker) : null;
  // (nothing to tell when neither metrics nor the access log are wanted)
  const observer = config.metrics === 'off' && accessLog === null ? undefined : createRequestObserver(metrics, accessLog);
  // WORKERS > 1: a scrape answers for every worker (the primary combines them: observability/clusterMetrics.ts)
  const clusterScrape = worker === undefined ? null : workerMetrics(metrics.registry);
  const metricsRoute = createMetricsRoute({
    mode: config.metrics,
    scrape: () => (clusterScrape === null ? metrics.text() : clusterScrape.scrape()),
    authenticate: (jwt) => authenticator.authenticate(jwt),
    failed: (err) => logger.error({ err }, 'metrics scrape failed'),
  });

  // GET /v4/_openapi: the REST API's contract, made from the route table and the operations' contracts
  const openapi = createOpenApiRoute(buildOpenApiDocument({ ...readPackageInfo(), operations, metrics: config.metrics }));
  const rest = createRestHandler(dispatcher, config.limits.maxBodyBytes, (err) => logger.error({ err }, 'REST handler failed'), config.limits.maxJsonDepth, clientOf, observer, config.limits.maxBulkBytes);
  const schema = buildSchema();
  const rules = limitRules(config.graphql);
  const reportInternal = (err: unknown) => logger.error({ err }, 'internal error in GraphQL');
  const graphqlHttp = createGraphQLHttp({
    schema,
    deps,
    rules,
    introspection: config.graphql.introspection,
    maxBodyBytes: config.limits.maxBodyBytes,
    maxJsonDepth: config.limits.maxJsonDepth,
    reportInternal,
    clientOf,
    observer,
  });
  const app = createExpressApp({
    store,
    mount: (a) => {
      // CONSOLE, GRAPHQL_LANDING_PAGE: the console at / and the GraphiQL IDE at /graphql for browsers (README "Console")
      mountConsole(a, { page: config.console, ide: config.graphql.landingPage, graphqlPath: GRAPHQL_PATH });
      graphqlHttp.mount(a);
    },
  });
  const route = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url !== undefined && req.url.startsWith(REST_PREFIX)) {
      if (!openapi(req, res)) rest(req, res);
    } else if (!metricsRoute(req, res)) {
      app(req, res);
    }
  };
  // CORS_ORIGINS, in front of every HTTP route (README "Browsers (CORS)")
  const cors = createCorsLayer(config.cors.origins);
  const server = createServer((req, res) => cors(req, res, () => route(req, res)));
  const http = trackConnections(server);

  const realtime = realtimeExtension(deps);
  const raw = createRawSocketServer({ dispatcher, maxMessageBytes: config.limits.maxMessageBytes, maxJsonDepth: config.limits.maxJsonDepth, extensions: [realtime], clientOf, observer });
  const graphqlWs = createGraphQLWs({ schema, deps, rules, introspection: config.graphql.introspection, maxMessageBytes: config.limits.maxMessageBytes, maxJsonDepth: config.limits.maxJsonDepth, reportInternal, clientOf, observer });
  // One upgrade handler routes by path: two ws servers attached with {server, path} break each other.
  server.on('upgrade', (req, socket: Duplex, head) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/') {
      raw.handleUpgrade(req, socket, head, (ws) => raw.emit('connection', ws, req));
    } else if (path === GRAPHQL_PATH) {
      graphqlWs.wss.handleUpgrade(req, socket, head, (ws) => graphqlWs.wss.emit('connection', ws, req));
    } else {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
    }
  });

  return {
    server,
    deps,
    dispatcher,
    metrics,
    listen: async () => {
      await graphqlHttp.start();
      if (fleet !== null && !(await fleet.bus.start())) logger.warn({ redis: redactedUrl(fleet.url) }, 'Redis not reachable yet: live changes and revocations from other instances arrive once it is');
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      });
    },
    async close() {
      for (const client of raw.clients) client.close(1001, 'server shutting down');
      await graphqlWs.close();
      await graphqlHttp.stop();
      // Drain HTTP (transport/http/drain.ts): what has arrived is answered, idle kept-alive
      // connections are closed, whatever is still open after 5 s is cut.
      await http.drain(5000);
      raw.close();
      unfollow();
      if (fleet !== null) {
        fleet.leave();
        await fleet.bus.close();
      }
      await rateLimiting.close();
      clusterScrape?.close();
      await store.close();
    },
  };
}
