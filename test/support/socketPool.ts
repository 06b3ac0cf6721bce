/** The raw WebSocket clients a suite opens, closed together when it ends. */
import { SocketClient, type TestServer } from './testServer';

export class SocketPool {
  private readonly clients: SocketClient[] = [];

  async connect(server: TestServer): Promise<SocketClient> {
    const client = await SocketClient.connect(server);
    this.clients.push(client);
    return client;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.clients.splice(0).map((c) => c.close()));
  }
}
