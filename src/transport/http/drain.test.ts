import { createServer, type RequestListener, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { trackConnections } from './drain';

const servers: Server[] = [];

async function start(handler: RequestListener = (_req, res) => res.end('ok')) {
  const server = createServer({ keepAliveTimeout: 60_000 }, handler);
  servers.push(server);
  const drain = trackConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, drain, port: (server.address() as AddressInfo).port };
}

afterAll(() => {
  for (const s of servers) s.closeAllConnections();
});

/** A raw connection, to control when the request is written and to read exactly what comes back. */
async function open(port: number): Promise<{ socket: Socket; received: () => string; ended: Promise<'end' | 'reset'> }> {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  const ended = new Promise<'end' | 'reset'>((resolve) => {
    socket.once('end', () => resolve('end'));
    socket.once('error', () => resolve('reset'));
  });
  return { socket, received: () => text, ended };
}

const GET = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';

it('answers a request that arrives on a connection opened before the stop, with Connection: close', async () => {
  const { drain, port } = await start();
  const fresh = await open(port);
  const drained = drain.drain(5000);
  fresh.socket.write(GET);
  expect(await fresh.ended).toBe('end');
  expect(fresh.received()).toMatch(/^HTTP\/1\.1 200 OK/);
  expect(fresh.received()).toMatch(/\r\nConnection: close\r\n/i);
  await drained;
});

it('closes an idle kept-alive connection at once, and one with a request in flight once answered', async () => {
  let release: () => void = () => {};
  const { drain, port } = await start((req, res) => {
    if (req.url === '/slow') release = () => res.end('slow');
    else res.end('ok');
  });
  const idle = await open(port);
  idle.socket.write(GET);
  const busy = await open(port);
  busy.socket.write(GET);
  await new Promise((r) => setTimeout(r, 50));
  busy.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((r) => setTimeout(r, 50));
  let drainedYet = false;
  const drained = drain.drain(5000).then(() => (drainedYet = true));
  expect(await idle.ended).toBe('end');
  expect(drainedYet).toBe(false);
  release();
  expect(await busy.ended).toBe('end');
  // the answer in flight tells the client not to reuse the connection
  expect(busy.received()).toMatch(/\r\nConnection: close\r\n[^]*slow$/i);
  await drained;
});

it('refuses new connections once stopped, and cuts what is still open after the delay', async () => {
  const { drain, port } = await start();
  const silent = await open(port);
  await drain.drain(100);
  expect(await silent.ended).not.toBeUndefined();
  await expect(open(port)).rejects.toThrow();
});
