/**
 * Graceful HTTP stop: every request that has arrived is answered, and no client is left to reuse a
 * connection that is about to close.
 *
 * - every response written while stopping says `Connection: close`, so a kept-alive client opens a
 *   new connection (to another worker or instance) for its next request instead of writing it on
 *   this one as it closes (the ECONNRESET every HTTP/1.1 server can otherwise cause);
 * - a kept-alive connection that is idle is closed at once, and one with a request in flight as
 *   soon as that request is answered (events, not a poll of `closeIdleConnections()`);
 * - a connection that has not sent its request yet is left to send it;
 * - what is still open after `cutAfterMs` is cut.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface ConnectionState {
  served: boolean;
  /** Responses not yet finished. */
  active: Set<ServerResponse>;
}

export interface HttpDrain {
  /** Stops accepting, answers what has arrived, closes connections as described above. */
  drain(cutAfterMs: number): Promise<void>;
}

export function trackConnections(server: Server): HttpDrain {
  const connections = new Map<Socket, ConnectionState>();
  let draining = false;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { served: false, active: new Set() });
    socket.once('close', () => connections.delete(socket));
  });
  // first among the 'request' listeners: the handler may answer synchronously
  server.prependListener('request', (req, res: ServerResponse) => {
    const socket = req.socket as Socket;
    const state = connections.get(socket);
    if (draining) res.setHeader('Connection', 'close');
    if (state === undefined) return;
    state.served = true;
    state.active.add(res);
    res.once('close', () => {
      state.active.delete(res);
      if (draining && state.active.size === 0) socket.destroySoon();
    });
  });
  // an upgraded socket belongs to its WebSocket server from then on (closed there with 1001)
  server.on('upgrade', (_req, socket: Socket) => connections.delete(socket));

  return {
    drain(cutAfterMs) {
      draining = true;
      return new Promise<void>((resolve) => {
        const cut = setTimeout(() => {
          for (const socket of connections.keys()) socket.destroy();
        }, cutAfterMs);
        cut.unref();
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        for (const [socket, state] of connections) {
          if (state.served && state.active.size === 0) socket.destroySoon();
          for (const res of state.active) if (!res.headersSent) res.setHeader('Connection', 'close');
        }
      });
    },
  };
}
