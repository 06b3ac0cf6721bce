/**
 * The raw Kuzzle-style WebSocket at `/`: each JSON message `{controller, action, ...}` is one
 * request, answered with the envelope plus `room` (= requestId). `{"p":1}` is a heartbeat,
 * answered `{"p":2}`. A bad message gets an error envelope; it never closes the connection: not
 * for bytes that are not UTF-8 (ws's own check, which closes with 1007, is off: jsonText.ts checks),
 * not for JSON nested deeper than MAX_JSON_DEPTH, not for a number out of range.
 */
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Dispatcher } from '../../core/dispatch';
import type { Envelope } from '../../core/envelope';
import { ApiError } from '../../core/errors';
import { makeRequest, type ApiRequest } from '../../core/request';
import { isPlainObject, setOwn } from '../../core/args';
import { envelopeInSlices, envelopeJson } from '../envelopeJson';
import { bearerToken, requestIdFrom } from '../requestId';
import { errorEnvelope } from '../http/restHandler';
import { DEFAULT_MAX_JSON_DEPTH, type ParsedJson } from '../jsonText';
import { parseJsonBytesSliced } from '../slicedJson';
import { answerSoon } from '../../scheduler/scheduler';
import { envelopeRecord, now, type RequestObserver } from '../observe';

/** Top-level message fields with a place of their own in the request; every other field is an argument. */
const OWN_FIELDS = new Set(['controller', 'action', 'index', 'collection', '_id', 'body', 'jwt', 'requestId', 'volatile', 'room']);

/** What an extension may send on its connection: the answer to a request, and messages of its own. */
export interface SocketOutput {
  reply(envelope: Envelope): void;
  push(message: object): void;
}

/** A controller that lives outside the dispatcher (realtime subscriptions). */
export interface SocketExtension {
  controller: string;
  handle(socket: WebSocket, req: ApiRequest, out: SocketOutput): Promise<void>;
}

export interface RawSocketOptions {
  dispatcher: Dispatcher;
  maxMessageBytes: number;
  /** MAX_JSON_DEPTH: how deep each field of a message (its body, ...) may nest; default 1000. */
  maxJsonDepth?: number;
  extensions?: SocketExtension[];
  /** The client address of a connection (from its upgrade request), for the rate limits. */
  clientOf?: (upgrade: IncomingMessage) => string | null;
  /** Told of each message answered (metrics, access log). */
  observer?: RequestObserver;
}

function toRequest(message: Record<string, unknown>, fallbackJwt: string | null, client: string | null): ApiRequest {
  const args: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(message)) if (!OWN_FIELDS.has(k)) setOwn(args, k, v); // (`__proto__` is a plain, unknown argument)
  const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return makeRequest({
    controller: str(message.controller) ?? '',
    action: str(message.action) ?? '',
    index: str(message.index),
    collection: str(message.collection),
    _id: str(message._id),
    body: message.body,
    args,
    jwt: str(message.jwt) ?? fallbackJwt,
    requestId: typeof message.requestId === 'string' && message.requestId !== '' ? message.requestId : requestIdFrom(undefined),
    volatile: isPlainObject(message.volatile) ? message.volatile : null,
    client,
  });
}

/**
 * The answer to a request: the envelope plus `room` (= requestId), written out member by member
 * in the envelope's order. A spread (`{...envelope, room}`) measured 9% more CPU per raw WebSocket
 * search, with both versions in one process serving the load in turns of 100 ms.
 */
const withRoom = (e: Envelope) => ({
  requestId: e.requestId,
  status: e.status,
  error: e.error,
  controller: e.controller,
  action: e.action,
  collection: e.collection,
  index: e.index,
  volatile: e.volatile,
  result: e.result,
  room: e.requestId,
});

