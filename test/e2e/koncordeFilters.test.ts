/**
 * Issue 16 item 1: Koncorde filters on live subscriptions, on the real server. The raw WebSocket's
 * realtime:subscribe takes them as the body (as Kuzzle's SDKs send them), beside `{query: …}`;
 * GraphQL's entityChanged takes them as `filters`. Every keyword with Koncorde's semantics, refusals
 * naming the keyword, tenants and scopes exactly as with the query DSL.
 */
import { startTestServer, type SocketClient, type TestServer } from '../support/testServer';
import { expectError, expectOk } from '../support/e2e';
import { expectGqlError, openGraphQLWs, Operation, untilLive, waitUntil } from '../support/graphql';
import { SocketPool } from '../support/socketPool';
import { tenantTokens, type TenantTokens } from '../support/tenantTokens';

let server: TestServer;
let tokens: TenantTokens;
const sockets = new SocketPool();

beforeAll(async () => {
  server = await startTestServer();
  tokens = await tenantTokens(server);
});

afterAll(async () => {
  await sockets.closeAll();
  await server.stop();
});

const socket = () => sockets.connect(server);

const subscribeMessage = (collection: string, body: unknown, jwt: string, extra: Record<string, unknown> = {}) => ({ controller: 'realtime', action: 'subscribe', index: 'entity', collection, body, jwt, ...extra });

async function subscribe(c: SocketClient, collection: string, body: unknown, jwt = tokens.admin, extra: Record<string, unknown> = {}): Promise<string> {
  return expectOk({ httpStatus: null, envelope: await c.send(subscribeMessage(collection, body, jwt, extra)) }).channel;
}

/** A write over the same socket: its answer comes after the notifications it caused. */
async function write(c: SocketClient, message: Record<string, unknown>, jwt = tokens.admin): Promise<any> {
  return expectOk({ httpStatus: null, envelope: await c.send({ jwt, ...message }) });
}

const seen = (c: SocketClient, channel: string) => c.received.filter((m) => m.room === channel && m.type === 'document').map((m) => `${m.action} ${m.result._id} ${m.scope}`);

const CITIES = [
  { _id: 'paris', name: 'Paris', code: 'FR', population: 2_100_000, tags: ['capital'], location: { lat: 48.8566, lon: 2.3522 } },
  { _id: 'lyon', name: 'Lyon', code: 'FR', population: 520_000, location: { lat: 45.764, lon: 4.8357 } },
  { _id: 'berlin', name: 'Berlin', code: 'DE', population: 3_600_000, tags: ['capital'], location: { lat: 52.52, lon: 13.405 } },
  { _id: 'madrid', name: 'Madrid', code: 'ES', population: 3_300_000, motto: 'Sobre el oso', location: { lat: 40.4168, lon: -3.7038 } },
];

