import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { Dispatcher } from '../../core/dispatch';
import type { ApiRequest } from '../../core/request';
import { getDefaultSliceMs, setDefaultSliceMs } from '../../scheduler/scheduler';
import { createRawSocketServer } from './rawSocket';

/** A dispatcher that notes the order requests reach it, and answers each at once. */
function recordingDispatcher(log: string[]): Dispatcher {
  return {
    dispatch(req: ApiRequest) {
      log.push(req.requestId);
      return { requestId: req.requestId, status: 200, error: null, controller: req.controller, action: req.action, collection: null, index: null, volatile: null, result: {} };
    },
  } as unknown as Dispatcher;
}

describe('the raw WebSocket', () => {
  const saved = getDefaultSliceMs();
  let server: Server;
  let url: string;
  const dispatched: string[] = [];

  beforeAll(async () => {
    // slices of 0 ms: a large message always takes more than one
    setDefaultSliceMs(0);
    const wss = createRawSocketServer({ dispatcher: recordingDispatcher(dispatched), maxMessageBytes: 1024 * 1024 });
    server = createServer();
    server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(async () => {
    setDefaultSliceMs(saved);
    await new Promise((resolve) => server.close(resolve));
  });

  it('hands one connection\'s requests to the core in the order sent, a large message parsed in slices first', async () => {
    const socket = new WebSocket(url);
    await new Promise((resolve) => socket.once('open', resolve));
    const answered: string[] = [];
    const done = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        answered.push(JSON.parse(data.toString()).requestId);
        if (answered.length === 3) resolve();
      }),
    );
    const message = (requestId: string, body: object) => JSON.stringify({ controller: 'document', action: 'search', requestId, body });
    socket.send(message('large', { query: { terms: { name: Array.from({ length: 60_000 }, (_, i) => `v${i}`) } } }));
    socket.send(message('small', { query: { match_all: {} } }));
    socket.send(message('small too', { size: 1 }));
    await done;
    expect(dispatched).toEqual(['large', 'small', 'small too']);
    expect(answered).toEqual(['large', 'small', 'small too']);
    socket.close();
  });
});
