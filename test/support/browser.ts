/**
 * Test support: a real headless Chromium opening a page served from its own origin, which reports
 * back what its script saw. No driver library: the page posts its findings to its own server.
 * Debian: `apt-get install -y chromium-headless-shell` (or `chromium`); elsewhere set CHROMIUM_PATH.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CANDIDATES = ['chromium-headless-shell', 'chromium', 'chromium-browser', 'google-chrome'];

/** The browser's executable, or why there is none. */
export function findChromium(): { path: string } | { missing: string } {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== '') return existsSync(fromEnv) ? { path: fromEnv } : { missing: `CHROMIUM_PATH=${fromEnv} does not exist` };
  for (const name of CANDIDATES) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim() !== '') return { path: found.stdout.trim() };
  }
  return { missing: `no ${CANDIDATES.join(', ')} on the PATH (nor CHROMIUM_PATH)` };
}

/** A page on http://127.0.0.1:<port>: `html` at `/`, and what its script POSTs to `/report`. */
export interface PageServer {
  origin: string;
  /** Serves `html` at `/` from now on. */
  setPage(html: string): void;
  /** The next report's body (parsed JSON). */
  nextReport(): Promise<unknown>;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  let html = '<!doctype html><title>empty</title>';
  const waiting: ((body: unknown) => void)[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/report') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(204).end();
        waiting.shift()?.(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      });
      return;
    }
    if (req.url === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(html);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setPage: (page) => (html = page),
    nextReport: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Opens `url` in headless Chromium, waits for the page's report (at most `waitMs`), then ends the
 * browser (its whole process group: it was started detached, in a group of its own).
 */
export async function visit(browser: string, page: PageServer, url: string, waitMs = 60_000): Promise<unknown> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const report = page.nextReport();
  const child = spawn(
    browser,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-extensions', `--user-data-dir=${profile}`, url],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4000)));
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      report,
      new Promise((_, reject) => {
        child.once('exit', (code) => reject(new Error(`the browser exited (${code}) before the page reported:\n${stderr}`)));
        timer = setTimeout(() => reject(new Error(`no report from the page within ${waitMs} ms; the browser said:\n${stderr}`)), waitMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (child.pid !== undefined) {
      const exited = child.exitCode === null && child.signalCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the whole group is gone already
      }
      await exited;
    }
    rmSync(profile, { recursive: true, force: true });
  }
}
