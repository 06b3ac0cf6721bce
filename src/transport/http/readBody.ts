/**
 * Reads a JSON request body within the size limit. Failures are the catalogue's errors: network
 * errors, and those of jsonText.ts (bytes that are not UTF-8, nesting over MAX_JSON_DEPTH, numbers
 * out of range).
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { NdjsonBody } from '../../core/entities/bulkNdjson';
import { ApiError } from '../../core/errors';
import { DEFAULT_MAX_JSON_DEPTH, parseJsonBytes, type JsonLimits } from '../jsonText';
import { parseJsonBytesSliced } from '../slicedJson';

/** `text`: the body as received (null when there was none). */
export type BodyOutcome = { ok: true; body: unknown; text: string | null } | { ok: false; error: ApiError };

/** application/json, or any application/…+json. */
export const isJson = (contentType: string): boolean => {
  if (contentType === 'application/json') return true;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
};

/**
 * Calls `done` once with the body or the error. A callback, not a promise: REST and GraphQL read
 * every request body through it, and a promise per request measured slower (bench:transports).
 * `json`: the nesting limit (MAX_JSON_DEPTH, default 1000) and the levels the way in wraps around
 * the request's values (GraphQL: 2). `acceptNdjson` (the _bulk route): an application/x-ndjson
 * body is handed over as its bytes (core/entities/bulkNdjson.ts), each line read as JSON later.
 */
export function readJsonBody(
  req: IncomingMessage,
  limit: number,
  done: (outcome: BodyOutcome) => void,
  json: JsonLimits = { maxDepth: DEFAULT_MAX_JSON_DEPTH },
  acceptNdjson = false,
): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    req.resume();
    return done({ ok: false, error: new ApiError('network.http.request_too_large', { limit }) });
  }
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let finished = false;
  const finish = (outcome: BodyOutcome) => {
    if (!finished) {
      finished = true;
      done(outcome);
    }
  };
  req.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > limit) {
      finish({ ok: false, error: new ApiError('network.http.request_too_large', { limit }) });
      req.resume();
      return;
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  });
  req.on('error', () => finish({ ok: false, error: new ApiError('network.http.body_parse_failed', { reason: 'the request was interrupted' }) }));
  req.on('end', () => {
    if (size === 0) return finish({ ok: true, body: undefined, text: null });
    const contentType = req.headers['content-type'];
    if (acceptNdjson && contentType !== undefined && isNdjson(contentType)) {
      const bytes = chunks === undefined ? (first as Buffer) : Buffer.concat(chunks, size);
      return finish({ ok: true, body: new NdjsonBody(bytes, (line) => parseJsonBytes(line, json)), text: null });
    }
    if (contentType === undefined || !isJson(contentType)) {
      return finish({
        ok: false,
        error: new ApiError('network.http.body_parse_failed', { reason: `Content-Type must be application/json (got "${contentType ?? 'none'}")` }),
      });
    }
    const bytes = chunks === undefined ? (first as Buffer) : Buffer.concat(chunks, size);
    // a large body is parsed in slices (../slicedJson.ts): answered later, other requests served meanwhile
    parseJsonBytesSliced(bytes, json, (parsed) => {
      if (!parsed.ok) {
        if (isBlank(bytes)) return finish({ ok: true, body: undefined, text: null });
        return finish(parsed);
      }
      finish({ ok: true, body: parsed.value, text: parsed.text });
    });
  });
}

/** application/x-ndjson (Elasticsearch's _bulk), or its older name application/x-ldjson. */
export const isNdjson = (contentType: string): boolean => {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/x-ndjson' || type === 'application/x-ldjson';
};

/** Only whitespace (a body of spaces counts as no body). */
const isBlank = (bytes: Buffer): boolean => isUtf8(bytes) && bytes.toString('utf8').trim() === '';
