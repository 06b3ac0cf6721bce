/**
 * A subscription ends when the token that opened it expires, with the expiry's error code; over the
 * raw WebSocket the room is told with a TokenExpired notification.
 */
import { Operation, expectGqlError, openGraphQLWs, waitForSocketMessage } from '../support/graphql';
import { SocketClient, startTestServer, type TestServer } from '../support/testServer';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop());

it('ends a GraphQL subscription with security.token.expired when its token expires', async () => {
  const token = await server.token({ sub: 'short', tenantId: 'acme', roles: [] }, 1500);
  const client = openGraphQLWs(server, token);
  try {
    const op = new Operation(client, 'subscription { entityChanged(type: "countries") { id } }');
    await op.waitForEnd(5000);
    expectGqlError(op.graphqlErrors, 'security.token.expired', 401);
  } finally {
    await client.dispose();
  }
});

it('tells a raw WebSocket room TokenExpired when its token expires', async () => {
  const token = await server.token({ sub: 'short', tenantId: 'acme', roles: [] }, 1500);
  const socket = await SocketClient.connect(server);
  try {
    const answer = await socket.send({ controller: 'realtime', action: 'subscribe', collection: 'countries', body: {}, jwt: token });
    expect(answer.status).toBe(200);
    const notice = await waitForSocketMessage(socket, (m) => m.type === 'TokenExpired' && m.room === answer.result.channel, 'TokenExpired', 5000);
    expect(notice.error.id).toBe('security.token.expired');
  } finally {
    await socket.close();
  }
});
