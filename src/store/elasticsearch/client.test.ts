import { clientOptions, createClient } from './client';

describe('client options', () => {
  it('turns the client retries off (retry.ts does them) and sets the timeout', () => {
    expect(clientOptions({ url: 'http://es:9200', requestTimeoutMs: 1234 })).toEqual({
      node: 'http://es:9200',
      maxRetries: 0,
      requestTimeout: 1234,
      sniffOnStart: false,
      name: 'entity-gateway',
    });
  });

  it('authenticates with an API key when one is set', () => {
    expect(clientOptions({ url: 'https://es:9200', apiKey: 'abc==', requestTimeoutMs: 1 }).auth).toEqual({ apiKey: 'abc==' });
  });

  it('builds a client for credentials in the URL', async () => {
    const client = createClient({ url: 'https://elastic:secret@es.example:9200', requestTimeoutMs: 1000 });
    expect(client.connectionPool.connections[0].url.hostname).toBe('es.example');
    await client.close();
  });
});
