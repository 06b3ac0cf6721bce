/**
 * Highlighting long fields on the real server (issue 13: no request keeps the event loop): while a
 * search highlights fields of about 1,000,000 characters (MAX_ANALYZED_OFFSET, the longest a field may
 * be highlighted), health checks and other searches are answered before it finishes, and its own
 * answer is whole.
 */
import { request, startTestServer, type TestServer } from '../support/testServer';

let server: TestServer;
let writer: string;

const SENTENCES = ["The quick brown fox jumps over the lazy dog near the café.", "Don't stop: the U.S. river is 3.5 km away, e.g. north of Zürich.", 'A state-of-the-art island capital sells bananas and bread.'];

/** About `length` characters of sentences, `fox` in one sentence of three. */
function prose(length: number): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += `${SENTENCES[i % SENTENCES.length]} `;
  return out.slice(0, length);
}

const LONG = 990_000;

beforeAll(async () => {
  // a deadline far enough on a busy machine: this test is about the event loop, not the budget
  server = await startTestServer({ env: { SEARCH_TIMEOUT: '60s' } });
  writer = await server.token({ sub: 'wendy', tenantId: 'acme', roles: ['writer'] });
  for (let i = 0; i < 2; i++) {
    const created = await request(server, 'POST', `/v4/entity/books?_id=long${i}`, { token: writer, body: { name: `Long book ${i}`, description: prose(LONG) } });
    expect(created.status).toBe(200);
  }
  const short = await request(server, 'POST', '/v4/entity/books?_id=short', { token: writer, body: { name: 'Short book', description: 'A fox.' } });
  expect(short.status).toBe(200);
});

afterAll(() => server.stop());

describe('while a search highlights fields of 1,000,000 characters', () => {
  it('health checks and other searches are answered before it finishes, and its answer is whole', async () => {
    const finished: string[] = [];
    const track = <T>(name: string, answer: Promise<T>): Promise<T> => answer.finally(() => finished.push(name));
    const body = { query: { match: { description: 'fox river' } }, _source: ['name'], highlight: { fields: { description: {} } } };
    const long = track('long', request(server, 'POST', '/v4/entity/books/search', { token: writer, body }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const health = track('healthz', request(server, 'GET', '/healthz'));
    const other = track('search', request(server, 'POST', '/v4/entity/books/search', { token: writer, body: { query: { match: { name: 'short' } } } }));
    const [longAnswer, healthAnswer, otherAnswer] = await Promise.all([long, health, other]);
    expect(healthAnswer.status).toBe(200);
    expect(otherAnswer.body.result.hits.map((h: { _id: string }) => h._id)).toEqual(['short']);
    expect(finished.indexOf('healthz')).toBeLessThan(finished.indexOf('long'));
    expect(finished.indexOf('search')).toBeLessThan(finished.indexOf('long'));
    expect(longAnswer.status).toBe(200);
    const result = longAnswer.body.result;
    expect(result.timed_out).toBeUndefined();
    expect(result.total).toBe(3);
    const longHits = result.hits.filter((h: { _id: string }) => h._id.startsWith('long'));
    expect(longHits).toHaveLength(2);
    for (const hit of longHits) {
      expect(hit.highlight.description).toHaveLength(5);
      for (const fragment of hit.highlight.description) expect(fragment).toMatch(/<em>(fox|river)<\/em>/);
    }
  });
});
