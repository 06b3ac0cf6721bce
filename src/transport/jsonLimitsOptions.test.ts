/**
 * The transports take MAX_JSON_DEPTH as an option (default 1000): REST bodies, raw WebSocket
 * messages (one level more: the message wraps the body), GraphQL (the document and variables).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import WebSocket from 'ws';
import type { Dispatcher } from '../core/dispatch';
import { readJsonBody, type BodyOutcome } from './http/readBody';
import { createRawSocketServer } from './websocket/rawSocket';

function read(text: string | Buffer, maxDepth?: number): Promise<BodyOutcome> {
  const req = new PassThrough() as unknown as IncomingMessage;
  req.headers = { 'content-type': 'application/json' };
  return new Promise((resolve) => {
    readJsonBody(req, 1 << 20, resolve, maxDepth === undefined ? undefined : { maxDepth });
    (req as unknown as PassThrough).end(text);
  });
}

const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('readJsonBody', () => {
  it('refuses bodies deeper than the limit given, 1000 by default', async () => {
    expect((await read(nested(1000))).ok).toBe(true);
    const deep = await read(nested(1001));
    expect(!deep.ok && [deep.error.id, deep.error.props]).toEqual(['api.assert.body_too_deep', { limit: 1000 }]);
    expect((await read(nested(5), 5)).ok).toBe(true);
    const five = await read(nested(6), 5);
    expect(!five.ok && five.error.props).toEqual({ limit: 5 });
  });

  it('refuses bytes that are not UTF-8, and keeps a blank body as no body', async () => {
    const bad = await read(Buffer.from([0x22, 0xff, 0x22]));
    expect(!bad.ok && bad.error.id).toBe('network.http.body_parse_failed');
    expect(await read('  \n ')).toEqual({ ok: true, body: undefined, text: null });
  });
});

describe('createRawSocketServer({maxJsonDepth})', () => {
  let server: Server;
  let client: WebSocket;
  const answers: any[] = [];

  beforeAll(async () => {
    const dispatcher = { dispatch: () => ({ requestId: 'r', status: 200, error: null, controller: 'c', action: 'a', collection: null, index: null, volatile: null, result: 'ran' }) } as unknown as Dispatcher;
    const wss = createRawSocketServer({ dispatcher, maxMessageBytes: 1 << 20, maxJsonDepth: 3 });
    server = createServer();
    server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    client.on('message', (data) => answers.push(JSON.parse(data.toString())));
    await new Promise((resolve) => client.once('open', resolve));
  });
  afterAll(async () => {
    client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const next = async (frame: string) => {
    const before = answers.length;
    client.send(frame);
    for (let i = 0; i < 200 && answers.length === before; i++) await new Promise((r) => setTimeout(r, 5));
    return answers[before];
  };

  it('lets each field of a message nest the limit, and no more', async () => {
    expect((await next('{"controller":"c","action":"a","body":[[[1]]]}')).result).toBe('ran');
    const refused = await next('{"controller":"c","action":"a","body":[[[[1]]]]}');
    expect([refused.status, refused.error.id, refused.error.props]).toEqual([400, 'api.assert.body_too_deep', { limit: 3 }]);
    expect(await next('{"p":1}')).toEqual({ p: 2 });
  });
});
