/**
 * A page of more than 100 hits (`size` up to 10,000) is written as JSON text as the engine fetches
 * it, in the search's slices (src/store/embedded/engine/pageText.ts), and copied as it is into the answer: its answer
 * is the JSON the same hits answer in pages of 100 (made as hit objects), over REST, the raw WebSocket
 * and GraphQL, and the gateway answers other requests (/healthz, a plain search, a WebSocket ping)
 * while it is being made.
 */
import { PageText } from '../../src/store/embedded/engine/pageText';
import { setDefaultSliceMs } from '../../src/scheduler/scheduler';
import { request, SocketClient, startTestServer, type HttpResponse, type TestServer } from '../support/testServer';
import { expectOk, seedEntities } from '../support/e2e';
import { expectGqlData, gqlHttp } from '../support/graphql';

let server: TestServer;
let admin: string;
const N = 3000;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
  const docs = Array.from({ length: N }, (_, i) => ({
    _id: `b${String(i).padStart(5, '0')}`,
    name: `book ${i} ünï ☃ 😀 "quoted" \\ ${'lorem ipsum '.repeat(i % 7)}`,
    rank: (i * 7919) % 1000,
    price: i / 8,
    tags: ['t', String(i % 13)],
    allowTenantIds: ['*'],
  }));
  for (let from = 0; from < N; from += 1000) await seedEntities(server, 'books', docs.slice(from, from + 1000), admin);
});

afterAll(() => server.stop());

const search = (body: object): Promise<HttpResponse> => request(server, 'POST', '/v4/entity/books/search', { token: admin, body });
/** A page of every book, sorted on two keys. */
const bigPage = { query: { range: { rank: { gte: 0 } } }, sort: [{ rank: 'desc' }, { price: 'asc' }], from: 0, size: N };

/** Calls `during` once, when the 300th hit of a page is written (the page is then being made, in slices). */
function onFirstSlice(during: () => void): jest.SpyInstance {
  const add = PageText.prototype.add;
  let count = 0;
  return jest.spyOn(PageText.prototype, 'add').mockImplementation(function (this: PageText, ...args: Parameters<PageText['add']>) {
    if (++count === 300) during();
    return add.apply(this, args);
  });
}

describe('a page of 3,000 hits', () => {
  it('answers the bytes the same hits answer in pages of 100, made at once', async () => {
    const big = await search(bigPage);
    expectOk({ httpStatus: big.status, envelope: big.body });
    expect(big.body.result.hits).toHaveLength(N);
    // the text is JSON.stringify's own (no space, same escapes and numbers) ...
    expect(big.text).toBe(JSON.stringify(big.body));
    // ... and its hits those of 30 pages of 100 (each written at once, as before), byte for byte
    const pages: unknown[] = [];
    for (let from = 0; from < N; from += 100) pages.push(...(await search({ ...bigPage, from, size: 100 })).body.result.hits);
    expect(JSON.stringify(big.body.result.hits)).toBe(JSON.stringify(pages));
    expect(big.headers.get('content-length')).toBe(String(Buffer.byteLength(big.text)));
  });

  it('is the same result over the raw WebSocket, in one message', async () => {
    const socket = await SocketClient.connect(server);
    try {
      const ws = await socket.send({ controller: 'document', action: 'search', collection: 'books', jwt: admin, body: bigPage }, 30_000);
      const rest = await search(bigPage);
      expect(JSON.stringify(ws.result)).toBe(JSON.stringify(rest.body.result));
      expect(socket.received.filter((m) => m.result !== undefined)).toHaveLength(1);
    } finally {
      await socket.close();
    }
  });

  it('is the same hits over GraphQL: ids, scores, sort values and sources', async () => {
    const query = `query Page($query: JSON, $sort: JSON, $size: Int) { search(type: "books", query: $query, sort: $sort, size: $size) { total hits { id score sort source } } }`;
    const data = expectGqlData(await gqlHttp(server, query, { token: admin, variables: { query: bigPage.query, sort: bigPage.sort, size: N } }));
    const rest = (await search(bigPage)).body.result;
    expect(data.search.total).toBe(rest.total);
    expect(data.search.hits).toEqual(rest.hits.map((h: any) => ({ id: h._id, score: h._score, sort: h.sort, source: h._source })));
  });

  describe('while it is being made', () => {
    // slices of 0 ms for the page: it pauses every few hits
    beforeEach(() => setDefaultSliceMs(0));
    afterEach(() => {
      setDefaultSliceMs(server.config.search.sliceMs);
      jest.restoreAllMocks();
    });

    it('/healthz and a plain search are answered before it (REST)', async () => {
      const order: string[] = [];
      let others: Promise<unknown> = Promise.resolve();
      onFirstSlice(() => {
        others = Promise.all([
          request(server, 'GET', '/healthz').then((res) => order.push(`healthz ${res.status}`)),
          search({ query: { term: { _id: 'b00042' } } }).then((res) => order.push(`plain ${res.body.result.hits[0]._id}`)),
        ]);
      });
      const big = await search(bigPage).then((res) => {
        order.push('page');
        return res;
      });
      await others;
      expect(order.slice(-1)).toEqual(['page']);
      expect(order.slice(0, 2).sort()).toEqual(['healthz 200', 'plain b00042']);
      expect(big.body.result.hits).toHaveLength(N);
      expect(big.text).toBe(JSON.stringify(big.body));
    });

    it('a ping on another WebSocket connection is answered before it', async () => {
      const [asking, pinging] = await Promise.all([SocketClient.connect(server), SocketClient.connect(server)]);
      try {
        const order: string[] = [];
        let pong: Promise<unknown> = Promise.resolve();
        onFirstSlice(() => {
          pong = pinging.sendRaw(JSON.stringify({ p: 1 })).then((answer) => order.push(`pong ${answer.p}`));
        });
        const page = await asking.send({ controller: 'document', action: 'search', collection: 'books', jwt: admin, body: bigPage }, 30_000);
        order.push('page');
        await pong;
        expect(order).toEqual(['pong 2', 'page']);
        expect(page.result.hits).toHaveLength(N);
      } finally {
        await Promise.all([asking.close(), pinging.close()]);
      }
    });
  });
});
