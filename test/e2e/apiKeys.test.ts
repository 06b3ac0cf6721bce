/**
 * API keys (spec 4.2 and 5, DESIGN.md "API keys"), over REST and raw WebSocket: ttl and expiresAt,
 * fingerprint, the token shown once and never stored, the token as a bearer token, and its refusal
 * once the key is deleted or expired.
 */
import { startTestServer, type TestServer } from '../support/testServer';
import {
  expectError,
  expectOk,
  openTransport,
  readAllFiles,
  sha256Hex,
  sleep,
  TRANSPORTS,
  type Call,
  type Transport,
} from '../support/e2e';

let server: TestServer;
let alice: string;

beforeAll(async () => {
  server = await startTestServer();
  alice = await server.token({ sub: 'alice', tenantId: 'acme', roles: [] });
});

afterAll(() => server.stop());

describe.each(TRANSPORTS)('API keys over %s', (name) => {
  let t: Transport;
  let seq = 0;
  const unique = (label: string) => `${name}-${label}-${++seq}-${Date.now()}`;

  beforeAll(async () => {
    t = await openTransport(name, server);
  });
  afterAll(() => t.close());

  const createKey = (extra: Partial<Call> = {}) =>
    t.call({ controller: 'auth', action: 'createApiKey', token: alice, body: { description: unique('key') }, ...extra });

  /** An operation any authenticated caller may run: listing countries. */
  const searchWith = (token: string) => t.call({ controller: 'document', action: 'search', collection: 'countries', body: {}, token });

  it('defaults to a one-hour ttl, with expiresAt = _service_info.createdAt + ttl', async () => {
    const description = unique('default-ttl');
    const before = Date.now();
    const result = expectOk(await createKey({ body: { description } }));
    const after = Date.now();

    expect(typeof result._id).toBe('string');
    expect(result._id.length).toBeGreaterThan(0);
    const src = result._source;
    expect(src.description).toBe(description);
    expect(src.ttl).toBe(3_600_000);
    expect(src.userId).toBe('alice');
    expect(src._service_info).toEqual({ author: 'alice', createdAt: expect.any(Number), updatedAt: null, updater: null });
    expect(src._service_info.createdAt).toBeGreaterThanOrEqual(before);
    expect(src._service_info.createdAt).toBeLessThanOrEqual(after);
    expect(src.expiresAt).toBe(src._service_info.createdAt + 3_600_000);
  });

  it('takes expiresIn "2h" as a ttl of 7200000 ms', async () => {
    const result = expectOk(await createKey({ args: { expiresIn: '2h' } }));
    expect(result._source.ttl).toBe(7_200_000);
    expect(result._source.expiresAt).toBe(result._source._service_info.createdAt + 7_200_000);
  });

  it('returns the token once, as a JWT, with fingerprint = lowercase hex SHA-256 of the token', async () => {
    const { _source } = expectOk(await createKey());
    expect(_source.token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(_source.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(_source.fingerprint).toBe(sha256Hex(_source.token));
  });

  it('accepts the key token as a bearer token', async () => {
    const { _source } = expectOk(await createKey());
    const result = expectOk(await searchWith(_source.token));
    expect(result).toEqual(expect.objectContaining({ hits: expect.any(Array), total: expect.any(Number) }));
  });

  it('never shows the token again: searchApiKeys, requests made with the key, deleteApiKey', async () => {
    const created = expectOk(await createKey());
    const { token, fingerprint } = created._source;

    const later = [
      await t.call({ controller: 'auth', action: 'searchApiKeys', token: alice, body: {}, args: { size: 100 } }),
      await t.call({ controller: 'auth', action: 'searchApiKeys', token, body: {}, args: { size: 100 } }),
      await searchWith(token),
      await t.call({ controller: 'auth', action: 'deleteApiKey', _id: created._id, token: alice }),
    ];
    for (const answer of later) expectOk(answer);

    // The key is listed, with its fingerprint, but without its token.
    const listed = later[0].envelope.result.hits.find((h: any) => h._id === created._id);
    expect(listed).toBeDefined();
    expect(listed._source.fingerprint).toBe(fingerprint);
    expect(listed._source).not.toHaveProperty('token');

    for (const answer of later) {
      expect(answer.text).not.toContain(token);
      expect(JSON.stringify(answer.envelope)).not.toContain(token);
    }
  });

  it('never writes the token to the data directory', async () => {
    const description = unique('stored-description');
    const { _source } = expectOk(await createKey({ body: { description } }));
    const files = readAllFiles(server.dataDir);
    // The scan does see what the key's creation wrote (so the next assertion is not vacuous)...
    expect(files.some((f) => f.bytes.includes(description))).toBe(true);
    // ...but neither the token nor its signature part is in any file.
    const signature = _source.token.split('.')[2];
    for (const file of files) {
      expect({ file: file.path, hasToken: file.bytes.includes(_source.token) }).toEqual({ file: file.path, hasToken: false });
      expect({ file: file.path, hasSignature: file.bytes.includes(signature) }).toEqual({ file: file.path, hasSignature: false });
    }
  });

  it('refuses the token once the key is deleted (401 security.token.invalid)', async () => {
    const created = expectOk(await createKey());
    expectOk(await searchWith(created._source.token));

    const deleted = expectOk(await t.call({ controller: 'auth', action: 'deleteApiKey', _id: created._id, token: alice }));
    expect(deleted).toEqual({ _id: created._id });

    expectError(await searchWith(created._source.token), 'security.token.invalid', 401);
  });

  it('refuses the token once the key has expired (401 security.token.expired)', async () => {
    // An ms duration string over REST, integer milliseconds over WebSocket: both are accepted.
    const expiresIn = name === 'REST' ? '1s' : 1000;
    const created = expectOk(await createKey({ args: { expiresIn } }));
    expect(created._source.ttl).toBe(1000);
    expectOk(await searchWith(created._source.token));

    await sleep(1200);
    expectError(await searchWith(created._source.token), 'security.token.expired', 401);
  });
});
