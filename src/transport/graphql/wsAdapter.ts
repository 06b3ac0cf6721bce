/**
 * graphql-ws's server (makeServer) on a `ws` WebSocketServer: what the library's own useServer
 * (graphql-ws/use/ws) does — subprotocol negotiation, a ping every 12 s and termination when no
 * pong comes, close codes — except that a message of more than SLICED_JSON_BYTES is parsed in slices
 * of SEARCH_SLICE_MS by the scheduler that runs paused searches (../slicedJson.ts) and handed to the
 * server as its value, which graphql-ws takes in place of text (its parseMessage parses only
 * strings). useServer gives the server every message as text, parsed by JSON.parse at once: a
 * 900 KB message held the event loop for 25 to 55 ms. One connection's messages still reach the
 * server in the order sent: those after a large one wait for it. The value is JSON.parse's (the same
 * keys, `__proto__` an own one, numbers as JSON.parse reads them); a message that is not JSON closes
 * the connection with 4400 "Invalid message received", as graphql-ws does.
 */
import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { Slice, getDefaultSliceMs, runSliced } from '../../scheduler/scheduler';
import { SLICED_JSON_BYTES, parseJsonSteps, type JsonOutcome } from '../slicedJson';

/** A ping every this many ms; a connection whose pong has not come by the next is terminated (useServer's default). */
const KEEP_ALIVE_MS = 12_000;

/** Serves graphql-ws on `wss` (its `connection` events); `dispose` closes every connection and the server. */
export function serveGraphqlWs<P extends Record<string, unknown> | undefined>(options: ServerOptions<P, Extra>, wss: WebSocketServer): { dispose(): Promise<void> } {
  const server = makeServer(options);
  wss.options.handleProtocols = handleProtocols;
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    // (an error on one socket closes that one: unheard, it would end the process)
    socket.once('error', () => socket.close(CloseCode.InternalServerError, 'Internal server error'));
    let pongWait: NodeJS.Timeout | null = null;
    const pingInterval = setInterval(() => {
      if (socket.readyState !== socket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), KEEP_ALIVE_MS);
      socket.once('pong', () => {
        if (pongWait !== null) clearTimeout(pongWait);
        pongWait = null;
      });
      socket.ping();
    }, KEEP_ALIVE_MS);

    let handle: ((data: string) => Promise<void>) | null = null;
    const deliver = (data: string | object): void => {
      // (graphql-ws's parseMessage takes a value as it is; its type says text only)
      void handle?.(data as string).catch(() => socket.close(CloseCode.InternalServerError, 'Internal server error'));
    };
    const closed = server.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (err) => (err ? reject(err) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (cb) => {
          handle = cb;
        },
      },
      { socket, request },
    );

    /** Messages that arrived while a large one was being parsed, in order. */
    let waiting: RawData[] | null = null;
    const receive = (data: RawData): void => {
      const text = String(data);
      if (text.length <= SLICED_JSON_BYTES) return deliver(text);
      const slice = new Slice(getDefaultSliceMs());
      let outcome: JsonOutcome | Promise<JsonOutcome>;
      try {
        outcome = runSliced(parseJsonSteps(text, () => slice.over()), slice);
      } catch {
        outcome = { ok: false, message: 'unreadable' };
      }
      const parsed = (result: JsonOutcome): void => {
        if (result.ok) deliver(result.value as object);
        else socket.close(CloseCode.BadRequest, 'Invalid message received');
      };
      if (!(outcome instanceof Promise)) return parsed(outcome);
      waiting = [];
      outcome.then(parsed, () => parsed({ ok: false, message: 'unreadable' })).finally(() => {
        const next = waiting ?? [];
        waiting = null;
        for (let k = 0; k < next.length; k++) {
          if (waiting !== null) {
            // another large one: the rest wait for it
            (waiting as RawData[]).push(...next.slice(k));
            return;
          }
          receive(next[k]);
        }
      });
    };
    socket.on('message', (data: RawData) => {
      if (waiting !== null) waiting.push(data);
      else receive(data);
    });
    socket.once('close', (code, reason) => {
      if (pongWait !== null) clearTimeout(pongWait);
      clearInterval(pingInterval);
      void closed(code, String(reason));
    });
  });
  return {
    async dispose(): Promise<void> {
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
