/**
 * Graceful stop: open raw WebSocket and graphql-ws clients are closed with 1001 (going away), an
 * HTTP request in flight is answered, and afterwards the port no longer answers.
 */
import { request as httpRequest } from 'node:http';
import WebSocket from 'ws';
import { graphqlWsUrl } from '../support/graphql';
import { startTestServer } from '../support/testServer';

function closeCode(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)));
}

function open(url: string, protocol?: string): Promise<WebSocket> {
  const socket = new WebSocket(url, protocol);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

it('closes raw and graphql-ws clients with 1001 and stops answering', async () => {
  const server = await startTestServer();
  const raw = await open(server.wsUrl);
  const gql = await open(graphqlWsUrl(server), 'graphql-transport-ws');
  const rawClosed = closeCode(raw);
  const gqlClosed = closeCode(gql);

  await server.stop();

  expect(await rawClosed).toBe(1001);
  expect(await gqlClosed).toBe(1001);
  await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
});

it('answers an HTTP request that is in flight when the stop begins', async () => {
  const server = await startTestServer();
  const token = await server.token({ sub: 'u', roles: ['admin'] });
  const { port } = new URL(server.url);
  // Send the headers and half the body, stop the server, then finish the body.
  const req = httpRequest({
    host: '127.0.0.1',
    port: Number(port),
    method: 'POST',
    path: '/v4/entity/countries/search',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Content-Length': 2 },
  });
  const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.once('error', reject);
  });
  req.write('{');
  await new Promise<void>((resolve) => req.once('socket', (socket) => (socket.connecting ? socket.once('connect', () => resolve()) : resolve())));
  const stopped = server.stop();
  req.end('}');
  const res = await answered;
  expect(res.status).toBe(200);
  expect(res.body.result).toEqual({ hits: [], total: 0 });
  await stopped;
});