export function createRawSocketServer({ dispatcher, maxMessageBytes, maxJsonDepth = DEFAULT_MAX_JSON_DEPTH, extensions = [], clientOf = (upgrade) => upgrade.socket.remoteAddress ?? null, observer }: RawSocketOptions): WebSocketServer {
  // Frames up to 8x the message limit are read and answered with an error envelope; larger ones
  // are refused by ws itself (close 1009), which protects memory. Text frames that are not UTF-8
  // are answered too, as REST bodies are (ws would close the connection with 1007).
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes * 8, perMessageDeflate: false, skipUTF8Validation: true });
  // a message is an object whose fields are the request's values: one level more than a REST body
  const json = { maxDepth: maxJsonDepth, wrapping: 1 };

  const byController = new Map(extensions.map((e) => [e.controller, e]));

  /** The room of a message about to be sent, for the error sent in its place. */
  const requestIdOf = (payload: object): string => {
    const room = (payload as { room?: unknown }).room;
    return typeof room === 'string' ? room : requestIdFrom(undefined);
  };

  wss.on('connection', (socket: WebSocket, upgrade: IncomingMessage) => {
    const upgradeJwt = bearerToken(upgrade.headers.authorization);
    const client = clientOf(upgrade);
    const write = (payload: object) => {
      if (socket.readyState !== socket.OPEN) return;
      // a large page: made in slices, sent as one text message, a frame per slice's bytes (fragments: never joined into one buffer)
      const inSlices = envelopeInSlices(payload, (chunks) => {
        if (chunks === null) return write(withRoom(errorEnvelope(requestIdOf(payload), new ApiError('core.fatal.unexpected_error'))));
        if (socket.readyState !== socket.OPEN) return;
        chunks.forEach((chunk, i) => socket.send(chunk, { binary: false, fin: i === chunks.length - 1 }));
      });
      if (inSlices) return;
      let text: string;
      try {
        text = envelopeJson(payload);
      } catch {
        // (what cannot be serialized, say JSON nested past JSON.stringify's stack, must not throw from setImmediate)
        text = envelopeJson(withRoom(errorEnvelope(requestIdOf(payload), new ApiError('core.fatal.unexpected_error'))));
      }
      // always a text frame, also when the JSON comes as bytes
      socket.send(text, { binary: false });
    };
    // Every message leaves from the check phase (answerSoon: as setImmediate, first in first out,
    // so in the order made, but before the next slice of a paused search; requests sent together
    // are answered as each finishes, matched by room = requestId): under load the frames of many
    // connections are written in one batch, as REST answers are.
    const send = (payload: object) => answerSoon(() => write(payload));
    const reply = (envelope: Envelope) => send(withRoom(envelope));
    const out: SocketOutput = { reply, push: send };

    // ws reports a frame it refuses (over maxPayload: 1009; unmasked, a reserved opcode or bit, a
    // bad close code: 1002) as an 'error' event, then closes that connection itself. Unheard, the
    // event would be thrown, and end the whole process.
    socket.on('error', () => undefined);
    /**
     * Messages that arrived while a large one was being parsed in slices (../slicedJson.ts), in
     * order: they are handled after it, so that one connection's requests still reach the core in
     * the order they were sent.
     */
    let waiting: { data: RawData; startedAt: number }[] | null = null;
    socket.on('message', (data: RawData) => {
      const startedAt = observer === undefined ? 0 : now();
      if (waiting !== null) waiting.push({ data, startedAt });
      else receive(data, startedAt);
    });

    function receive(data: RawData, startedAt: number): void {
      /** The answer to this message, then its record (metrics, access log), when observed. */
      const answer =
        observer === undefined
          ? reply
          : (envelope: Envelope) => {
              reply(envelope);
              observer.request(envelopeRecord('websocket', envelope, startedAt, client));
            };
      const buffer = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      if (buffer.length > maxMessageBytes) {
        return answer(errorEnvelope(requestIdFrom(undefined), new ApiError('network.http.request_too_large', { limit: maxMessageBytes })));
      }
      let sync = true;
      let parsed = false;
      parseJsonBytesSliced(buffer, json, (outcome) => {
        parsed = true;
        void handle(outcome, answer).catch(() => answer(errorEnvelope(requestIdFrom(undefined), new ApiError('core.fatal.unexpected_error'))));
        if (!sync) receiveWaiting();
      });
      sync = false;
      // a large message, parsed in slices: the next ones wait for it
      if (!parsed) waiting ??= [];
    }

    /** The messages that waited for a large one, in order, until another large one makes the rest wait again. */
    function receiveWaiting(): void {
      const queue = waiting ?? [];
      waiting = null;
      for (let k = 0; k < queue.length; k++) {
        // (receive may have set it: TypeScript cannot tell)
        const held = waiting as { data: RawData; startedAt: number }[] | null;
        if (held !== null) {
          held.push(...queue.slice(k));
          return;
        }
        receive(queue[k].data, queue[k].startedAt);
      }
    }

    async function handle(parsed: ParsedJson, reply: (envelope: Envelope) => void): Promise<void> {
      // (a binary frame holding a JSON message is read as a text frame is)
      if (!parsed.ok) return reply(errorEnvelope(requestIdFrom(undefined), parsed.error));
      const message = parsed.value;
      if (!isPlainObject(message)) {
        return reply(errorEnvelope(requestIdFrom(undefined), new ApiError('network.http.body_parse_failed', { reason: 'a message must be a JSON object' })));
      }
      if (message.p === 1 && message.controller === undefined) return send({ p: 2 });
      const req = toRequest(message, upgradeJwt, client);
      const extension = byController.get(req.controller);
      if (extension !== undefined) return extension.handle(socket, req, observer === undefined ? out : { reply, push: send });
      const envelope = dispatcher.dispatch(req);
      reply(envelope instanceof Promise ? await envelope : envelope);
    }
  });
  return wss;
}
