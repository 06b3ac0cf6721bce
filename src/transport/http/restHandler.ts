/**
 * REST under /v4/: a thin adapter on Node's http request, kept off express on purpose (it is the hot
 * path; see bench/). Path + query + body -> one ApiRequest -> the dispatcher -> the envelope, whose
 * status is the HTTP status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from '../../core/dispatch';
import { RATE_STATE, type Envelope } from '../../core/envelope';
import { ApiError, type Now } from '../../core/errors';
import { makeRequest } from '../../core/request';
import { setOwn } from '../../core/args';
import { envelopeInSlices, envelopeParts, joinParts, type EnvelopeParts } from '../envelopeJson';
import { DEFAULT_MAX_JSON_DEPTH } from '../jsonText';
import { bearerToken, requestIdFrom } from '../requestId';
import { rateLimitHeaders } from '../rateLimitHeaders';
import type { ClientAddressOf } from '../clientAddress';
import { envelopeRecord, now, type RequestObserver, type RequestRecord } from '../observe';
import { readJsonBody } from './readBody';
import { matchRoute } from './routes';
import { answerSoon } from '../../scheduler/scheduler';

export const REST_PREFIX = '/v4/';

/**
 * Writes the envelope as the response. A cached page of hits goes out as its stored UTF-8 bytes,
 * between the text before and after it, in one corked write: neither joined into a new string
 * nor encoded again: 10% less CPU per cached REST search, measured with both builds in one process
 * serving the load in turns of 100 ms.
 */
export function sendEnvelope(res: ServerResponse, envelope: Envelope): void {
  if (envelopeInSlices(envelope, (chunks) => sendChunks(res, envelope, chunks))) return;
  let parts: EnvelopeParts;
  try {
    parts = envelopeParts(envelope);
  } catch {
    // (what cannot be serialized must not throw from setImmediate, where nothing would catch it)
    envelope = errorEnvelope(envelope.requestId, new ApiError('core.fatal.unexpected_error'), envelope.controller, envelope.action);
    parts = envelopeParts(envelope);
  }
  const { head, hits, tail } = parts;
  if (hits === null || typeof hits === 'string') {
    const payload = joinParts(parts);
    const body = payload.length < BYTES_FROM_CHARS ? payload : Buffer.from(payload, 'utf8');
    res.writeHead(envelope.status, headers(envelope, Buffer.byteLength(body)));
    res.end(body);
    return;
  }
  const bytes = hits.utf8;
  res.writeHead(envelope.status, headers(envelope, Buffer.byteLength(head) + bytes.length + Buffer.byteLength(tail)));
  res.cork();
  res.write(head);
  res.write(bytes);
  res.end(tail);
}

/**
 * An answer of this many characters or more is made into bytes (Buffer.from) before it is written:
 * Node writes a large string about twice as slowly as its bytes (the answer of a 1,000-entity
 * _bulk, 490 KB: 1.6 ms instead of 0.8 ms, both conversions included; the same for a 370-byte one).
 */
const BYTES_FROM_CHARS = 16 * 1024;

/** A large page's bytes (envelopeInSlices, made in slices), written in one corked write. */
function sendChunks(res: ServerResponse, envelope: Envelope, chunks: Buffer[] | null): void {
  if (chunks === null) return sendEnvelope(res, errorEnvelope(envelope.requestId, new ApiError('core.fatal.unexpected_error'), envelope.controller, envelope.action));
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  res.writeHead(envelope.status, headers(envelope, length));
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.end();
}

/**
 * (as a flat list: Node's quicker path) With the RateLimit headers of the limit that applied to the
 * request, if one did, and the Retry-After of any other 429 whose error says when to retry (a full
 * search queue).
 */
function headers(envelope: Envelope, length: number): string[] {
  const list = ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(length), 'X-Request-Id', envelope.requestId];
  const rate = envelope[RATE_STATE];
  if (rate !== undefined) list.push(...rateLimitHeaders(rate));
  const retryAfter = envelope.error?.props?.retryAfter;
  if (envelope.status === 429 && typeof retryAfter === 'number' && !list.includes('Retry-After')) list.push('Retry-After', String(retryAfter));
  return list;
}

export function errorEnvelope(requestId: string, error: ApiError, controller: string | null = null, action: string | null = null): Envelope {
  return { requestId, status: error.status, error: error.toObject(), controller, action, collection: null, index: null, volatile: null, result: null };
}

