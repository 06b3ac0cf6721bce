/**
 * Starts the service as users run it, in its own process (`node src/main.ts` through swcRegister.js,
 * the same code `npm start` builds): for what only a real process shows, WORKERS (node:cluster),
 * signals, several gateways on one DATA_DIR. It listens on 127.0.0.1 on a free port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenService } from '../../src/core/auth/tokens';

const ROOT = join(__dirname, '..', '..');
export const PROCESS_SECRET = 'a-test-secret-of-at-least-32-characters!';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface GatewayProcess {
  url: string;
  wsUrl: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Its log, one parsed pino line each (lines that are not JSON as {text}). */
  logs: Record<string, unknown>[];
  token(claims: { sub: string; tenantId?: string; roles?: string[] }, expiresInMs?: number): Promise<string>;
  /** Resolves with the first log line (past or future) whose msg is `msg`. */
  waitForLog(msg: string, timeoutMs?: number, from?: number): Promise<Record<string, unknown>>;
  /** SIGTERM, then SIGKILL after `graceMs`; removes DATA_DIR unless it was given. */
  stop(graceMs?: number): Promise<void>;
}

/** Starts `node src/main.ts`; resolves once it logs `readyMsg` ("every worker listening" with WORKERS > 1). */
export async function startGatewayProcess(options: { env?: Record<string, string>; dataDir?: string; readyMsg?: string } = {}): Promise<GatewayProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gateway-process-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--require', join(ROOT, 'test', 'support', 'swcRegister.js'), join(ROOT, 'src', 'main.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, AUTH_SECRET: PROCESS_SECRET, LOG_LEVEL: 'info', DEMO_DATA: 'false', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const waiters: { msg: string; from: number; resolve: (line: Record<string, unknown>) => void }[] = [];
  let pending = '';
  const onData = (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop()!;
    for (const text of lines) {
      if (text.trim() === '') continue;
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        line = { text };
      }
      logs.push(line);
      for (const w of [...waiters]) {
        if (line.msg === w.msg && logs.length - 1 >= w.from) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const tokens = new TokenService(new TextEncoder().encode(PROCESS_SECRET));
  const gateway: GatewayProcess = {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/`,
    port,
    dataDir,
    child,
    logs,
    token: (claims, expiresInMs = 3600_000) => tokens.sign(claims, expiresInMs),
    waitForLog(msg, timeoutMs = 20_000, from = 0) {
      const seen = logs.slice(from).find((l) => l.msg === msg);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "${msg}" in the log within ${timeoutMs} ms; log:\n${logs.map((l) => JSON.stringify(l)).join('\n')}`)), timeoutMs);
        const onExit = () => reject(new Error(`the gateway exited before logging "${msg}"; log:\n${logs.map((l) => JSON.stringify(l)).join('\n')}`));
        child.once('exit', onExit);
        waiters.push({
          msg,
          from,
          resolve: (line) => {
            clearTimeout(timer);
            child.off('exit', onExit);
            resolve(line);
          },
        });
      });
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        });
      }
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await gateway.waitForLog(options.readyMsg ?? 'entity gateway listening', 60_000);
  return gateway;
}

/**
 * A client with its own connections: `keepAlive` true, one kept-alive connection (with WORKERS, a
 * connection is served by one worker, and node:cluster gives each new one to the next worker);
 * false, a new connection per request.
 */
export function httpClient(base: string, keepAlive = true) {
  const agent = new Agent({ keepAlive, maxSockets: 1 });
  return {
    call(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: any }> {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const req = httpRequest(base + path, {
          method,
          agent,
          headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) } : {}) },
        });
        req.once('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }));
        });
        req.once('error', reject);
        // never wait forever: a request with no answer is a failure the test reports
        req.setTimeout(15_000, () => req.destroy(Object.assign(new Error('no answer within 15 s'), { code: 'NO_ANSWER' })));
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}
