/**
 * Text analysis through the API (issue 19): with the default mapping, `match` finds a Han word
 * inside a longer one and an emoji with its skin tone, over REST and the raw WebSocket, with the
 * scores Elasticsearch gives (BM25 over Lucene's StandardTokenizer tokens: the figures below are
 * Lucene 8's, from query/testing/ScoringOracle.java on the same three documents); another tenant's
 * entity with the same text is neither found nor counted.
 */
import { request, startTestServer, type TestServer } from '../support/testServer';
import { expectOk, transportOf, TRANSPORTS } from '../support/e2e';

let server: TestServer;
let reader: string;

beforeAll(async () => {
  server = await startTestServer();
  const admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
  reader = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  const bulk = await request(server, 'POST', '/v4/entity/places/_bulk', {
    token: admin,
    body: {
      documents: [
        { _id: 'tokyo', body: { name: '東京都 日本語', note: 'great 👍🏽 service', allowTenantIds: ['*'] } },
        { _id: 'kyoto', body: { name: 'Kyoto, 日本', note: 'ok 👍', allowTenantIds: ['*'] } },
        { _id: 'osaka', body: { name: '大阪 日本', note: 'fine 👍🏽', allowTenantIds: ['other'] } },
      ],
    },
  });
  expect(bulk.body.result.errors).toEqual([]);
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('text analysis over %s', (name) => {
  const t = transportOf(name, () => server);

  const search = async (query: unknown) => {
    const result = expectOk(await t.call({ controller: 'document', action: 'search', collection: 'places', body: { query }, token: reader }));
    return { total: result.total, hits: result.hits.map((h: { _id: string; _score: number }) => [h._id, h._score]) };
  };

  it('"日本" finds "東京都 日本語" (each ideograph a token) and "Kyoto, 日本", not another tenant\'s', async () => {
    const found = await search({ match: { name: '日本' } });
    expect(found.total).toBe(2);
    expect(found.hits.map(([id]: [string]) => id)).toEqual(['kyoto', 'tokyo']);
    // Lucene 8: kyoto 0.30551985, tokyo 0.23075515 (the statistics count every entity of the type, as Elasticsearch's do)
    expect(found.hits[0][1]).toBeCloseTo(0.30551985, 6);
    expect(found.hits[1][1]).toBeCloseTo(0.23075515, 6);
  });

  it('"👍🏽" finds the note holding it (the emoji and its modifier one token), not "👍" alone', async () => {
    const found = await search({ match: { note: '👍🏽' } });
    expect(found.hits.map(([id]: [string]) => id)).toEqual(['tokyo']);
    expect(found.hits[0][1]).toBeCloseTo(0.42081726, 6); // Lucene 8
    const alone = await search({ match: { note: '👍' } });
    expect(alone.hits.map(([id]: [string]) => id)).toEqual(['kyoto']);
    expect(alone.hits[0][1]).toBeCloseTo(1.0417082, 6); // Lucene 8
  });
});
