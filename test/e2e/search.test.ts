/**
 * Entity search (spec 4.1, 2.2-2.4), over REST (`?from=&size=`) and raw WebSocket (top-level
 * from/size): listing, relevance, paging, exact totals and the shape of every hit.
 */
import { connect } from 'node:net';
import { request, startTestServer, type TestServer } from '../support/testServer';
import { COUNTRIES, expectOk, ISO_UTC_PATTERN, openTransport, TRANSPORTS, type Call, type Transport } from '../support/e2e';

/** The fields of spec 2.2 for a country created with only name and code. */
const ENTITY_FIELDS = ['_service_info', 'allowTenantIds', 'code', 'entityType', 'id', 'modified', 'modifier', 'name', 'slug'].sort();

let server: TestServer;
let reader: string;
/** What the bulk creation acknowledged, by _id. */
const created = new Map<string, any>();
let createdAt = { min: 0, max: 0 };

beforeAll(async () => {
  server = await startTestServer();
  const admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'], slug: 'ada-l', shortName: 'Ada' });
  reader = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });

  createdAt.min = Date.now();
  const bulk = await request(server, 'POST', '/v4/entity/countries/_bulk', {
    token: admin,
    body: COUNTRIES.map((c) => ({ ...c, allowTenantIds: ['*'] })),
  });
  createdAt.max = Date.now();
  expect(bulk.status).toBe(200);
  expect(bulk.body.result.errors).toEqual([]);
  expect(bulk.body.result.successes).toHaveLength(COUNTRIES.length);
  for (const s of bulk.body.result.successes) created.set(s._id, s._source);

  // Entities of another type: never listed with the countries.
  const other = await request(server, 'POST', '/v4/entity/regions/_bulk', {
    token: admin,
    body: [
      { name: 'Europe', code: 'EU', allowTenantIds: ['*'] },
      { name: 'South Asia', code: 'SA', allowTenantIds: ['*'] },
    ],
  });
  expect(other.status).toBe(200);
  expect(other.body.result.successes).toHaveLength(2);
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('search over %s', (name) => {
  let t: Transport;

  beforeAll(async () => {
    t = await openTransport(name, server);
  });
  afterAll(() => t.close());

  const search = (body: unknown, args?: Call['args']) =>
    t.call({ controller: 'document', action: 'search', collection: 'countries', body, args, token: reader });

  it('{} lists every entity of the type, and only of that type', async () => {
    const result = expectOk(await search({}, { size: 100 }));
    expect(result.total).toBe(COUNTRIES.length);
    expect(result.hits).toHaveLength(COUNTRIES.length);
    expect(result.hits.map((h: any) => h._source.name).sort()).toEqual(COUNTRIES.map((c) => c.name).sort());
    for (const hit of result.hits) expect(hit._source.entityType).toBe('country');
  });

  it('a match on name puts the right country first, scores in decreasing order', async () => {
    for (const wanted of ['South Korea', 'Papua New Guinea', 'United Arab Emirates', 'Norway']) {
      const result = expectOk(await search({ query: { match: { name: wanted } } }));
      expect(result.hits.length).toBeGreaterThan(0);
      expect(result.hits[0]._source.name).toBe(wanted);
      const scores = result.hits.map((h: any) => h._score);
      for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
      if (result.hits.length > 1) expect(scores[0]).toBeGreaterThan(scores[1]);
    }
  });

  it('a match counts exactly the entities having any of the words', async () => {
    // "south" or "korea": South Africa, South Korea, North Korea, South Sudan.
    const result = expectOk(await search({ query: { match: { name: 'south korea' } } }));
    expect(result.total).toBe(4);
    expect(result.hits.map((h: any) => h._source.name).sort()).toEqual(['North Korea', 'South Africa', 'South Korea', 'South Sudan']);
  });

  it('from/size pages are disjoint, complete, and carry the exact total (25 entities, size 10: 3 pages)', async () => {
    const pages = [];
    for (const from of [0, 10, 20]) pages.push(expectOk(await search({}, { from, size: 10 })));
    expect(pages.map((p) => p.hits.length)).toEqual([10, 10, 5]);
    for (const page of pages) expect(page.total).toBe(25);

    const ids = pages.flatMap((p) => p.hits.map((h: any) => h._id));
    expect(new Set(ids).size).toBe(25);
    expect([...ids].sort()).toEqual([...created.keys()].sort());

    const beyond = expectOk(await search({}, { from: 30, size: 10 }));
    expect(beyond).toEqual(expect.objectContaining({ hits: [], total: 25 }));
  });

  it('size limits a page, with the total still exact', async () => {
    const result = expectOk(await search({}, { size: 3 }));
    expect(result.hits).toHaveLength(3);
    expect(result.total).toBe(25);
  });

  it('every hit has _id, a numeric _score and a _source with every field of spec 2.2', async () => {
    const result = expectOk(await search({}, { size: 100 }));
    for (const hit of result.hits) {
      expect(typeof hit._id).toBe('string');
      expect(typeof hit._score).toBe('number');
      expect(Number.isFinite(hit._score)).toBe(true);

      const src = hit._source;
      expect(Object.keys(src).sort()).toEqual(ENTITY_FIELDS);
      expect(src).toEqual(created.get(hit._id));
      expect(src.id).toBe(hit._id);
      expect(src.entityType).toBe('country');
      expect(src._service_info).toEqual({ author: 'ada', createdAt: expect.any(Number), updatedAt: null, updater: null });
      expect(Number.isInteger(src._service_info.createdAt)).toBe(true);
      expect(src._service_info.createdAt).toBeGreaterThanOrEqual(createdAt.min);
      expect(src._service_info.createdAt).toBeLessThanOrEqual(createdAt.max);
      expect(src.modified).toMatch(ISO_UTC_PATTERN);
      expect(Date.parse(src.modified)).toBe(src._service_info.createdAt);
      expect(src.modifier).toEqual({ entityType: 'user', id: 'ada', slug: 'ada-l', shortName: 'Ada' });
      expect(typeof src.slug).toBe('string');
      expect(src.slug.length).toBeGreaterThan(0);
      expect(src.allowTenantIds).toEqual(['*']);
      const country = COUNTRIES.find((c) => c.name === src.name);
      expect(country).toBeDefined();
      expect(src.code).toBe(country?.code);
    }
  });
});

