/**
 * Issue 13 end to end: pattern queries bounded by the term dictionary, Elasticsearch's query limits
 * each answered 400 with its catalogue id, the search time budget (`timeout`, timed_out), and a
 * gateway that keeps answering while a long search runs. Over REST, the raw WebSocket and GraphQL.
 */
import { request, startTestServer, type TestServer } from '../support/testServer';
import { expectOk, openTransport, TRANSPORTS, type Transport } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';

let server: TestServer;
let writer: string;
const transports: Transport[] = [];

/** The reproduction: names of 40 `a`s followed by a number. */
const LONG_NAMES = Array.from({ length: 1000 }, (_, i) => ({ name: `${'a'.repeat(40)}${i}`, code: `C${i}` }));
/** A bool of many distinct wildcards: each walks the dictionary, together they take a while. */
const heavy = (n: number) => ({ bool: { should: Array.from({ length: n }, (_, i) => ({ wildcard: { 'name.keyword': `*${i}*a*` } })) } });

beforeAll(async () => {
  server = await startTestServer();
  writer = await server.token({ sub: 'wendy', tenantId: 'acme', roles: ['writer'] });
  for (let i = 0; i < LONG_NAMES.length; i += 500) {
    const bulk = await request(server, 'POST', '/v4/entity/widgets/_bulk', { token: writer, body: LONG_NAMES.slice(i, i + 500) });
    expect(bulk.body.result.errors).toEqual([]);
  }
  for (const name of TRANSPORTS) transports.push(await openTransport(name, server));
});

afterAll(async () => {
  for (const t of transports) await t.close();
  await server.stop();
});

const search = (t: Transport, body: unknown, args: Record<string, string | number> = {}) =>
  t.call({ controller: 'document', action: 'search', collection: 'widgets', body, token: writer, args });

describe.each(TRANSPORTS.map((name, i) => [name, i] as const))('over %s', (_name, i) => {
  const t = () => transports[i];

  it('runs the pattern queries that used to stall the gateway, at the cost of the terms visited', async () => {
    const cases: [unknown, number][] = [
      [{ wildcard: { 'name.keyword': { value: '*a*a*a*a*b' } } }, 0],
      [{ wildcard: { 'name.keyword': { value: '*a'.repeat(10) } } }, 0],
      [{ wildcard: { 'name.keyword': { value: `${'*a'.repeat(10)}*` } } }, 1000],
      [{ wildcard: { name: { value: `${'*a'.repeat(10)}*7` } } }, 100],
      [{ regexp: { name: '(a+)+$' } }, 0],
      [{ regexp: { 'name.keyword': { value: '(A+)+[0-9]{3}', case_insensitive: true } } }, 900],
      [{ prefix: { 'name.keyword': 'aaaa' } }, 1000],
      [{ term: { 'code.keyword': { value: 'c7', case_insensitive: true } } }, 1],
    ];
    for (const [query, total] of cases) {
      const answer = await search(t(), { query }, { size: 0 });
      expect([query, expectOk(answer).total]).toEqual([query, total]);
    }
  });

  it("refuses what is over Elasticsearch's limits with a 400 naming the limit, and stays open", async () => {
    let deep: Record<string, unknown> = { match_all: {} };
    for (let d = 0; d < 31; d++) deep = { bool: { must: deep } };
    const cases: [unknown, string][] = [
      [{ bool: { should: Array.from({ length: 4097 }, (_, n) => ({ term: { code: `c${n}` } })) } }, 'services.storage.too_many_clauses'],
      [{ terms: { code: Array.from({ length: 65_537 }, (_, n) => n) } }, 'services.storage.too_many_terms'],
      [{ regexp: { name: 'a'.repeat(1001) } }, 'services.storage.regex_too_long'],
      [{ regexp: { name: '(a|b)*a(a|b){40}' } }, 'services.storage.too_complex_to_determinize'],
      [{ wildcard: { name: `*a${'?'.repeat(30)}` } }, 'services.storage.too_complex_to_determinize'],
      [deep, 'services.storage.query_too_deep'],
      [{ regexp: { name: 'fr(a' } }, 'services.storage.invalid_search_query'],
    ];
    for (const [query, id] of cases) {
      const answer = await search(t(), { query }, { size: 0 });
      expect([id, answer.envelope.status, answer.envelope.error?.id]).toEqual([id, 400, id]);
      if (answer.httpStatus !== null) expect(answer.httpStatus).toBe(400);
    }
    // the connection is still there
    expect(expectOk(await search(t(), { query: { match_all: {} } }, { size: 1 })).total).toBe(1000);
  });

  it('answers a page of 1,000 sorted hits, ordered and written a part at a time, whole and in order', async () => {
    const answer = expectOk(await search(t(), { query: { prefix: { 'name.keyword': 'aaa' } }, sort: [{ 'code.keyword': 'desc' }] }, { size: 1000 }));
    expect(answer.total).toBe(1000);
    const codes = LONG_NAMES.map((e) => e.code).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
    const hits = answer.hits as { _source: { code: string; name: string }; sort?: string[] }[];
    expect(hits.map((h) => h._source.code)).toEqual(codes);
    expect(hits.every((h) => h._source.name === `${'a'.repeat(40)}${h._source.code.slice(1)}`)).toBe(true);
  });

  it('stops at its timeout and answers what it collected with timed_out', async () => {
    const answer = await search(t(), { query: heavy(2000), timeout: '1ms' }, { size: 3 });
    const result = expectOk(answer);
    expect(result.timed_out).toBe(true);
    expect(result.total).toBeLessThan(1000);
    const whole = expectOk(await search(t(), { query: { match_all: {} }, sort: [{ 'code.keyword': 'asc' }], timeout: '5s' }, { size: 2 }));
    expect(whole.timed_out).toBeUndefined();
    expect(whole.total).toBe(1000);
    for (const [timeout, reason] of [
      ['1h', 'SEARCH_TIMEOUT'],
      ['1.5s', 'fractional'],
      ['soon', 'not a time value'],
    ]) {
      const refused = await search(t(), { query: { match_all: {} }, timeout });
      expect(refused.envelope.status).toBe(400);
      expect(refused.envelope.error.id).toBe('api.assert.invalid_argument');
      expect(refused.envelope.error.message).toContain(reason);
    }
  });
});

