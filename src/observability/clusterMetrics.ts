/**
 * /metrics with WORKERS > 1 (README "Observability"): a scrape reaches one worker, and answers
 * for the whole gateway. That worker asks the primary over cluster IPC; the primary asks every
 * worker that has its metrics ready for them (each answers its registry as JSON), adds its own
 * process metrics (worker="primary"), and combines them with prom-client's AggregatorRegistry
 * (each metric by its aggregator: sums, maxima, or one series per worker), then answers the text.
 *
 * A worker that does not answer within COLLECT_TIMEOUT_MS (stopping, stuck) is left out of that
 * scrape rather than failing it; its counts come back with it. A worker that exits takes its
 * counts with it: the sums go down, which Prometheus's rate() reads as a counter reset.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, collectDefaultMetrics, Registry } from 'prom-client';

/** One registry's metrics as getMetricsAsJSON answers them (what crosses IPC). */
type MetricJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>[number];
import type { Logger } from '../log';

const READY = 'gateway:metrics:ready';
const SCRAPE = 'gateway:metrics:scrape';
const SCRAPED = 'gateway:metrics:scraped';
const COLLECT = 'gateway:metrics:collect';
const COLLECTED = 'gateway:metrics:collected';

/** How long the primary waits for each worker's metrics. */
export const COLLECT_TIMEOUT_MS = 3000;
/** How long a worker waits for the primary's answer. */
export const SCRAPE_TIMEOUT_MS = 10_000;

interface Message {
  type: string;
  id?: number;
  text?: string;
  metrics?: MetricJson[];
  error?: string;
}

const isMessage = (m: unknown): m is Message => typeof m === 'object' && m !== null && typeof (m as Message).type === 'string' && (m as Message).type.startsWith('gateway:metrics:');

/** Sends if the channel is still open; false when it is not. */
function sendTo(target: { send?: (m: Message) => unknown; isConnected?: () => boolean }, message: Message): boolean {
  try {
    if (target.isConnected !== undefined && !target.isConnected()) return false;
    target.send?.(message);
    return true;
  } catch {
    return false;
  }
}

export interface WorkerMetrics {
  /** The whole gateway's metrics, as the primary combines them. */
  scrape(): Promise<string>;
  close(): void;
}

/** In a worker: answers the primary's requests for this registry, and scrapes through the primary. */
export function workerMetrics(registry: Registry): WorkerMetrics {
  const parent = process as unknown as { send?: (m: Message) => unknown; isConnected?: () => boolean };
  parent.isConnected = () => process.connected;
  let next = 0;
  const waiting = new Map<number, (answer: Message | null) => void>();
  const onMessage = (m: unknown) => {
    if (!isMessage(m)) return;
    if (m.type === COLLECT) {
      registry.getMetricsAsJSON().then(
        (metrics) => sendTo(parent, { type: COLLECTED, id: m.id, metrics }),
        (err: unknown) => sendTo(parent, { type: COLLECTED, id: m.id, error: String(err) }),
      );
    } else if (m.type === SCRAPED && m.id !== undefined) {
      waiting.get(m.id)?.(m);
    }
  };
  process.on('message', onMessage);
  sendTo(parent, { type: READY });
  return {
    scrape() {
      const id = next++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => settle(null), SCRAPE_TIMEOUT_MS);
        const settle = (answer: Message | null) => {
          clearTimeout(timer);
          waiting.delete(id);
          if (answer === null) reject(new Error('the primary did not answer with the metrics'));
          else if (typeof answer.text === 'string') resolve(answer.text);
          else reject(new Error(answer.error ?? 'no metrics'));
        };
        waiting.set(id, settle);
        if (!sendTo(parent, { type: SCRAPE, id })) settle(null);
      });
    },
    close() {
      process.off('message', onMessage);
      for (const settle of [...waiting.values()]) settle(null);
    },
  };
}

/** In the primary: combines the workers' metrics for the worker a scrape reached. */
export function serveClusterMetrics(logger: Logger): void {
  const own = new Registry();
  collectDefaultMetrics({ register: own, labels: { worker: 'primary' } });
  const ready = new Set<Worker>();
  let next = 0;
  const collecting = new Map<number, (metrics: MetricJson[] | null) => void>();

  const collectFrom = (worker: Worker): Promise<MetricJson[] | null> =>
    new Promise((resolve) => {
      const id = next++;
      const timer = setTimeout(() => {
        logger.warn({ worker: worker.id, pid: worker.process.pid }, 'a worker did not answer with its metrics in time: left out of this scrape');
        done(null);
      }, COLLECT_TIMEOUT_MS);
      const done = (metrics: MetricJson[] | null) => {
        clearTimeout(timer);
        collecting.delete(id);
        resolve(metrics);
      };
      collecting.set(id, done);
      if (!sendTo(worker, { type: COLLECT, id })) done(null);
    });

  async function combined(): Promise<string> {
    const answers = await Promise.all([...ready].map(collectFrom));
    const all = answers.filter((a): a is MetricJson[] => a !== null);
    all.push(await own.getMetricsAsJSON());
    return AggregatorRegistry.aggregate(all).metrics();
  }

  cluster.on('message', (worker: Worker, m: unknown) => {
    if (!isMessage(m)) return;
    if (m.type === READY) ready.add(worker);
    else if (m.type === COLLECTED && m.id !== undefined) collecting.get(m.id)?.(m.metrics ?? null);
    else if (m.type === SCRAPE) {
      combined().then(
        (text) => sendTo(worker, { type: SCRAPED, id: m.id, text }),
        (err: unknown) => {
          logger.error({ err }, 'combining the workers\' metrics failed');
          sendTo(worker, { type: SCRAPED, id: m.id, error: String(err) });
        },
      );
    }
  });
  cluster.on('exit', (worker) => ready.delete(worker));
}
