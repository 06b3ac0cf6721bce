/**
 * POST /v4/entity/<plural>/_bulk with Content-Type: application/x-ndjson, Elasticsearch's
 * action/source line pairs, over real HTTP: create and index (index replaces an entity that exists),
 * a source line that is not JSON is that item's error, a malformed structure is a 400 with nothing
 * written, MAX_BULK_BYTES (413) apart from MAX_BODY_BYTES, tenants and roles.
 */
import { request, startTestServer, type TestServer } from '../support/testServer';

const NDJSON = { 'Content-Type': 'application/x-ndjson' };
const lines = (...values: unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n') + '\n';

describe('_bulk with NDJSON', () => {
  let server: TestServer;
  let admin: string;
  let writer: string;
  let reader: string;

  beforeAll(async () => {
    server = await startTestServer({ env: { MAX_BODY_BYTES: '2000', MAX_BULK_BYTES: '20000' } });
    admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
    writer = await server.token({ sub: 'wes', tenantId: 'acme', roles: ['writer'] });
    reader = await server.token({ sub: 'rita', tenantId: 'acme' });
  });
  afterAll(() => server.stop());

  const bulk = (token: string, text: string, collection = 'countries') => request(server, 'POST', `/v4/entity/${collection}/_bulk`, { token, raw: text, headers: NDJSON });

  it('creates and indexes in mCreate\'s envelope; index replaces what exists; a bad source line is that item\'s error', async () => {
    const first = await bulk(admin, lines({ index: { _id: 'fr' } }, { name: 'France', allowTenantIds: ['*'] }, { create: {} }, { name: 'France', allowTenantIds: ['*'] }, { create: { _id: 'x' } }, '{"name": '));
    expect(first.status).toBe(200);
    expect(first.body).toEqual(expect.objectContaining({ status: 200, controller: 'document', action: 'mCreate', collection: 'countries' }));
    const { successes, errors } = first.body.result;
    expect(successes.map((s: any) => [s._id === 'fr' ? 'fr' : 'generated', s._source.slug, s.status])).toEqual([
      ['fr', 'france', 201],
      ['generated', 'france-2', 201],
    ]);
    expect(errors).toEqual([{ document: { _id: 'x', body: null }, status: 400, reason: expect.objectContaining({ id: 'network.http.body_parse_failed', message: expect.stringContaining('line [6]') }) }]);

    const second = await bulk(admin, lines({ index: { _id: 'fr' } }, { name: 'France', capital: 'Paris' }, { create: { _id: 'fr' } }, { name: 'Again' }));
    expect(second.body.result.successes.map((s: any) => [s._id, s.status, s._source.capital, s._source.slug])).toEqual([['fr', 200, 'Paris', 'france']]);
    expect(second.body.result.errors.map((e: any) => [e.document._id, e.status, e.reason.id])).toEqual([['fr', 409, 'services.storage.document_already_exists']]);
    const got = await request(server, 'GET', '/v4/entity/countries/fr', { token: reader });
    expect(got.body.result._source).toEqual(expect.objectContaining({ capital: 'Paris', allowTenantIds: ['*'] })); // replaced: allowTenantIds kept
  });

  it('refuses a malformed structure whole (400) and writes nothing', async () => {
    for (const [text, message] of [
      [lines({ create: {} }, { name: 'Ghost' }, { update: { _id: 'fr' } }, { doc: { name: 'x' } }), 'the bulk action [update] is not supported here'],
      [lines({ create: {} }, { name: 'Ghost' }, 'oops'), 'Malformed action/metadata line [3]'],
      [lines({ create: {} }, { name: 'Ghost' }).trimEnd(), 'terminated by a newline'],
    ]) {
      const res = await bulk(admin, text);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.objectContaining({ id: 'api.assert.invalid_argument', message: expect.stringContaining(message) }));
    }
    const ghosts = await request(server, 'POST', '/v4/entity/countries/count', { token: admin, body: { query: { match: { name: 'ghost' } } } });
    expect(ghosts.body.result.count).toBe(0);
  });

  it('has its own body limit, MAX_BULK_BYTES (413 network.http.request_too_large), for both forms; other routes keep MAX_BODY_BYTES', async () => {
    const many = Array.from({ length: 60 }, (_, i) => [{ create: {} }, { name: `Town ${i}`, allowTenantIds: ['*'] }]).flat();
    const text = lines(...many);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2000);
    const big = await bulk(admin, text, 'towns');
    expect(big.status).toBe(200);
    expect(big.body.result.successes).toHaveLength(60);
    const jsonForm = await request(server, 'POST', '/v4/entity/towns/_bulk', { token: admin, body: many.filter((_, i) => i % 2 === 1).map((t: any) => ({ ...t, name: `${t.name} bis` })) });
    expect(jsonForm.status).toBe(200);
    const tooBig = await bulk(admin, text.repeat(8), 'towns');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toEqual(expect.objectContaining({ id: 'network.http.request_too_large', message: 'The request is larger than the limit of 20000 bytes.' }));
    const create = await request(server, 'POST', '/v4/entity/towns', { token: admin, body: { name: 'x'.repeat(3000) } });
    expect(create.status).toBe(413);
    // NDJSON elsewhere is still refused
    const search = await request(server, 'POST', '/v4/entity/towns/search', { token: admin, raw: '{}\n', headers: NDJSON });
    expect(search.status).toBe(400);
    expect(search.body.error.id).toBe('network.http.body_parse_failed');
  });

  it('tenants and roles: a writer creates for its own tenant only, cannot index over another tenant\'s entity; a reader is refused whole (403)', async () => {
    await bulk(admin, lines({ create: { _id: 'hq-only' } }, { name: 'HQ only', allowTenantIds: ['hq'] }));
    const res = await bulk(writer, lines({ create: { _id: 'mine' } }, { name: 'Mine' }, { create: {} }, { name: 'Shared', allowTenantIds: ['*'] }, { index: { _id: 'hq-only' } }, { name: 'Taken over' }, { index: { _id: 'fr' } }, { name: 'France' }));
    expect(res.status).toBe(200);
    expect(res.body.result.successes.map((s: any) => [s._id, s._source.allowTenantIds])).toEqual([['mine', ['acme']]]);
    expect(res.body.result.errors.map((e: any) => [e.document._id ?? null, e.status, e.reason.id])).toEqual([
      ['hq-only', 404, 'services.storage.not_found'], // as if absent: another tenant's
      ['fr', 403, 'security.rights.forbidden'], // visible (shared with *), not writable by acme
      [null, 403, 'security.rights.forbidden'], // allowTenantIds ["*"]: only an admin may share so
    ]);
    const hq = await request(server, 'GET', '/v4/entity/countries/hq-only', { token: admin });
    expect(hq.body.result._source.name).toBe('HQ only');

    const refused = await bulk(reader, lines({ create: {} }, { name: 'Nope' }));
    expect(refused.status).toBe(403);
    expect(refused.body.error.id).toBe('security.rights.forbidden');
  });
});
