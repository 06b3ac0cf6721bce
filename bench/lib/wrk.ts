/** HTTP load with wrk (C, one thread): requests/s and latency percentiles for one POST. */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface LoadResult {
  /** Requests answered in the whole run (wrk: all of it; the WebSocket generator: warm-up included). */
  requests: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export function hasWrk(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    return (err as { status?: number }).status === 1; // wrk --version exits 1 after printing
  }
}

const toMs = (value: string, unit: string): number => Number(value) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[unit];

/** wrk's arguments for `seconds` of POSTs of `body` to `url` (its Lua script written to a temporary file). */
function wrkArgs(url: string, body: string, headers: Record<string, string>, opts: { connections: number; seconds: number }): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'wrk-'));
  const script = join(dir, 'post.lua');
  const lines = [`wrk.method = "POST"`, `wrk.body = ${JSON.stringify(body)}`];
  for (const [k, v] of Object.entries(headers)) lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  // (no `response` callback: wrk would hand every answer to Lua, and become the bottleneck; it
  // counts non-2xx answers itself)
  writeFileSync(script, lines.join('\n'));
  return ['-t1', `-c${opts.connections}`, `-d${opts.seconds}s`, '--latency', '-s', script, url];
}

function parseWrk(out: string): LoadResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const requests = /(\d+) requests in/.exec(out);
  const p50 = /\s50%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  if (!rps || !requests || !p50 || !p99) throw new Error(`cannot read wrk output:\n${out}`);
  const errors = Number(non2xx?.[1] ?? 0) + (socketErrors ? socketErrors.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  return { requests: Number(requests[1]), requestsPerSec: Number(rps[1]), p50Ms: toMs(p50[1], p50[2]), p99Ms: toMs(p99[1], p99[2]), errors };
}

export function wrkPost(url: string, body: string, headers: Record<string, string>, opts: { connections: number; seconds: number }): LoadResult {
  return parseWrk(execFileSync('wrk', wrkArgs(url, body, headers, opts), { encoding: 'utf8' }));
}

/** wrkPost without blocking this process's event loop (for servers running in it). */
export async function wrkPostAsync(url: string, body: string, headers: Record<string, string>, opts: { connections: number; seconds: number }): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)('wrk', wrkArgs(url, body, headers, opts), { encoding: 'utf8' });
  return parseWrk(stdout);
}
