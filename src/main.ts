/**
 * Composition root: config -> logger -> store -> core -> transports -> listen. With WORKERS > 1 the
 * first process only supervises (cluster/primary.ts) and each worker it starts runs this same file.
 */
import cluster from 'node:cluster';
import { loadConfig, ConfigError } from './config';
import { STOP_MESSAGE, WORKER_ID_ENV, runPrimary } from './cluster/primary';
import { createLogger } from './log';
import { createGateway } from './server';
import { seedDemoData } from './demo/seed';
import { limitHeapGrowth } from './heapGrowth';

async function main(): Promise<void> {
  limitHeapGrowth();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  const gateway = createGateway(config, logger);
  if (config.demoData) {
    const seeded = await seedDemoData(gateway.deps);
    if (seeded > 0) logger.info({ countries: seeded }, 'demo data loaded');
  }
  const port = await gateway.listen();
  logger.info({ port, host: config.host, store: gateway.deps.store.name, dataDir: config.dataDir }, 'entity gateway listening');

  // (with workers, the first prints it)
  if (config.nodeEnv === 'development' && (cluster.isPrimary || process.env[WORKER_ID_ENV] === '1')) {
    const token = await gateway.deps.tokens.sign({ sub: 'admin', tenantId: 'demo', roles: ['admin'] }, 24 * 3600 * 1000);
    const base = `http://localhost:${port}`;
    process.stdout.write(
      [
        '',
        'Development token (user "admin", tenant "demo", role admin, valid 24h):',
        `  export TOKEN=${token}`,
        'Try:',
        `  curl -s -X POST "${base}/v4/entity/countries/search?size=3" -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" -d '{"query":{"match":{"name":"south"}}}'`,
        '',
      ].join('\n') + '\n',
    );
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    gateway.close().then(
      () => exitWhenThePrimaryKnows(),
      (err) => {
        logger.error({ err }, 'stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  if (cluster.isWorker) {
    // the primary asks (rolling restart, shutdown), or is gone
    process.on('message', (message) => {
      if (message === STOP_MESSAGE) stop('restart');
    });
    process.on('disconnect', () => stop('primary gone'));
  }
}

/**
 * A worker leaves only once the primary has stopped handing it connections. The primary may have
 * sent one (node:cluster round-robin) just before it heard that this worker's server closed: the
 * worker hands such a connection back, but only while it lives; exiting at once would leave that
 * client waiting forever. cluster's worker.disconnect() tells the primary and waits for its answer,
 * which comes after every connection sent before it (one ordered channel), then the channel closes.
 */
function exitWhenThePrimaryKnows(): void {
  const worker = cluster.worker;
  if (worker === undefined || !worker.isConnected()) process.exit(0);
  process.once('disconnect', () => process.exit(0));
  worker.disconnect();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
