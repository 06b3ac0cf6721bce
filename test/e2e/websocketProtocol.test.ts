/**
 * The raw WebSocket protocol itself: heartbeats, and bad messages that are answered with an error
 * envelope without closing the connection or disturbing other clients.
 */
import WebSocket from 'ws';
import { SocketClient, startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, UUID_PATTERN } from '../support/e2e';

let server: TestServer;
let user: string;

beforeAll(async () => {
  server = await startTestServer();
  user = await server.token({ sub: 'alice', tenantId: 'acme', roles: [] });
});

afterAll(() => server.stop());

const searchMessage = () => ({ controller: 'document', action: 'search', collection: 'countries', body: {}, jwt: user });

/** A JSON message of about 1.5 MB: over the 1 MB message limit, under the 8 MB frame limit. */
const oversized = () => JSON.stringify({ ...searchMessage(), body: { query: { match: { name: 'x'.repeat(1536 * 1024) } } } });

/** The connection is still open and still answers requests. */
async function expectUsable(client: SocketClient): Promise<void> {
  expect(client.socket.readyState).toBe(WebSocket.OPEN);
  const result = expectOk({ httpStatus: null, envelope: await client.send(searchMessage()) });
  expect(result).toEqual(expect.objectContaining({ hits: expect.any(Array), total: expect.any(Number) }));
}

describe('raw WebSocket protocol', () => {
  let client: SocketClient;

  beforeAll(async () => {
    client = await SocketClient.connect(server);
  });
  afterAll(() => client.close());

  it('answers the heartbeat {"p":1} with {"p":2}', async () => {
    expect(await client.sendRaw('{"p":1}')).toEqual({ p: 2 });
    await expectUsable(client);
  });

  it('answers a non-JSON message with an error envelope and stays open and usable', async () => {
    const envelope = await client.sendRaw('this is {not json');
    expectError({ httpStatus: null, envelope }, 'network.http.body_parse_failed', 400);
    expect(envelope.requestId).toMatch(UUID_PATTERN);
    expect(envelope.room).toBe(envelope.requestId);
    await expectUsable(client);
  });

  it('answers a message over 1 MB with an error envelope and stays open and usable', async () => {
    const envelope = await client.sendRaw(oversized(), 10_000);
    expectError({ httpStatus: null, envelope }, 'network.http.request_too_large', 413);
    await expectUsable(client);
  });

  it("one client's bad messages do not affect another client", async () => {
    const bad = await SocketClient.connect(server);
    const good = await SocketClient.connect(server);
    try {
      const [garbage, goodAnswers] = await Promise.all([
        bad.sendRaw('\u0000garbage'),
        Promise.all([good.send(searchMessage()), good.send(searchMessage())]),
      ]);
      const tooBig = await bad.sendRaw(oversized(), 10_000);
      const goodAfter = await good.send(searchMessage());

      expectError({ httpStatus: null, envelope: garbage }, 'network.http.body_parse_failed', 400);
      expectError({ httpStatus: null, envelope: tooBig }, 'network.http.request_too_large', 413);
      for (const envelope of [...goodAnswers, goodAfter]) expectOk({ httpStatus: null, envelope });
      // The good client received its three answers and nothing else.
      expect(good.received).toHaveLength(3);
      expect(good.received.every((m) => m.status === 200)).toBe(true);
      await expectUsable(good);
      await expectUsable(bad);
    } finally {
      await Promise.all([bad.close(), good.close()]);
    }
  });
});