describe('the field limit', () => {
  it('refuses an entity that would map more than MAX_FIELDS fields, on create, replace and _bulk', async () => {
    const wide = Object.fromEntries(Array.from({ length: 1500 }, (_, n) => [`f${n}`, n]));
    expect((await request(server, 'POST', '/v4/entity/widgets?_id=w-any', { token: writer, body: { name: 'any' } })).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/v4/entity/gadgets', wide],
      ['POST', '/v4/entity/gadgets/_bulk', [{ name: 'ok' }, wide]],
      ['PUT', '/v4/entity/widgets/w-any', wide],
    ] as const) {
      const answer = await request(server, method, path, { token: writer, body });
      expect([path, answer.status, answer.body.error?.id]).toEqual([path, 400, 'api.assert.invalid_argument']);
      expect(answer.body.error.message).toContain('Limit of total fields [1000] has been exceeded');
    }
    const fine = await request(server, 'POST', '/v4/entity/gadgets', { token: writer, body: Object.fromEntries(Array.from({ length: 500 }, (_, n) => [`f${n}`, n])) });
    expect(fine.status).toBe(200);
  });
});

describe('over GraphQL', () => {
  it('gives timedOut, and the limits as errors with their codes', async () => {
    const query = 'query($q: JSON, $t: String) { search(type: "widgets", query: $q, size: 2, timeout: $t) { total timedOut hits { id } } }';
    const timed = expectGqlData(await gqlHttp(server, query, { token: writer, variables: { q: heavy(2000), t: '1ms' } }));
    expect(timed.search.timedOut).toBe(true);
    const fine = expectGqlData(await gqlHttp(server, query, { token: writer, variables: { q: { wildcard: { 'name.keyword': '*a*a*a*a*b' } } } }));
    expect(fine.search).toEqual({ total: 0, timedOut: false, hits: [] });
    const refused = await gqlHttp(server, query, { token: writer, variables: { q: { regexp: { name: '(a|b)*a(a|b){40}' } } } });
    expectGqlError(refused.body.errors, 'services.storage.too_complex_to_determinize', 400);
  });
});

describe('while a long search runs', () => {
  it('the gateway keeps answering: health checks and other searches finish before it', async () => {
    const finished: string[] = [];
    const long = request(server, 'POST', '/v4/entity/widgets/search', { token: writer, body: { query: heavy(1200) } }).then((r) => {
      finished.push('long');
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const health = request(server, 'GET', '/healthz').then((r) => {
      finished.push('healthz');
      return r;
    });
    const other = request(server, 'POST', '/v4/entity/widgets/search', { token: writer, body: { query: { term: { 'code.keyword': 'C1' } } } }).then((r) => {
      finished.push('search');
      return r;
    });
    const [longAnswer, healthAnswer, otherAnswer] = await Promise.all([long, health, other]);
    expect(healthAnswer.status).toBe(200);
    expect(otherAnswer.body.result.total).toBe(1);
    expect(longAnswer.status).toBe(200);
    expect(finished.indexOf('healthz')).toBeLessThan(finished.indexOf('long'));
    expect(finished.indexOf('search')).toBeLessThan(finished.indexOf('long'));
  });

  it('a write during it is acknowledged, and the next search sees it', async () => {
    const long = request(server, 'POST', '/v4/entity/widgets/search', { token: writer, body: { query: heavy(1200) } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const created = await request(server, 'POST', '/v4/entity/widgets?_id=fresh', { token: writer, body: { name: 'fresh widget' } });
    expect(created.status).toBe(200);
    const seen = await request(server, 'POST', '/v4/entity/widgets/search', { token: writer, body: { query: { match: { name: 'fresh' } } } });
    expect(seen.body.result.hits.map((h: { _id: string }) => h._id)).toEqual(['fresh']);
    expect((await long).status).toBe(200);
  });
});
