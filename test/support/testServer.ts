/**
 * Starts the real service (the same createGateway as `npm start`) on 127.0.0.1 and an ephemeral port,
 * on a fresh temporary DATA_DIR unless one is given, and offers small HTTP and WebSocket clients.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { loadConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/log';
import { createGateway, type Gateway } from '../../src/server';

export interface TestServer {
  url: string;
  wsUrl: string;
  dataDir: string;
  config: Config;
  gateway: Gateway;
  /** A JWT signed with the server's secret. expiresInMs = -1: no expiry. */
  token(claims: { sub: string; tenantId?: string; roles?: string[]; [k: string]: unknown }, expiresInMs?: number): Promise<string>;
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export async function startTestServer(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gateway-test-'));
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...options.env });
  const gateway = createGateway(config, createLogger(config.logLevel));
  const port = await gateway.listen();
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/`,
    dataDir,
    config,
    gateway,
    token: (claims, expiresInMs = 3600_000) => gateway.deps.tokens.sign(claims, expiresInMs),
    async stop({ keepData = false } = {}) {
      await gateway.close();
      if (!keepData && options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** One HTTP request; `body` is sent as JSON unless `raw` is given. */
export async function request(
  server: Pick<TestServer, 'url'>,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token !== undefined) headers.Authorization = `Bearer ${opts.token}`;
  let payload: string | Buffer | undefined;
  if (opts.raw !== undefined) payload = opts.raw;
  else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (payload !== undefined && headers['Content-Type'] === undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(server.url + path, { method, headers, body: payload });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** A raw WebSocket client that matches answers to requests by `requestId`/`room`. */
export class SocketClient {
  private counter = 0;
  private readonly pending = new Map<string, (msg: any) => void>();
  /** Every message received, in order (answers, heartbeats, notifications). */
  readonly received: any[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const msg = JSON.parse(data.toString());
      this.received.push(msg);
      const key = msg.room ?? msg.requestId;
      const resolve = key !== undefined ? this.pending.get(key) : undefined;
      if (resolve) {
        this.pending.delete(key);
        resolve(msg);
      }
    });
  }

  static async connect(server: Pick<TestServer, 'wsUrl'>, headers: Record<string, string> = {}): Promise<SocketClient> {
    const socket = new WebSocket(server.wsUrl, { headers });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new SocketClient(socket);
  }

  /** Sends a message (a requestId is added when absent) and resolves with its answer. */
  send(message: Record<string, unknown>, timeoutMs = 5000): Promise<any> {
    const requestId = (message.requestId as string | undefined) ?? `req-${++this.counter}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error(`no answer to ${requestId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(requestId, (msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      this.socket.send(JSON.stringify({ requestId, ...message }));
    });
  }

  /** Sends raw text and resolves with the next message received. */
  sendRaw(text: string | Buffer, timeoutMs = 5000): Promise<any> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer to raw message')), timeoutMs);
      this.socket.once('message', (data) => {
        clearTimeout(timer);
        resolve(JSON.parse(data.toString()));
      });
      this.socket.send(text);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.readyState === WebSocket.CLOSED) return resolve();
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}