describe('a repeated search over REST (answered from the request cache)', () => {
  const PLACES = [
    { name: 'Côte d’Ivoire ☃ port', code: 'CI' },
    { name: 'Ålesund 😀 port', code: 'AL' },
    { name: 'São Tomé port', code: 'ST' },
  ];
  const query = { query: { match: { name: 'port' } } };

  beforeAll(async () => {
    const admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
    const bulk = await request(server, 'POST', '/v4/entity/places/_bulk', { token: admin, body: PLACES.map((p) => ({ ...p, allowTenantIds: ['*'] })) });
    expect(bulk.body.result.successes).toHaveLength(PLACES.length);
  });

  /** Sends the same search `n` times on one connection in a single write (pipelined), and reads the n answers. */
  function pipelined(n: number): Promise<{ status: number; requestId: string; length: number; body: Buffer }[]> {
    const body = JSON.stringify(query);
    const one = (i: number) =>
      `POST /v4/entity/places/search HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${reader}\r\nContent-Type: application/json\r\nX-Request-Id: p${i}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    return new Promise((resolve, reject) => {
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
      let received = Buffer.alloc(0);
      const answers: { status: number; requestId: string; length: number; body: Buffer }[] = [];
      socket.on('error', reject);
      socket.on('data', (chunk) => {
        received = Buffer.concat([received, chunk]);
        for (;;) {
          const end = received.indexOf('\r\n\r\n');
          if (end === -1) return;
          const head = received.subarray(0, end).toString('latin1');
          const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
          if (received.length < end + 4 + length) return;
          answers.push({ status: Number(head.split(' ')[1]), requestId: /x-request-id: (\S+)/i.exec(head)?.[1] ?? '', length, body: received.subarray(end + 4, end + 4 + length) });
          received = received.subarray(end + 4 + length);
          if (answers.length === n) {
            socket.end();
            resolve(answers);
          }
        }
      });
      socket.write(Array.from({ length: n }, (_, i) => one(i + 1)).join(''));
    });
  }

  it('answers byte for byte as the first time, non-ASCII sources intact, with the exact Content-Length', async () => {
    const first = await request(server, 'POST', '/v4/entity/places/search', { token: reader, body: query });
    expect(first.status).toBe(200);
    expect(first.body.result.hits.map((h: any) => h._source.name).sort()).toEqual(PLACES.map((p) => p.name).sort());
    const withoutId = (text: string) => text.replace(/"requestId":"[^"]*"/, '');
    for (let i = 0; i < 3; i++) {
      const again = await request(server, 'POST', '/v4/entity/places/search', { token: reader, body: query });
      expect(withoutId(again.text)).toBe(withoutId(first.text));
      expect(Number(again.headers.get('content-length'))).toBe(Buffer.byteLength(again.text));
    }
  });

  it('tells apart the same body asking for other pages, and answers the same body written otherwise the same', async () => {
    const page = async (path: string, raw: string) => (await request(server, 'POST', path, { token: reader, raw })).body.result;
    const compact = JSON.stringify(query);
    const spaced = JSON.stringify(query, null, 2);
    const all = await page('/v4/entity/places/search', compact);
    expect(all.hits).toHaveLength(3);
    expect((await page('/v4/entity/places/search?size=1', compact)).hits).toEqual(all.hits.slice(0, 1));
    expect((await page('/v4/entity/places/search?from=1&size=1', compact)).hits).toEqual(all.hits.slice(1, 2));
    expect((await page('/v4/entity/places/search', JSON.stringify({ ...query, size: 2 }))).hits).toEqual(all.hits.slice(0, 2));
    expect(await page('/v4/entity/places/search', spaced)).toEqual(all);
    expect(await page('/v4/entity/places/search', compact)).toEqual(all);
  });

  it('answers pipelined requests in order, each whole', async () => {
    const first = await request(server, 'POST', '/v4/entity/places/search', { token: reader, body: query });
    const answers = await pipelined(5);
    expect(answers.map((a) => a.requestId)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    for (const a of answers) {
      expect(a.status).toBe(200);
      const envelope = JSON.parse(a.body.toString('utf8'));
      expect(envelope.requestId).toBe(a.requestId);
      expect(envelope.result).toEqual(first.body.result);
    }
  });
});