describe('Koncorde filters on the raw WebSocket realtime:subscribe', () => {
  it.each([
    ['equals', { equals: { code: 'FR' } }, ['paris', 'lyon']],
    ['in', { in: { code: ['DE', 'ES'] } }, ['berlin', 'madrid']],
    ['exists', { exists: 'motto' }, ['madrid']],
    ['exists on an array value', { exists: 'tags["capital"]' }, ['paris', 'berlin']],
    ['range', { range: { population: { gte: 1_000_000, lt: 3_500_000 } } }, ['paris', 'madrid']],
    ['ids (the entity _id)', { ids: { values: ['lyon', 'madrid'] } }, ['lyon', 'madrid']],
    ['regexp', { regexp: { name: { value: '^[bm]', flags: 'i' } } }, ['berlin', 'madrid']],
    ['geoBoundingBox', { geoBoundingBox: { location: { top: 50, left: -5, bottom: 40, right: 8 } } }, ['paris', 'lyon', 'madrid']],
    ['geoDistance', { geoDistance: { location: { lat: 48.85, lon: 2.35 }, distance: '500km' } }, ['paris', 'lyon']],
    ['geoDistanceRange', { geoDistanceRange: { location: { lat: 48.85, lon: 2.35 }, from: '300km', to: '1000km' } }, ['lyon', 'berlin']],
    ['geoPolygon', { geoPolygon: { location: { points: [{ lat: 55, lon: 10 }, { lat: 55, lon: 20 }, { lat: 50, lon: 20 }, { lat: 50, lon: 10 }] } } }, ['berlin']],
    ['and', { and: [{ equals: { code: 'FR' } }, { range: { population: { gt: 1_000_000 } } }] }, ['paris']],
    ['or', { or: [{ equals: { code: 'DE' } }, { exists: 'motto' }] }, ['berlin', 'madrid']],
    ['not', { not: { equals: { code: 'FR' } } }, ['berlin', 'madrid']],
    ['bool', { bool: { must: [{ exists: 'location' }], must_not: [{ equals: { code: 'DE' } }], should: [{ equals: { name: 'Paris' } }, { equals: { name: 'Madrid' } }] } }, ['paris', 'madrid']],
    ['{} (everything)', {}, ['paris', 'lyon', 'berlin', 'madrid']],
  ])('%s', async (keyword, filter, expected) => {
    const c = await socket();
    const collection = `${keyword.replace(/[^a-z]/gi, '').toLowerCase()}-cities`;
    const channel = await subscribe(c, collection, filter);
    for (const { _id, ...body } of CITIES) await write(c, { controller: 'document', action: 'create', collection, _id, body });
    expect(seen(c, channel)).toEqual(expected.map((id) => `create ${id} in`));
  });

  it('a body with query is still the query DSL; both kinds of rooms on one connection', async () => {
    const c = await socket();
    const dsl = await subscribe(c, 'mixed-things', { query: { term: { 'code.keyword': 'FR' } } });
    const koncorde = await subscribe(c, 'mixed-things', { equals: { code: 'FR' } });
    await write(c, { controller: 'document', action: 'create', collection: 'mixed-things', _id: 'm1', body: { code: 'FR' } });
    await write(c, { controller: 'document', action: 'create', collection: 'mixed-things', _id: 'm2', body: { code: 'DE' } });
    expect(seen(c, dsl)).toEqual(['create m1 in']);
    expect(seen(c, koncorde)).toEqual(['create m1 in']);
  });

  it('in and out, and the scope argument, as with the query DSL', async () => {
    const c = await socket();
    const filter = { range: { rank: { gte: 10 } } };
    const all = await subscribe(c, 'kteams', filter);
    const outs = await subscribe(c, 'kteams', filter, tokens.admin, { scope: 'out' });
    await write(c, { controller: 'document', action: 'create', collection: 'kteams', _id: 't', body: { rank: 1 } });
    await write(c, { controller: 'document', action: 'update', collection: 'kteams', _id: 't', body: { rank: 12 } });
    await write(c, { controller: 'document', action: 'replace', collection: 'kteams', _id: 't', body: { rank: 3 } });
    await write(c, { controller: 'document', action: 'update', collection: 'kteams', _id: 't', body: { rank: 20 } });
    await write(c, { controller: 'document', action: 'delete', collection: 'kteams', _id: 't' });
    expect(seen(c, all)).toEqual(['update t in', 'replace t out', 'update t in', 'delete t out']);
    expect(seen(c, outs)).toEqual(['replace t out', 'delete t out']);
  });

  it("a filter never makes another tenant's entity visible, whatever it names", async () => {
    const c = await socket();
    const filters = [{}, { equals: { code: 'FR' } }, { exists: 'allowTenantIds["globex"]' }, { not: { exists: 'nothing-here' } }, { ids: { values: ['g1', 'shared'] } }];
    const acmeRooms: string[] = [];
    for (const f of filters) acmeRooms.push(await subscribe(c, 'kboxes', f, tokens.readerAcme));
    const globexRoom = await subscribe(c, 'kboxes', { equals: { code: 'FR' } }, tokens.readerGlobex);
    // globex's own entity, then one shared with acme and later taken back, with a secret added out of acme's sight
    await write(c, { controller: 'document', action: 'create', collection: 'kboxes', _id: 'g1', body: { code: 'FR', allowTenantIds: ['globex'] } });
    await write(c, { controller: 'document', action: 'create', collection: 'kboxes', _id: 'shared', body: { code: 'FR', allowTenantIds: ['globex', 'acme'] } });
    await write(c, { controller: 'document', action: 'update', collection: 'kboxes', _id: 'shared', body: { allowTenantIds: ['globex'], secret: 'globex only' } });
    await write(c, { controller: 'document', action: 'update', collection: 'kboxes', _id: 'shared', body: { code: 'FR', more: 'still secret' } });
    for (const room of acmeRooms) expect(seen(c, room)).toEqual(['create shared in', 'update shared out']);
    const acmeMessages = JSON.stringify(c.received.filter((m) => acmeRooms.includes(m.room)));
    expect(acmeMessages).not.toContain('secret');
    expect(acmeMessages).not.toContain('g1');
    expect(seen(c, globexRoom)).toEqual(['create g1 in', 'create shared in', 'update shared in', 'update shared in']);
  });

  it('refuses an unknown keyword or a malformed filter with a 400 naming it, and opens no room', async () => {
    const c = await socket();
    const unknown = await c.send(subscribeMessage('bad-things', { term: { code: 'FR' } }, tokens.admin));
    expectError({ httpStatus: null, envelope: unknown }, 'api.assert.koncorde_dsl_error', 400);
    expect(unknown.error.code).toBe(33619982);
    expect(unknown.error.message).toContain('"term": unknown keyword');
    expect(unknown.error.props).toMatchObject({ keyword: 'term', path: 'term' });
    const nested = await c.send(subscribeMessage('bad-things', { or: [{ equals: { a: 1 } }, { match_all: {} }] }, tokens.admin));
    expect(nested.error.props).toMatchObject({ keyword: 'match_all', path: 'or.match_all' });
    for (const [filter, reason] of [
      [{ equals: { code: 'FR' }, exists: 'x' }, 'one keyword only'],
      [{ range: { a: { gte: 'x' } } }, 'must be a number'],
      [{ regexp: { a: '(' } }, 'cannot parse regexp'],
      [{ in: { a: Array.from({ length: 101 }, (_, i) => `v${i}`) } }, 'Filter too complex'],
      [{ and: Array.from({ length: 9 }, (_, i) => ({ or: [{ equals: { [`a${i}`]: 1 } }, { equals: { [`b${i}`]: 1 } }] })) }, 'Filter too complex'],
      // (Koncorde's native geo index would abort the whole process on it)
      [{ geoDistance: { location: { lat: 100, lon: 0 }, distance: '1km' } }, 'latitude 100 is not within [-90, 90]'],
    ] as const) {
      const answer = await c.send(subscribeMessage('bad-things', filter, tokens.admin));
      expectError({ httpStatus: null, envelope: answer }, 'api.assert.koncorde_dsl_error', 400);
      expect(answer.error.message).toContain(reason);
    }
    expectError({ httpStatus: null, envelope: await c.send(subscribeMessage('bad-things', [1], tokens.admin)) }, 'api.assert.invalid_type', 400);
    expectError({ httpStatus: null, envelope: await c.send(subscribeMessage('bad-things', { query: 'x' }, tokens.admin)) }, 'services.storage.invalid_search_query', 400);
    // the connection still works, and nothing was subscribed
    const room = await subscribe(c, 'bad-things', { exists: 'a' });
    await write(c, { controller: 'document', action: 'create', collection: 'bad-things', _id: 'k1', body: { a: 1 } });
    expect(c.received.filter((m) => m.type === 'document').map((m) => m.room)).toEqual([room]);
  });

  it('unsubscribe stops a Koncorde room', async () => {
    const c = await socket();
    const channel = await subscribe(c, 'stopped-things', { equals: { on: true } });
    await write(c, { controller: 'document', action: 'create', collection: 'stopped-things', _id: 's1', body: { on: true } });
    expectOk({ httpStatus: null, envelope: await c.send({ controller: 'realtime', action: 'unsubscribe', body: { roomId: channel }, jwt: tokens.admin }) });
    await write(c, { controller: 'document', action: 'create', collection: 'stopped-things', _id: 's2', body: { on: true } });
    expect(seen(c, channel)).toEqual(['create s1 in']);
  });
});

