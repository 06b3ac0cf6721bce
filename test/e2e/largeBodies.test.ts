/**
 * Large request bodies and costly queries are worked on in slices (src/transport/slicedJson.ts for
 * the JSON, engine/query/slices.ts for the query): a plain search is answered while a large body
 * is still being parsed, and REST, raw WebSocket and GraphQL answer a large body alike (the order
 * of one raw WebSocket connection's requests: src/transport/websocket/rawSocket.test.ts).
 * A plain search sent while costly searches (bools of hundreds of wildcards) run is answered before
 * them (src/scheduler/scheduler.ts).
 */
import WebSocket from 'ws';
import { pausedSearches } from '../../src/scheduler/scheduler';
import { request, SocketClient, startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp, gqlWs, graphqlWsUrl, openGraphQLWs, waitUntil } from '../support/graphql';

let server: TestServer;
let admin: string;

/** A `terms` query of `n` values, among them the names of two countries. */
const manyTerms = (n: number) => ({ terms: { 'name.keyword': ['France', 'Italy', ...Array.from({ length: n - 2 }, (_, i) => `nothing-${i}`)] } });

beforeAll(async () => {
  // slices of 1 ms: a body of a megabyte takes many of them
  server = await startTestServer({ env: { SEARCH_SLICE_MS: '1' } });
  admin = await server.token({ sub: 'root', tenantId: 'acme', roles: ['admin'] });
  for (const [id, name] of [['fr', 'France'], ['de', 'Germany'], ['it', 'Italy']]) {
    const res = await request(server, 'POST', `/v4/entity/countries?_id=${id}`, { token: admin, raw: JSON.stringify({ name, allowTenantIds: ['*'] }) });
    expectOk({ httpStatus: res.status, envelope: res.body });
  }
});

afterAll(() => server.stop());

const search = (body: object | string) => request(server, 'POST', '/v4/entity/countries/search', { token: admin, raw: typeof body === 'string' ? body : JSON.stringify(body) });
const ids = (hits: { _id: string }[]) => hits.map((h) => h._id).sort();

/**
 * Waits until `large` (a request just sent) is being parsed in slices (`what`), then sends a plain
 * search: it must be answered, and before `large` is. Returns what `large` answers.
 */
async function plainAnsweredFirst<T>(large: Promise<T>, what: string): Promise<T> {
  const order: string[] = [];
  const largeDone = large.then((res) => {
    order.push('large');
    return res;
  });
  await waitUntil(() => pausedSearches() > 0, what, 10_000, 1);
  const plain = await search({ query: { match: { name: 'germany' } } });
  order.push('plain');
  expect(ids(plain.body.result.hits)).toEqual(['de']);
  const answer = await largeDone;
  expect(order).toEqual(['plain', 'large']);
  return answer;
}

/** V8's own words for what JSON.parse refuses in the text. */
function v8Message(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the text is valid JSON');
}

describe('a large body parsed in slices', () => {
  it('lets a plain search be answered while it is being parsed', async () => {
    // about 900 KB: its parse paused between slices
    const large = await plainAnsweredFirst(search({ query: manyTerms(60_000) }), 'the large body being parsed in slices');
    expect(ids(large.body.result.hits)).toEqual(['fr', 'it']);
  });

  it('answers the same on REST, raw WebSocket and GraphQL', async () => {
    const query = manyTerms(20_000);
    const rest = await search({ query });
    expect(ids(rest.body.result.hits)).toEqual(['fr', 'it']);
    const socket = await SocketClient.connect(server);
    try {
      const ws = await socket.send({ controller: 'document', action: 'search', collection: 'countries', jwt: admin, body: { query } });
      expect(ids(ws.result.hits)).toEqual(['fr', 'it']);
    } finally {
      await socket.close();
    }
    const gql = expectGqlData(await gqlHttp(server, 'query($q: JSON) { search(type: "countries", query: $q) { total hits { id } } }', { token: admin, variables: { q: query } }));
    expect(gql.search.total).toBe(2);
  });

  it('refuses a large malformed body with the same 400 on every way in', async () => {
    const values = JSON.stringify(manyTerms(20_000).terms['name.keyword']);
    const broken = `{"query":{"terms":{"name.keyword":${values.slice(0, -1)},}}}`;
    const rest = await search(broken);
    expectError({ httpStatus: rest.status, envelope: rest.body }, 'network.http.body_parse_failed', 400);
    expect(rest.body.error.message).toContain(v8Message(broken));

    const socket = new WebSocket(server.wsUrl);
    await new Promise((resolve) => socket.once('open', resolve));
    const answer = new Promise<any>((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()))));
    socket.send(`{"controller":"document","action":"search","collection":"countries","jwt":"${admin}","body":${broken}}`);
    expectError({ httpStatus: null, envelope: await answer }, 'network.http.body_parse_failed', 400);
    socket.close();

    const gql = await request(server, 'POST', '/graphql', { token: admin, raw: `{"query":"query($q: JSON) { search(type: \\"countries\\", query: $q) { total } }","variables":{"q":${broken}}}` });
    expectGqlError(gql.body.errors, 'network.http.body_parse_failed', 400);
  });
});

