/**
 * The HTTP client of bench:abuse's processes: one request at a time on a keep-alive agent, with a
 * client-side timeout (the request's socket is destroyed, so that the bench never hangs on a gateway
 * that does not answer), and the answer's outcome as a short label for the report.
 */
import http from 'node:http';

export interface Answer {
  /** HTTP status; 0 when no answer came (see `failure`). */
  status: number;
  body: Buffer;
  /** 'timeout' (the client gave up), or the socket error's code. */
  failure?: string;
  ms: number;
}

/** A keep-alive agent holding one connection: each bench client is one connection. */
export const oneConnection = (): http.Agent => new http.Agent({ keepAlive: true, maxSockets: 1 });

export function send(agent: http.Agent, port: number, method: 'GET' | 'POST', path: string, token: string | undefined, body: string | undefined, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    const finish = (status: number, payload: Buffer, failure?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, body: payload, failure, ms: performance.now() - started });
    };
    const headers: Record<string, string | number> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => finish(res.statusCode ?? 0, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
      res.on('error', (err: NodeJS.ErrnoException) => finish(0, EMPTY, err.code ?? err.message));
      res.on('close', () => {
        if (!res.complete) finish(0, EMPTY, 'aborted');
      });
    });
    const timer = setTimeout(() => {
      finish(0, EMPTY, 'timeout');
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish(0, EMPTY, err.code ?? err.message));
    req.end(body);
  });
}

const EMPTY = Buffer.alloc(0);
const TIMED_OUT = Buffer.from('"timed_out":true');

/**
 * "200", "200 timed_out", "400 services.storage.too_many_clauses", "client timeout", "error ECONNRESET";
 * with the error's message, if any. A 200's body is only searched for `"timed_out":true` (a 4 MB page
 * of hits is not parsed).
 */
export function outcome(answer: Answer): { label: string; message?: string } {
  if (answer.failure === 'timeout') return { label: 'client timeout' };
  if (answer.failure !== undefined) return { label: `error ${answer.failure}` };
  if (answer.status === 200) return { label: answer.body.indexOf(TIMED_OUT) >= 0 ? '200 timed_out' : '200' };
  try {
    const error = (JSON.parse(answer.body.toString()) as { error?: { id?: string; message?: string } }).error;
    return { label: error?.id === undefined ? String(answer.status) : `${answer.status} ${error.id}`, message: error?.message };
  } catch {
    return { label: String(answer.status), message: answer.body.toString().slice(0, 200) };
  }
}

/** Latencies and outcome counts of one kind of request, with the first error message of each outcome. */
export interface Tally {
  ms: number[];
  outcomes: Record<string, number>;
  messages: Record<string, string>;
}

export const tally = (): Tally => ({ ms: [], outcomes: {}, messages: {} });

export function record(into: Tally, answer: Answer): void {
  const { label, message } = outcome(answer);
  into.ms.push(answer.ms);
  into.outcomes[label] = (into.outcomes[label] ?? 0) + 1;
  if (message !== undefined) into.messages[label] ??= message;
}

/** Tallies merged (for the report, over the phases of one kind). */
export function merge(tallies: readonly Tally[]): Tally {
  const out = tally();
  for (const t of tallies) {
    for (const ms of t.ms) out.ms.push(ms);
    for (const [label, n] of Object.entries(t.outcomes)) out.outcomes[label] = (out.outcomes[label] ?? 0) + n;
    for (const [label, message] of Object.entries(t.messages)) out.messages[label] ??= message;
  }
  return out;
}
