/**
 * The real gateway in a child process, as the README starts it in production (`NODE_ENV=production`,
 * the compiled dist/src/main.js), on a free port and a DATA_DIR of the caller's: start it, wait until
 * a path answers 200, read its resident memory, stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { BENCH_SECRET } from './gateway';

export const alive = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

/** SIGTERM, then SIGKILL if it has not exited within `graceMs` (a gateway stuck in a search cannot run its handler). */
export function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (!alive(child)) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** A process's resident memory in MB (Linux /proc), or undefined once it has gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A process's main thread (the event loop's): the time it has run and the time it has waited for a
 * CPU while ready to run, in ms (Linux /proc/<pid>/schedstat), or undefined once it has gone.
 */
export function mainThreadSched(pid: number): { ranMs: number; waitedMs: number } | undefined {
  try {
    const [ran, waited] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return { ranMs: ran / 1e6, waitedMs: waited / 1e6 };
  } catch {
    return undefined;
  }
}

/** CPU time a process has used so far, all its threads, in ms (Linux /proc: utime + stime), or undefined once it has gone. */
export function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // (clock ticks of 10 ms)
  } catch {
    return undefined;
  }
}

/** BENCH_NODE_ARGS: more arguments for a benchmarked gateway's node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`, `--trace-gc`), split on spaces. */
export function benchNodeArgs(): string[] {
  return (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
}

/** The environment of a benchmarked gateway: this one's, with the embedded store on `dataDir`, in production, logging warnings only. */
export function gatewayEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    AUTH_SECRET: BENCH_SECRET,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ELASTICSEARCH_URL: '', // the embedded store, whatever the environment says
  };
}

export interface GatewayProcess {
  process: ChildProcess;
  port: number;
  /** Milliseconds from spawn until `readyPath` first answered 200. */
  readyMs: number;
}

/**
 * Starts dist/src/main.js (`distDir` holds dist/bench, `..` of it dist/src) with the embedded store
 * on `dataDir`, and resolves once `readyPath` answers 200 (polled every `pollMs`). Its stdout (the
 * log, LOG_LEVEL=warn) is read and dropped, or given to `stdout`; stderr is inherited. `nodeArgs`: more
 * arguments for node (e.g. --cpu-prof).
 */
export async function startGateway(
  distDir: string,
  dataDir: string,
  options: { readyPath?: string; timeoutMs?: number; pollMs?: number; env?: Record<string, string>; stdout?: (text: string) => void; nodeArgs?: string[] } = {},
): Promise<GatewayProcess> {
  const { readyPath = '/readyz', timeoutMs = 600_000, pollMs = 20 } = options;
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), join(distDir, '..', 'src', 'main.js')], { env: { ...gatewayEnv(port, dataDir), ...options.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const { stdout } = options;
  if (stdout === undefined) child.stdout!.resume();
  else child.stdout!.on('data', (chunk: Buffer) => stdout(chunk.toString('utf8')));
  for (;;) {
    if (!alive(child)) throw new Error(`the gateway exited (${child.signalCode ?? child.exitCode}) while starting`);
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`the gateway did not answer ${readyPath} within ${timeoutMs} ms`);
    }
    try {
      if ((await fetch(`http://127.0.0.1:${port}${readyPath}`, { signal: AbortSignal.timeout(1000) })).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return { process: child, port, readyMs: performance.now() - started };
}
