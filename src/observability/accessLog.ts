/**
 * The access log (README "Observability"): one pino line at `info` per request answered, with
 * fields chosen one by one from the transports' record (never a token, an Authorization header or
 * an API key's token: the record holds none). Lines go through a LineBatcher to stdout.
 *
 * Its own pino logger, without the service log's redaction paths: the redaction made each line
 * cost 12 µs instead of 6 here, and an access line has no field to redact.
 */
import pino, { type Level } from 'pino';
import type { RequestRecord } from '../transport/observe';
import { LineBatcher } from './lineBatcher';

export type AccessLog = (record: RequestRecord, durationMs: number) => void;

/** Client-given strings are cut to this many characters in the log (what is long is not worth a long line). */
const CLIP = 128;
const clip = (text: string | undefined, max = CLIP): string | undefined => (text === undefined || text.length <= max ? text : `${text.slice(0, max)}…`);

/** The fields of a record's line, in this order (undefined ones are left out). */
export function accessLine(r: RequestRecord, durationMs: number): Record<string, unknown> {
  return {
    transport: r.transport,
    method: r.method,
    path: clip(r.path, 256),
    controller: r.known ? r.controller : clip(r.controller),
    action: r.known ? r.action : clip(r.action),
    operationName: clip(r.operationName),
    status: r.status,
    error: r.error,
    durationMs: Math.round(durationMs * 1000) / 1000,
    requestId: clip(r.requestId),
    client: r.client ?? undefined,
    userId: r.caller?.userId,
    tenantId: r.caller?.tenantId ?? undefined,
    apiKeyId: r.caller?.apiKeyId ?? undefined,
  };
}

let stdout: LineBatcher | undefined;

/**
 * One batcher for the process's stdout, written at exit too. Through process.stdout, which Node
 * writes synchronously to files, terminals and pipes on Linux: a full pipe is waited out in one
 * write. (pino's synchronous destination, sonic-boom, retried a full pipe recursively and overflowed
 * the stack under load: bench:transports' raw WebSocket rows ended the gateway.)
 */
function stdoutLines(): LineBatcher {
  if (stdout === undefined) {
    const batcher = new LineBatcher((chunk) => void process.stdout.write(chunk));
    process.once('exit', () => batcher.flush());
    stdout = batcher;
  }
  return stdout;
}

/**
 * The access log at `level` (LOG_LEVEL); null when it would write nothing (a level above info).
 * `worker`: WORKERS > 1, this worker's number, on every line. `out`: where lines go (default stdout).
 */
export function createAccessLog(level: Level | 'silent', worker?: string, out: { write(line: string): void } = stdoutLines()): AccessLog | null {
  const logger = pino({ level, base: worker === undefined ? undefined : { worker } }, out);
  if (!logger.isLevelEnabled('info')) return null;
  return (record, durationMs) => logger.info(accessLine(record, durationMs), 'request');
}