describe('a large _bulk body', () => {
  /** An entity of a bulk body: accents, escapes, a nested object, a key named __proto__. */
  const entity = (k: number) => `{"_id":"town-${k}","name":"Saint-\u00c9tienne ${k} \\"quoted\\" \\\\ 🙂","population":${k * 1.5},"meta":{"__proto__":{"k":${k}},"tags":["a","b${k}"]},"allowTenantIds":["*"]}`;
  const bulkText = (count: number, from: number) => `[${Array.from({ length: count }, (_, k) => entity(from + k)).join(',')}]`;

  it('creates each entity as sent, __proto__ a plain key, and answers each with its _source', async () => {
    const text = bulkText(1000, 0); // about 150 KB: parsed in slices
    expect(text.length).toBeGreaterThan(128 * 1024);
    const res = await request(server, 'POST', '/v4/entity/towns/_bulk', { token: admin, raw: text });
    expectOk({ httpStatus: res.status, envelope: res.body });
    expect(res.body.result.errors).toEqual([]);
    // the answer is JSON.stringify's text of it (each _source copied in as written to the store)
    expect(res.text).toBe(JSON.stringify(res.body));
    // (a large answer, written as its UTF-8 bytes: accents and emoji counted in bytes)
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
    const sent = JSON.parse(text) as Record<string, unknown>[];
    expect(res.body.result.successes).toHaveLength(1000);
    res.body.result.successes.forEach((success: { _id: string; _source: Record<string, unknown>; status: number }, k: number) => {
      const { _id, ...fields } = sent[k];
      expect(success).toMatchObject({ _id, status: 201 });
      expect(success._source).toMatchObject(fields);
    });
    const got = await request(server, 'GET', '/v4/entity/towns/town-777', { token: admin });
    expect(got.body.result._source).toEqual(res.body.result.successes[777]._source);
    expect(got.body.result._source.meta).toEqual(JSON.parse('{"__proto__":{"k":777},"tags":["a","b777"]}'));
    expect(Object.keys(got.body.result._source.meta)).toEqual(['__proto__', 'tags']);
  });

  it('refuses a large _bulk body with one broken entity, in V8\'s words, and creates none', async () => {
    const text = bulkText(1000, 2000);
    const broken = text.replace('"_id":"town-2500","name":', '"_id":"town-2500","name" ');
    const res = await request(server, 'POST', '/v4/entity/towns/_bulk', { token: admin, raw: broken });
    expectError({ httpStatus: res.status, envelope: res.body }, 'network.http.body_parse_failed', 400);
    expect(res.body.error.message).toContain(v8Message(broken));
    const got = await request(server, 'GET', '/v4/entity/towns/town-2000', { token: admin });
    expect(got.status).toBe(404);
  });
});

describe('costly searches in slices', () => {
  const LONG_A = 'a'.repeat(40);

  beforeAll(async () => {
    // 400 names of 40 `a`s and a number, as in issue 13's reproduction
    const docs = Array.from({ length: 400 }, (_, i) => ({ _id: `long${i}`, body: { name: `${LONG_A}${i}`, allowTenantIds: ['*'] } }));
    const res = await request(server, 'POST', '/v4/entity/names/_bulk', { token: admin, raw: JSON.stringify({ documents: docs }) });
    expectOk({ httpStatus: res.status, envelope: res.body });
  });

  it('answer a plain search sent while they run before any of them', async () => {
    // each a bool of 300 wildcards, every one walked over the names' term dictionary: many slices
    const costly = (n: number) => ({ query: { bool: { should: Array.from({ length: 300 }, (_, i) => ({ wildcard: { 'name.keyword': `*a*a*a*${n}${i}` } })) } } });
    const order: string[] = [];
    const running = [1, 2, 3, 4].map((n) =>
      request(server, 'POST', '/v4/entity/names/search', { token: admin, raw: JSON.stringify(costly(n)) }).then((res) => {
        order.push(`costly ${n}`);
        return res;
      }),
    );
    // all four have arrived and run a first slice; paused, they wait for their next
    await waitUntil(() => pausedSearches() >= 4, 'four costly searches paused between slices', 10_000, 1);
    const plain = await search({ query: { match: { name: 'germany' } } });
    order.push('plain');
    expect(ids(plain.body.result.hits)).toEqual(['de']);
    const answers = await Promise.all(running);
    expect(order[0]).toBe('plain');
    for (const res of answers) {
      expectOk({ httpStatus: res.status, envelope: res.body });
      expect(res.body.result.timed_out).toBeUndefined();
    }
  });
});

describe('a large graphql-ws message parsed in slices', () => {
  const query = 'query($q: JSON) { search(type: "countries", query: $q) { total hits { id } } }';

  it('answers as GraphQL over HTTP does, and lets a plain search be answered while it is being parsed', async () => {
    const client = openGraphQLWs(server, admin);
    try {
      // large for its 60,000 extra strings (a variable the operation does not declare: ignored), cheap to search
      const big = gqlWs(client, query, { q: manyTerms(2), pad: manyTerms(60_000).terms['name.keyword'] });
      const op = await plainAnsweredFirst(big, 'the large message being parsed in slices');
      expect(op.graphqlErrors).toEqual([]);
      expect(op.data[0].search.total).toBe(2);
      expect(op.data[0].search.hits.map((h: { id: string }) => h.id).sort()).toEqual(['fr', 'it']);
      // and the next operation of the same connection, after it
      const after = await gqlWs(client, query, { q: { match: { name: 'italy' } } });
      expect(after.data[0].search.hits.map((h: { id: string }) => h.id)).toEqual(['it']);
    } finally {
      await client.dispose();
    }
  });

  it('closes the connection with 4400 for a large message that is not JSON, as graphql-ws does for any', async () => {
    const socket = new WebSocket(graphqlWsUrl(server), 'graphql-transport-ws');
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<[number, string]>((resolve) => socket.once('close', (code, reason) => resolve([code, String(reason)])));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${admin}` } }));
    socket.send(`{"type":"subscribe","id":"1","payload":{"query":"{ __typename }","variables":${JSON.stringify(manyTerms(20_000)).slice(0, -1)},}}}`);
    expect(await closed).toEqual([4400, 'Invalid message received']);
  });
});
