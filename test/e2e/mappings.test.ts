/**
 * The mapping API on every way in (README "Mappings"), against the real server: REST and the raw
 * WebSocket's collection:getMapping / collection:updateMapping, the raw WebSocket's Kuzzle
 * collection:create, GraphQL's mapping query and putMapping mutation. Only admin changes a mapping:
 * a writer gets 403 on each; any authenticated caller reads it.
 */
import { startTestServer, type TestServer } from '../support/testServer';
import { expectError, expectOk, openTransport, socketTransport, TRANSPORTS, type Transport } from '../support/e2e';
import { expectGqlData, expectGqlError, gqlHttp } from '../support/graphql';

let server: TestServer;
let admin: string;
let writer: string;
let reader: string;
let seq = 0;
const uniqueCollection = () => `mapped${Date.now().toString(36)}${++seq}-things`;

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.token({ sub: 'root', tenantId: 'hq', roles: ['admin'] });
  writer = await server.token({ sub: 'wendy', tenantId: 'acme', roles: ['writer'] });
  reader = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
});
afterAll(() => server.stop());

describe.each(TRANSPORTS)('collection:updateMapping and getMapping over %s', (name) => {
  let t: Transport;
  beforeAll(async () => (t = await openTransport(name, server)));
  afterAll(() => t.close());

  it('admin declares code as a keyword; a prefix on code then counts the codes starting with F; anyone reads the mapping', async () => {
    const collection = uniqueCollection();
    const put = expectOk(await t.call({ controller: 'collection', action: 'updateMapping', collection, token: admin, body: { properties: { code: { type: 'keyword' } } } }));
    expect(put).toEqual({ dynamic: 'true', _meta: {}, properties: { code: { type: 'keyword' } } });
    for (const code of ['FR', 'FI', 'DE']) expectOk(await t.call({ controller: 'document', action: 'create', collection, token: writer, body: { name: code, code } }));
    expect(expectOk(await t.call({ controller: 'document', action: 'count', collection, token: reader, body: { query: { prefix: { code: 'F' } } } }))).toEqual({ count: 2 });
    expect(expectOk(await t.call({ controller: 'collection', action: 'getMapping', collection, token: reader }))).toEqual(put);
  });

  it('a writer gets 403 and the mapping is unchanged; a conflict is 400 naming the field', async () => {
    const collection = uniqueCollection();
    expectError(await t.call({ controller: 'collection', action: 'updateMapping', collection, token: writer, body: { properties: { code: { type: 'keyword' } } } }), 'security.rights.forbidden', 403);
    expect(expectOk(await t.call({ controller: 'collection', action: 'getMapping', collection, token: writer })).properties).toEqual({});
    expectOk(await t.call({ controller: 'collection', action: 'updateMapping', collection, token: admin, body: { properties: { code: { type: 'keyword' } } } }));
    const conflict = await t.call({ controller: 'collection', action: 'updateMapping', collection, token: admin, body: { properties: { code: { type: 'long' } } } });
    expectError(conflict, 'services.storage.mapping_conflict', 400);
    expect(conflict.envelope.error.props).toEqual({ field: 'code', from: 'keyword', to: 'long' });
    expectError(await t.call({ controller: 'collection', action: 'getMapping', collection }), 'security.rights.unauthorized', 401);
  });
});

describe('collection:create over the raw WebSocket (Kuzzle)', () => {
  let t: Transport;
  beforeAll(async () => (t = await socketTransport(server)));
  afterAll(() => t.close());

  it('takes {mappings} or the mapping itself, answers {acknowledged: true}; settings are 400; a writer gets 403', async () => {
    const collection = uniqueCollection();
    expect(expectOk(await t.call({ controller: 'collection', action: 'create', collection, token: admin, body: { mappings: { dynamic: 'strict', properties: { code: { type: 'keyword' } } } } }))).toEqual({ acknowledged: true });
    expect(expectOk(await t.call({ controller: 'collection', action: 'create', collection, token: admin, body: { properties: { rank: { type: 'integer' } } } }))).toEqual({ acknowledged: true });
    expect(expectOk(await t.call({ controller: 'collection', action: 'getMapping', collection, token: reader }))).toEqual({ dynamic: 'strict', _meta: {}, properties: { code: { type: 'keyword' }, rank: { type: 'integer' } } });
    expectError(await t.call({ controller: 'collection', action: 'create', collection, token: admin, body: { settings: { analysis: {} } } }), 'api.assert.invalid_argument', 400);
    expectError(await t.call({ controller: 'collection', action: 'create', collection, token: admin, body: { mappings: {}, extra: 1 } }), 'services.storage.invalid_mapping', 400);
    expectError(await t.call({ controller: 'collection', action: 'create', collection: uniqueCollection(), token: writer, body: { mappings: { properties: {} } } }), 'security.rights.forbidden', 403);
  });
});

describe('GraphQL: mapping and putMapping', () => {
  const PUT = 'mutation($type: String!, $mapping: JSON!) { putMapping(type: $type, mapping: $mapping) }';
  const GET = 'query($type: String!) { mapping(type: $type) }';

  it('admin puts, anyone reads; a writer gets 403; a bad mapping is 400 invalid_mapping', async () => {
    const type = uniqueCollection();
    const put = expectGqlData(await gqlHttp(server, PUT, { token: admin, variables: { type, mapping: { properties: { code: { type: 'keyword' } } } } })).putMapping;
    expect(put).toEqual({ dynamic: 'true', _meta: {}, properties: { code: { type: 'keyword' } } });
    expect(expectGqlData(await gqlHttp(server, GET, { token: reader, variables: { type } })).mapping).toEqual(put);
    const refused = await gqlHttp(server, PUT, { token: writer, variables: { type, mapping: { properties: { other: { type: 'keyword' } } } } });
    expectGqlError(refused.body.errors, 'security.rights.forbidden', 403);
    const bad = await gqlHttp(server, PUT, { token: admin, variables: { type, mapping: { properties: { code: { type: 'strnig' } } } } });
    expectGqlError(bad.body.errors, 'services.storage.invalid_mapping', 400);
    expect(expectGqlData(await gqlHttp(server, GET, { token: reader, variables: { type } })).mapping).toEqual(put);
  });
});
