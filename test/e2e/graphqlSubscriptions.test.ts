/**
 * GraphQL subscriptions over graphql-ws (DESIGN.md "GraphQL": entity changes per type,
 * tenant-filtered, optionally filtered by a query), with graphql-ws's own client: changes made over
 * REST arrive; another tenant's changes never do; a query filter drops what it does not match; a
 * subscription opened with an API key ends when that key is deleted.
 */
import type { Client } from 'graphql-ws';
import { request, startTestServer, type TestServer } from '../support/testServer';
import { expectOk } from '../support/e2e';
import { expectGqlData, gqlHttp, openGraphQLWs, Operation, sleep, untilLive } from '../support/graphql';

let server: TestServer;
const tokens = { admin: '', writerAcme: '', readerAcme: '', readerGlobex: '' };
const clients: Client[] = [];
const operations: Operation[] = [];

const ENTITY_CHANGED = `
  subscription Changes($type: String!, $query: JSON) {
    entityChanged(type: $type, query: $query) {
      action
      id
      entity { id slug allowTenantIds ... on Country { name code } }
    }
  }`;

function client(token: string): Client {
  const c = openGraphQLWs(server, token);
  clients.push(c);
  return c;
}

function subscribe(token: string, variables: Record<string, unknown>): Operation {
  const op = new Operation(client(token), ENTITY_CHANGED, variables);
  operations.push(op);
  return op;
}

const changesOf = (op: Operation, id: string) => op.data.map((d) => d.entityChanged).filter((c) => c.id === id);
const idsSeen = (op: Operation) => new Set(op.data.map((d) => d.entityChanged.id));

let seq = 0;
const unique = (label: string) => `${label}-${++seq}-${Date.now()}`;

/** Creates a country over REST and returns its _id. */
async function createCountry(token: string, body: Record<string, unknown>, id = unique('c')): Promise<string> {
  const res = await request(server, 'POST', `/v4/entity/countries?_id=${encodeURIComponent(id)}`, { token, body });
  expectOk({ httpStatus: res.status, envelope: res.body });
  return id;
}

/** Makes `op` certainly live: creates probe entities (visible to it, matching it) until one arrives. */
async function makeLive(op: Operation, token: string, body: Record<string, unknown>): Promise<void> {
  const probes: string[] = [];
  await untilLive(
    async () => probes.push(await createCountry(token, { ...body, name: `Probe ${unique('p')}` }, unique('probe'))),
    () => op.data.some((d) => probes.includes(d.entityChanged.id)),
  );
}

beforeAll(async () => {
  server = await startTestServer();
  tokens.admin = await server.token({ sub: 'root', tenantId: 'hq', roles: ['admin'] });
  tokens.writerAcme = await server.token({ sub: 'wanda', tenantId: 'acme', roles: ['writer'] });
  tokens.readerAcme = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  tokens.readerGlobex = await server.token({ sub: 'gus', tenantId: 'globex', roles: [] });
});

afterAll(async () => {
  for (const op of operations) op.unsubscribe();
  await Promise.all(clients.map((c) => c.dispose()));
  await server.stop();
});

