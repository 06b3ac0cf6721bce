/**
 * WORKERS > 1: this process only supervises; `workers` processes (node:cluster) each run the whole
 * gateway behind the same port, the primary handing them connections in turn. With the embedded
 * store they share DATA_DIR (each follows the others' writes through its SQLite change log); with
 * Elasticsearch they share the cluster.
 *
 * - A worker that dies is replaced (after 1 s, and up to 30 s while they keep dying young).
 * - SIGHUP restarts the workers one by one: a new one first, the old one asked to stop once the new
 *   one listens. The old one stops as at SIGTERM: it stops taking connections, answers the requests
 *   it has, closes its WebSockets with 1001. The listening socket is the primary's throughout, so no
 *   connection is refused.
 * - SIGTERM / SIGINT stop every worker that way, then the primary.
 *
 * node:cluster rather than a process manager: it is Node's own, and lets one `npm start` serve on
 * every core with nothing else installed.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../config';
import { resolveSecret } from '../core/auth/secret';
import type { Logger } from '../log';
import { startRateLimitPrimary } from '../rateLimit/create';
import { serveClusterMetrics } from '../observability/clusterMetrics';

/** The primary's message asking a worker to stop gracefully. */
export const STOP_MESSAGE = 'gateway:stop';
/** Set in each worker's environment: its number, 1 to WORKERS (a replacement takes the number it replaces). */
export const WORKER_ID_ENV = 'GATEWAY_WORKER_ID';

const RESTART_DELAY_MS = 1000;
const MAX_RESTART_DELAY_MS = 30_000;
/** A worker that exits sooner than this after starting died young: the next restart waits longer. */
const YOUNG_MS = 5000;
/** A worker asked to stop is killed if it has not exited after this long. */
const STOP_GRACE_MS = 30_000;

interface Slot {
  id: number;
  worker: Worker;
  startedAt: number;
  /** Asked to stop (rolling restart or shutdown): its exit is expected. */
  retiring: boolean;
}

export function runPrimary(config: Config, logger: Logger): void {
  // a generated secret is written once, here, before any worker reads it
  resolveSecret(config.auth.secret, config.dataDir);
  // the workers' rate limit counts live here (rateLimit/create.ts), ready before any worker asks
  if (config.rateLimit.requests !== null || config.rateLimit.authFailures !== null) startRateLimitPrimary();
  // GET /metrics on any worker answers for them all: this process combines their metrics (observability/clusterMetrics.ts)
  serveClusterMetrics(logger);
  const slots = new Map<number, Slot>();
  let stopping = false;
  let rolling = false;
  let restartDelay = RESTART_DELAY_MS;

  const start = (id: number): Slot => {
    // one worker loads the demo data: the others would only race it for the same slugs
    const env: Record<string, string> = { [WORKER_ID_ENV]: String(id) };
    if (id !== 1) env.DEMO_DATA = 'false';
    const slot: Slot = { id, worker: cluster.fork(env), startedAt: Date.now(), retiring: false };
    slot.worker.on('exit', (code, signal) => {
      if (slots.get(id) === slot) slots.delete(id);
      if (slot.retiring || stopping) return;
      const young = Date.now() - slot.startedAt < YOUNG_MS;
      restartDelay = young ? Math.min(MAX_RESTART_DELAY_MS, restartDelay * 2) : RESTART_DELAY_MS;
      logger.error({ worker: id, pid: slot.worker.process.pid, code, signal, restartInMs: restartDelay }, 'worker exited: starting another');
      setTimeout(() => {
        if (!stopping && !slots.has(id)) slots.set(id, start(id));
      }, restartDelay).unref();
    });
    return slot;
  };

  const listening = (slot: Slot): Promise<void> =>
    new Promise((resolve, reject) => {
      slot.worker.once('listening', () => resolve());
      slot.worker.once('exit', () => reject(new Error(`worker ${slot.id} exited before listening`)));
    });

  const retire = (slot: Slot): Promise<void> =>
    new Promise((resolve) => {
      slot.retiring = true;
      if (slot.worker.isDead()) return resolve();
      const kill = setTimeout(() => slot.worker.kill('SIGKILL'), STOP_GRACE_MS);
      slot.worker.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      slot.worker.send(STOP_MESSAGE);
    });

  async function rollingRestart(): Promise<void> {
    if (rolling || stopping) return;
    rolling = true;
    logger.info({ workers: config.workers }, 'rolling restart');
    try {
      for (const id of [...slots.keys()].sort((a, b) => a - b)) {
        const old = slots.get(id);
        if (old === undefined || stopping) continue;
        old.retiring = true; // its exit, from here on, is expected
        const next = start(id);
        slots.set(id, next);
        try {
          await listening(next);
        } catch (err) {
          // the new one could not start: the old one goes on serving
          old.retiring = false;
          slots.set(id, old);
          throw err;
        }
        await retire(old);
        logger.info({ worker: id, pid: next.worker.process.pid }, 'worker restarted');
      }
      logger.info('rolling restart done');
    } catch (err) {
      logger.error({ err }, 'rolling restart stopped');
    } finally {
      rolling = false;
    }
  }

  async function stop(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping the workers');
    await Promise.all([...slots.values()].map(retire));
    process.exit(0);
  }

  for (let id = 1; id <= config.workers; id++) slots.set(id, start(id));
  let ready = 0;
  cluster.on('listening', (worker) => {
    if (++ready === config.workers) logger.info({ workers: config.workers, pid: process.pid }, 'every worker listening');
    logger.debug({ pid: worker.process.pid }, 'worker listening');
  });
  process.on('SIGHUP', () => void rollingRestart());
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