/** The query parameters, the first of each name; any name is a plain key (`__proto__` too). */
function queryArgs(search: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(search)) if (!Object.hasOwn(args, key)) setOwn(args, key, value);
  return args;
}

/** The socket's address, X-Forwarded-For unread (TRUST_PROXY=0). */
const socketAddress: ClientAddressOf = (req) => req.socket.remoteAddress ?? null;

/** The path of a request, without its query string. */
const pathOf = (req: IncomingMessage): string => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/**
 * `failed` hears of what should never happen (the dispatcher maps every expected failure).
 * `maxJsonDepth`: MAX_JSON_DEPTH, the deepest nesting of a body. `clientOf`: the address a request
 * counts against (transport/clientAddress.ts). `observer`: told of each request once answered
 * (metrics, access log).
 */
export function createRestHandler(
  dispatcher: Dispatcher,
  maxBodyBytes: number,
  failed: (err: unknown) => void,
  maxJsonDepth = DEFAULT_MAX_JSON_DEPTH,
  clientOf = socketAddress,
  observer?: RequestObserver,
  maxBulkBytes = maxBodyBytes,
) {
  const json = { maxDepth: maxJsonDepth };
  const record = (req: IncomingMessage, envelope: Envelope, startedAt: number): RequestRecord =>
    envelopeRecord('rest', envelope, startedAt, clientOf(req), req.method, pathOf(req));
  const sendObserved = (res: ServerResponse, envelope: Envelope, req: IncomingMessage, startedAt: number) => {
    sendEnvelope(res, envelope);
    observer!.request(record(req, envelope, startedAt));
  };
  /**
   * The answer is written from the check phase (answerSoon: as setImmediate, but before the next
   * slice of a paused search), after the event loop has read every request that was ready: under
   * load this batches the writes, and measured 10-25% less CPU per request than writing from the
   * microtask that produced the envelope (bench:transports). Then, when observed, its record.
   */
  const reply = (req: IncomingMessage, res: ServerResponse, envelope: Envelope, startedAt: number) => {
    if (observer === undefined) answerSoon(() => sendEnvelope(res, envelope));
    else answerSoon(() => sendObserved(res, envelope, req, startedAt));
  };
  const broken = (req: IncomingMessage, res: ServerResponse, err: unknown, startedAt: number) => {
    failed(err);
    if (!res.headersSent) res.writeHead(500).end();
    observer?.request(record(req, errorEnvelope(requestIdFrom(req.headers['x-request-id']), new ApiError('core.fatal.unexpected_error')), startedAt));
  };
  return function handleRest(req: IncomingMessage, res: ServerResponse): void {
    const startedAt = observer === undefined ? 0 : now();
    const requestId = requestIdFrom(req.headers['x-request-id']);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q === -1 ? url : url.slice(0, q)).slice(REST_PREFIX.length);
    const route = matchRoute(req.method ?? 'GET', path);
    if (route === null) {
      req.resume();
      return reply(req, res, errorEnvelope(requestId, new ApiError('api.process.action_not_found', { what: `Route "${req.method} ${url.split('?')[0]}"` })), startedAt);
    }
    // _bulk: its own limit (MAX_BULK_BYTES), and NDJSON too
    const bulk = route.controller === 'document' && route.action === 'mCreate';
    readJsonBody(
      req,
      bulk ? maxBulkBytes : maxBodyBytes,
      (body) => {
        if (!body.ok) {
          res.setHeader('Connection', 'close');
          return reply(req, res, errorEnvelope(requestId, body.error, route.controller, route.action), startedAt);
        }
        let envelope: Now<Envelope>;
        try {
          envelope = dispatcher.dispatch(
            makeRequest({
              controller: route.controller,
              action: route.action,
              collection: route.collection,
              _id: route._id,
              body: body.body,
              bodyText: body.text,
              args: q === -1 ? {} : queryArgs(url.slice(q + 1)),
              jwt: bearerToken(req.headers.authorization),
              requestId,
              client: clientOf(req),
            }),
          );
        } catch (err) {
          return broken(req, res, err, startedAt);
        }
        if (envelope instanceof Promise) envelope.then((e) => reply(req, res, e, startedAt), (err: unknown) => broken(req, res, err, startedAt));
        else reply(req, res, envelope, startedAt);
      },
      json,
      bulk,
    );
  };
}