describe('entityChanged over graphql-ws', () => {
  it('receives a create, an update and a delete made over REST, in order, with the entity', async () => {
    const sub = subscribe(tokens.readerAcme, { type: 'countries' });
    await makeLive(sub, tokens.writerAcme, { code: 'PR' });

    const id = await createCountry(tokens.writerAcme, { name: 'Livonia', code: 'LV', allowTenantIds: ['acme'] });
    const patched = await request(server, 'PATCH', `/v4/entity/countries/${id}`, { token: tokens.writerAcme, body: { name: 'Livonia Major' } });
    expectOk({ httpStatus: patched.status, envelope: patched.body });
    const deleted = await request(server, 'DELETE', `/v4/entity/countries/${id}`, { token: tokens.writerAcme });
    expectOk({ httpStatus: deleted.status, envelope: deleted.body });

    await sub.waitForData(() => changesOf(sub, id).length >= 3, 'create, update and delete');
    const changes = changesOf(sub, id);
    expect(changes.map((c) => c.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    const slug = changes[0].entity.slug;
    expect(typeof slug).toBe('string');
    expect(slug.length).toBeGreaterThan(0);
    expect(changes[0].entity).toEqual({ id, slug, allowTenantIds: ['acme'], name: 'Livonia', code: 'LV' });
    expect(changes[1].entity).toEqual({ id, slug, allowTenantIds: ['acme'], name: 'Livonia Major', code: 'LV' });
    // A delete carries the entity as it was before.
    expect(changes[2].entity).toEqual({ id, slug, allowTenantIds: ['acme'], name: 'Livonia Major', code: 'LV' });
    expect(sub.error).toBeUndefined();
    expect(sub.completed).toBe(false);
  });

  it('the singular type name subscribes to the same changes, and changes of other types never arrive', async () => {
    const sub = subscribe(tokens.readerAcme, { type: 'country' });
    await makeLive(sub, tokens.writerAcme, { code: 'PR' });
    const region = await request(server, 'POST', '/v4/entity/regions', { token: tokens.writerAcme, body: { name: 'Not A Country', code: 'RG' } });
    const regionId = expectOk({ httpStatus: region.status, envelope: region.body })._id;
    const id = await createCountry(tokens.writerAcme, { name: 'Singularia', code: 'SG' });
    await sub.waitForData((d) => d.entityChanged.id === id, 'the country created after the region');
    await sleep(300);
    expect(idsSeen(sub).has(regionId)).toBe(false);
    expect(changesOf(sub, id).map((c) => c.action)).toEqual(['CREATE']);
  });

  it('a subscriber of another tenant receives none of tenant acme\'s changes', async () => {
    const other = subscribe(tokens.readerGlobex, { type: 'countries' });
    await makeLive(other, tokens.admin, { code: 'PG', allowTenantIds: ['globex'] });

    const id = await createCountry(tokens.writerAcme, { name: 'Acme Only', code: 'AO', allowTenantIds: ['acme'] });
    expectOk({ httpStatus: null, envelope: (await request(server, 'PATCH', `/v4/entity/countries/${id}`, { token: tokens.writerAcme, body: { code: 'AP' } })).body });
    expectOk({ httpStatus: null, envelope: (await request(server, 'DELETE', `/v4/entity/countries/${id}`, { token: tokens.writerAcme })).body });

    // A later change globex may see DOES arrive; after it, a bounded wait for anything of acme's.
    const visible = await createCountry(tokens.admin, { name: 'Shared Later', code: 'SL', allowTenantIds: ['*'] });
    await other.waitForData((d) => d.entityChanged.id === visible, 'the shared change');
    await sleep(300);
    expect(idsSeen(other).has(id)).toBe(false);
    for (const d of other.data) expect(d.entityChanged.entity.allowTenantIds.some((t: string) => t === 'globex' || t === '*')).toBe(true);
  });

  it('with a query filter, a non-matching change is dropped and a matching one arrives', async () => {
    // `code` is a text field (standard analyzer) with a `code.keyword` sub-field, as in Elasticsearch:
    // an exact "ZZ" is a term on code.keyword.
    const query = { term: { 'code.keyword': 'ZZ' } };
    const sub = subscribe(tokens.readerAcme, { type: 'countries', query });
    await makeLive(sub, tokens.writerAcme, { code: 'ZZ' });

    const miss = await createCountry(tokens.writerAcme, { name: 'Wrong Code', code: 'YY' });
    const hit = await createCountry(tokens.writerAcme, { name: 'Right Code', code: 'ZZ' });
    await sub.waitForData((d) => d.entityChanged.id === hit, 'the matching change');
    // An update that makes the dropped one match arrives (the filter sees the entity after the change).
    expectOk({ httpStatus: null, envelope: (await request(server, 'PATCH', `/v4/entity/countries/${miss}`, { token: tokens.writerAcme, body: { code: 'ZZ' } })).body });
    await sub.waitForData((d) => d.entityChanged.id === miss, 'the update that now matches');
    await sleep(300);
    expect(changesOf(sub, miss).map((c) => c.action)).toEqual(['UPDATE']);
    expect(changesOf(sub, hit).map((c) => c.action)).toEqual(['CREATE']);
    for (const d of sub.data) expect(d.entityChanged.entity.code).toBe('ZZ');

    // The filter agrees with search: the same query finds exactly the changed entities among these two.
    const found = await request(server, 'POST', '/v4/entity/countries/search?size=100', { token: tokens.readerAcme, body: { query } });
    const foundIds = found.body.result.hits.map((h: any) => h._id);
    expect(foundIds).toEqual(expect.arrayContaining([hit, miss]));
  });
  it('the filter has search\'s semantics: a term on the analyzed text field `code` matches neither', async () => {
    // As in Elasticsearch, "ZZ" is indexed in `code` as the token "zz": a term query for "ZZ" finds nothing.
    const query = { term: { code: 'ZZ' } };
    const sub = subscribe(tokens.readerAcme, { type: 'countries', query });
    const witness = subscribe(tokens.readerAcme, { type: 'countries', query: { term: { 'code.keyword': 'ZZ' } } });
    await makeLive(witness, tokens.writerAcme, { code: 'ZZ' });
    const id = await createCountry(tokens.writerAcme, { name: 'Term Semantics', code: 'ZZ' });
    await witness.waitForData((d) => d.entityChanged.id === id, 'the change, by the keyword subscription');
    await sleep(300);
    expect(idsSeen(sub).has(id)).toBe(false);
    const found = await request(server, 'POST', '/v4/entity/countries/search', { token: tokens.readerAcme, body: { query } });
    expect(found.body.result.total).toBe(0);
  });
});

describe('a subscription opened with an API key', () => {
  it('ends with security.token.invalid when the key is deleted through REST', async () => {
    const created = expectGqlData(
      await gqlHttp(server, 'mutation { createApiKey(description: "live feed") { id token } }', { token: tokens.readerAcme }),
    ).createApiKey;
    const sub = subscribe(created.token, { type: 'countries' });
    await makeLive(sub, tokens.writerAcme, { code: 'PR' });
    expect(sub.ended).toBe(false);

    const deleted = await request(server, 'DELETE', `/v4/api-keys/${encodeURIComponent(created.id)}`, { token: tokens.readerAcme });
    expect(expectOk({ httpStatus: deleted.status, envelope: deleted.body })).toEqual({ _id: created.id });

    await sub.waitForEnd(3000);
    expect(Array.isArray(sub.error)).toBe(true);
    const errors = sub.error as any[];
    expect(errors.map((e) => ({ code: e.extensions?.code, status: e.extensions?.status }))).toContainEqual({ code: 'security.token.invalid', status: 401 });
    const invalid = errors.find((e) => e.extensions?.code === 'security.token.invalid');
    expect(typeof invalid.message).toBe('string');
    expect(typeof invalid.extensions.requestId).toBe('string');
    expect(invalid.extensions.requestId.length).toBeGreaterThan(0);

    // Nothing more arrives after the end, while a subscription of the same user's JWT still receives.
    const before = sub.data.length;
    const witness = subscribe(tokens.readerAcme, { type: 'countries' });
    await makeLive(witness, tokens.writerAcme, { code: 'PR' });
    const later = await createCountry(tokens.writerAcme, { name: 'After Revocation', code: 'AR' });
    await witness.waitForData((d) => d.entityChanged.id === later, 'the later change, by the witness');
    await sleep(300);
    expect(sub.data.length).toBe(before);
    expect(idsSeen(sub).has(later)).toBe(false);
  });
});
