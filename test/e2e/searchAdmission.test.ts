/**
 * Costly searches are admitted as Elasticsearch's search thread pool admits them
 * (src/scheduler/scheduler.ts): at most SEARCH_CONCURRENCY run past their first slice at once, at
 * most SEARCH_QUEUE_SIZE more wait, and the next is refused with 429
 * services.storage.search_rejected and a Retry-After; a search that ends within its first slice is
 * always answered.
 */
import { admissionState } from '../../src/scheduler/scheduler';
import { request, SocketClient, startTestServer, type HttpResponse, type TestServer } from '../support/testServer';
import { expectError, expectOk, seedEntities } from '../support/e2e';
import { waitUntil } from '../support/graphql';

let server: TestServer;
let admin: string;
const LONG_A = 'a'.repeat(40);

beforeAll(async () => {
  server = await startTestServer({ env: { SEARCH_CONCURRENCY: '1', SEARCH_QUEUE_SIZE: '1' } });
  admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
  // names of 40 `a`s and a number, as in issue 13's reproduction, and one country
  await seedEntities(server, 'names', [{ _id: 'fr', name: 'France', allowTenantIds: ['*'] }, ...Array.from({ length: 2000 }, (_, i) => ({ _id: `long${i}`, name: `${LONG_A}${i}`, allowTenantIds: ['*'] }))], admin);
  // (the plain search once before: its code compiled)
  expect((await search({ query: { match: { name: 'france' } } })).status).toBe(200);
});

afterAll(() => server.stop());

const search = (body: object): Promise<HttpResponse> => request(server, 'POST', '/v4/entity/names/search', { token: admin, body });
/** A bool of 500 wildcards, each walked over the names' term dictionary: many slices. */
const costly = (n: number) => ({ query: { bool: { should: Array.from({ length: 500 }, (_, i) => ({ wildcard: { 'name.keyword': `*a*a*a*${n}${i}` } })) } } });

describe('past SEARCH_CONCURRENCY costly searches and SEARCH_QUEUE_SIZE waiting', () => {
  it('a costly search is refused with 429, a catalogue id and Retry-After; a plain one is answered; those admitted end with 200', async () => {
    const running = search(costly(1));
    await waitUntil(() => admissionState().running === 1, 'a costly search running', 10_000, 1);
    const waiting = search(costly(2));
    await waitUntil(() => admissionState().queued === 1, 'a costly search waiting for a place', 10_000, 1);

    const refused = await search(costly(3));
    expectError({ httpStatus: refused.status, envelope: refused.body }, 'services.storage.search_rejected', 429);
    expect(refused.body.error.code).toBe(16843021); // code(1, 1, 269)
    expect(refused.body.error.props).toEqual({ running: 1, queued: 1, retryAfter: 1 });
    expect(refused.body.error.message).toContain('SEARCH_CONCURRENCY');
    expect(refused.headers.get('retry-after')).toBe('1');

    // a search that ends within its first slice does not wait, however full the queue
    const plain = await search({ query: { match: { name: 'france' } } });
    expect(plain.body.result.hits.map((h: { _id: string }) => h._id)).toEqual(['fr']);
    expect(admissionState()).toEqual({ running: 1, queued: 1 });

    for (const res of await Promise.all([running, waiting])) expectOk({ httpStatus: res.status, envelope: res.body });
    expect(admissionState()).toEqual({ running: 0, queued: 0 });
  });

  it('the raw WebSocket answers the same 429 envelope and keeps the connection', async () => {
    const socket = await SocketClient.connect(server);
    try {
      const ask = (n: number) => socket.send({ controller: 'document', action: 'search', collection: 'names', jwt: admin, body: costly(n) }, 30_000);
      const running = ask(1);
      await waitUntil(() => admissionState().running === 1, 'a costly search running', 10_000, 1);
      const waiting = ask(2);
      await waitUntil(() => admissionState().queued === 1, 'a costly search waiting for a place', 10_000, 1);
      const refused = await ask(3);
      expectError({ httpStatus: null, envelope: refused }, 'services.storage.search_rejected', 429);
      expect(refused.error.props).toEqual({ running: 1, queued: 1, retryAfter: 1 });
      expect((await running).status).toBe(200);
      expect((await waiting).status).toBe(200);
      // the same connection, still open
      const again = await socket.send({ controller: 'document', action: 'search', collection: 'names', jwt: admin, body: { query: { match: { name: 'france' } } } });
      expect(again.result.hits.map((h: { _id: string }) => h._id)).toEqual(['fr']);
    } finally {
      await socket.close();
    }
  });
});