describe('Koncorde filters on GraphQL entityChanged(filters:)', () => {
  const query = 'subscription($f: JSON, $q: JSON, $s: ChangeScope) { entityChanged(type: "klamps", filters: $f, query: $q, scope: $s) { action id scope entity { id } } }';

  it('notifies what the filter matches, in and out', async () => {
    const client = openGraphQLWs(server, tokens.readerAcme);
    const op = new Operation(client, query, { f: { equals: { on: true } } });
    const c = await socket();
    await untilLive(
      () => write(c, { controller: 'document', action: 'create', collection: 'klamps', body: { on: true, allowTenantIds: ['acme'] } }),
      () => op.data.length > 0,
    );
    await write(c, { controller: 'document', action: 'create', collection: 'klamps', _id: 'l-off', body: { on: false, allowTenantIds: ['acme'] } });
    await write(c, { controller: 'document', action: 'create', collection: 'klamps', _id: 'l-globex', body: { on: true, allowTenantIds: ['globex'] } });
    await write(c, { controller: 'document', action: 'create', collection: 'klamps', _id: 'l-1', body: { on: true, allowTenantIds: ['acme'] } });
    await write(c, { controller: 'document', action: 'update', collection: 'klamps', _id: 'l-1', body: { on: false } });
    await waitUntil(() => (op.data.filter((d) => d.entityChanged.id === 'l-1').length === 2 ? true : undefined), 'two changes of l-1');
    const ids = op.data.map((d) => d.entityChanged.id);
    expect(ids).not.toContain('l-off');
    expect(ids).not.toContain('l-globex');
    expect(op.data.filter((d) => d.entityChanged.id === 'l-1').map((d) => `${d.entityChanged.action} ${d.entityChanged.scope}`)).toEqual(['CREATE IN', 'UPDATE OUT']);
    op.unsubscribe();
    await client.dispose();
  });

  it('refuses query and filters together, and an unknown keyword, with 400s', async () => {
    const client = openGraphQLWs(server, tokens.admin);
    const both = new Operation(client, query, { f: { equals: { on: true } }, q: { match_all: {} } });
    await both.waitForEnd();
    expectGqlError(both.graphqlErrors, 'api.assert.invalid_argument', 400);
    const unknown = new Operation(client, query, { f: { term: { on: true } } });
    await unknown.waitForEnd();
    const error = expectGqlError(unknown.graphqlErrors, 'api.assert.koncorde_dsl_error', 400);
    expect(error.message).toContain('"term": unknown keyword');
    await client.dispose();
  });
});
