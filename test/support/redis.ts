/**
 * A real redis-server for tests, on a free loopback port, started and stopped by the test (Debian's
 * `redis-server`, which .ci/run installs when missing). `REDIS_SERVER` names another binary.
 * Where none can be found, tests use `describeWithRedis`, which skips with a message saying so.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './processes';

const BINARY = process.env.REDIS_SERVER ?? 'redis-server';
export const REDIS_AVAILABLE = spawnSync(BINARY, ['--version'], { stdio: 'ignore' }).status === 0;
export const NO_REDIS = `skipped: no ${BINARY} on this machine (apt-get install -y redis-server)`;

export interface RedisServer {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start within 10 s:\n${out}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${out}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** describe() when redis-server is here, else a skipped block that says why. */
export const describeWithRedis = (title: string, body: () => void): void => (REDIS_AVAILABLE ? describe(title, body) : describe.skip(`${title} (${NO_REDIS})`, body));
