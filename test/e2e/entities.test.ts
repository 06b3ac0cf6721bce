/**
 * Entity CRUD over REST (DESIGN.md "Entities"): create with ?_id=, get, replace (PUT), update
 * (PATCH, a merge), delete, bulk create with per-item outcomes, and server-managed fields that a
 * client cannot set.
 */
import { request, startTestServer, type HttpResponse, type TestServer } from '../support/testServer';
import { expectError, expectOk, ISO_UTC_PATTERN } from '../support/e2e';

let server: TestServer;
let writer: string;

beforeAll(async () => {
  server = await startTestServer();
  writer = await server.token({ sub: 'wendy', tenantId: 'acme', roles: ['writer'], slug: 'wendy-w', shortName: 'Wendy' });
});

afterAll(() => server.stop());

const call = (method: string, path: string, body?: unknown) => request(server, method, `/v4/entity/countries${path}`, { token: writer, body });
const okResult = (res: HttpResponse) => expectOk({ httpStatus: res.status, envelope: res.body });
const errorOf = (res: HttpResponse, id: string, status: number) => expectError({ httpStatus: res.status, envelope: res.body }, id, status);

describe('entities over REST', () => {
  let created: any;

  it('POST /v4/entity/countries?_id= creates the entity: 200 envelope with {_id, _source}', async () => {
    const before = Date.now();
    const res = await call('POST', '?_id=fr', { name: 'France', code: 'FR', capital: 'Paris' });
    const after = Date.now();
    created = okResult(res);
    expect(res.body).toEqual(expect.objectContaining({ controller: 'document', action: 'create', collection: 'countries', index: 'entity' }));
    expect(created._id).toBe('fr');
    const src = created._source;
    expect(src).toEqual(
      expect.objectContaining({
        id: 'fr',
        entityType: 'country',
        name: 'France',
        code: 'FR',
        capital: 'Paris',
        slug: 'france',
        allowTenantIds: ['acme'],
        modifier: { entityType: 'user', id: 'wendy', slug: 'wendy-w', shortName: 'Wendy' },
        _service_info: { author: 'wendy', createdAt: expect.any(Number), updatedAt: null, updater: null },
      }),
    );
    expect(src._service_info.createdAt).toBeGreaterThanOrEqual(before);
    expect(src._service_info.createdAt).toBeLessThanOrEqual(after);
    expect(src.modified).toMatch(ISO_UTC_PATTERN);
  });

  it('GET /v4/entity/countries/<_id> returns it as created', async () => {
    const got = okResult(await call('GET', '/fr'));
    expect(got).toEqual({ _id: 'fr', _source: created._source });
  });

  it('PUT replaces the whole entity: fields left out are gone, creation info kept, update info set', async () => {
    const before = Date.now();
    const replaced = okResult(await call('PUT', '/fr', { name: 'French Republic', code: 'FR' }));
    expect(replaced._id).toBe('fr');
    const src = replaced._source;
    expect(src.name).toBe('French Republic');
    expect(src).not.toHaveProperty('capital');
    expect(src.id).toBe('fr');
    expect(src.entityType).toBe('country');
    expect(src._service_info).toEqual({
      author: 'wendy',
      createdAt: created._source._service_info.createdAt,
      updatedAt: expect.any(Number),
      updater: 'wendy',
    });
    expect(src._service_info.updatedAt).toBeGreaterThanOrEqual(before);
    expect(Date.parse(src.modified)).toBe(src._service_info.updatedAt);

    expect(okResult(await call('GET', '/fr'))._source).toEqual(src);
  });

  it('PATCH merges the given fields into the stored entity', async () => {
    const updated = okResult(await call('PATCH', '/fr', { capital: 'Paris', languages: { official: 'fr' } }));
    expect(updated._source).toEqual(
      expect.objectContaining({ id: 'fr', name: 'French Republic', code: 'FR', capital: 'Paris', languages: { official: 'fr' } }),
    );
    const merged = okResult(await call('PATCH', '/fr', { languages: { regional: ['br', 'oc'] } }));
    expect(merged._source.languages).toEqual({ official: 'fr', regional: ['br', 'oc'] });
    expect(merged._source.name).toBe('French Republic');

    expect(okResult(await call('GET', '/fr'))._source).toEqual(merged._source);
  });

  it('DELETE returns {_id}; the entity is then gone (404 services.storage.not_found)', async () => {
    expect(okResult(await call('DELETE', '/fr'))).toEqual({ _id: 'fr' });
    errorOf(await call('GET', '/fr'), 'services.storage.not_found', 404);
    errorOf(await call('DELETE', '/fr'), 'services.storage.not_found', 404);
  });

  it('POST /_bulk reports per-item successes and errors; one bad item does not sink the rest', async () => {
    const res = await call('POST', '/_bulk', [
      { _id: 'be', name: 'Belgium', code: 'BE' },
      { name: 'Netherlands', code: 'NL' },
      42,
      { _id: 'not a valid id!', name: 'Nowhere', code: 'NW' },
      { _id: 'be2', name: 'Belgium Again', code: 'BX', slug: 'belgium' },
      { _id: 'lu', name: 'Luxembourg', code: 'LU' },
    ]);
    const result = okResult(res);
    expect(result.successes.map((s: any) => s._source.name)).toEqual(['Belgium', 'Netherlands', 'Luxembourg']);
    expect(result.errors).toHaveLength(3);
    const reasons = result.errors.map((e: any) => [e.status, e.reason.id]);
    expect(reasons).toEqual(
      expect.arrayContaining([
        [400, 'api.assert.invalid_type'],
        [400, 'api.assert.invalid_argument'],
        [409, 'services.storage.document_already_exists'],
      ]),
    );
    for (const e of result.errors) expect(e.reason).toEqual(expect.objectContaining({ code: expect.any(Number), message: expect.any(String) }));

    for (const s of result.successes) {
      expect(s._source.id).toBe(s._id);
      expect(okResult(await call('GET', `/${encodeURIComponent(s._id)}`))._source).toEqual(s._source);
    }
    expect(result.successes.map((s: any) => s._id)).toEqual(expect.arrayContaining(['be', 'lu']));
    errorOf(await call('GET', '/be2'), 'services.storage.not_found', 404);
  });

  it('server-managed fields sent by a client are replaced by the server (create and update)', async () => {
    const forged = {
      entityType: 'planet',
      id: 'someone-else',
      modified: '1999-01-01T00:00:00.000Z',
      modifier: { entityType: 'robot', id: 'mallory', slug: 'mallory', shortName: 'M' },
      _service_info: { author: 'mallory', createdAt: 0, updatedAt: 0, updater: 'mallory' },
    };
    const before = Date.now();
    const created = okResult(await call('POST', '?_id=atlantis', { name: 'Atlantis', code: 'AX', ...forged }));
    const src = created._source;
    expect(src.entityType).toBe('country');
    expect(src.id).toBe('atlantis');
    expect(src.modified).not.toBe(forged.modified);
    expect(Date.parse(src.modified)).toBeGreaterThanOrEqual(before);
    expect(src.modifier).toEqual({ entityType: 'user', id: 'wendy', slug: 'wendy-w', shortName: 'Wendy' });
    expect(src._service_info).toEqual({ author: 'wendy', createdAt: expect.any(Number), updatedAt: null, updater: null });
    expect(src._service_info.createdAt).toBeGreaterThanOrEqual(before);

    const patched = okResult(await call('PATCH', '/atlantis', { population: 0, ...forged }));
    expect(patched._source).toEqual(
      expect.objectContaining({
        entityType: 'country',
        id: 'atlantis',
        population: 0,
        modifier: { entityType: 'user', id: 'wendy', slug: 'wendy-w', shortName: 'Wendy' },
        _service_info: { author: 'wendy', createdAt: src._service_info.createdAt, updatedAt: expect.any(Number), updater: 'wendy' },
      }),
    );
    expect(patched._source.modified).not.toBe(forged.modified);

    expect(okResult(await call('GET', '/atlantis'))._source).toEqual(patched._source);
  });
});
