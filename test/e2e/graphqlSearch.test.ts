/**
 * GraphQL search parity (DESIGN.md "GraphQL"): `search(type, query, from, size, sort)` over HTTP
 * returns exactly what REST `POST /v4/entity/countries/search` returns for the same query: the same
 * ids in the same order, the same scores, the same `_source`, the same total; `type` may be the
 * plural path segment or the singular entity type.
 */
import { request, startTestServer, type TestServer } from '../support/testServer';
import { COUNTRIES, expectOk, seedEntities } from '../support/e2e';
import { expectGqlData, gqlHttp } from '../support/graphql';

let server: TestServer;
let reader: string;

const SEARCH = `
  query Search($type: String!, $query: JSON, $from: Int, $size: Int, $sort: JSON) {
    search(type: $type, query: $query, from: $from, size: $size, sort: $sort) {
      total
      hits {
        id
        score
        source
        sort
        entity { id entityType slug allowTenantIds ... on Country { name code } }
      }
    }
  }`;

beforeAll(async () => {
  server = await startTestServer();
  const admin = await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
  reader = await server.token({ sub: 'rita', tenantId: 'acme', roles: [] });
  await seedEntities(server, 'countries', [
    ...COUNTRIES.map((c) => ({ ...c, allowTenantIds: ['*'] })),
    // Visible to acme only, and to globex only: the tenant filter is part of what must agree.
    { name: 'South Acmeland', code: 'AC', allowTenantIds: ['acme'] },
    { name: 'South Globexia', code: 'GX', allowTenantIds: ['globex'] },
  ], admin);
});

afterAll(() => server.stop());

interface Case {
  name: string;
  body: Record<string, unknown>;
  from?: number;
  size?: number;
}

const CASES: Case[] = [
  { name: 'a match on name', body: { query: { match: { name: 'south korea' } } } },
  { name: 'a match with operator and', body: { query: { match: { name: { query: 'papua new guinea', operator: 'and' } } } } },
  {
    name: 'a bool with must, should and a filter',
    body: {
      query: {
        bool: {
          must: [{ match: { name: 'south' } }],
          should: [{ match: { name: 'korea' } }],
          filter: [{ terms: { 'code.keyword': ['KR', 'ZA', 'SS', 'AC'] } }],
        },
      },
    },
  },
  { name: '{} with from and size', body: {}, from: 5, size: 7 },
  { name: '{} with the default page', body: {} },
  { name: 'a sort on slug (no _score)', body: { sort: [{ slug: 'desc' }] }, from: 2, size: 6 },
];

async function viaRest(c: Case) {
  const qs = new URLSearchParams();
  if (c.from !== undefined) qs.set('from', String(c.from));
  if (c.size !== undefined) qs.set('size', String(c.size));
  const path = `/v4/entity/countries/search${qs.size > 0 ? `?${qs}` : ''}`;
  return expectOk({ httpStatus: null, envelope: (await request(server, 'POST', path, { token: reader, body: c.body })).body });
}

async function viaGraphQL(c: Case, type: string) {
  const variables = { type, query: c.body.query, sort: c.body.sort, from: c.from, size: c.size };
  return expectGqlData(await gqlHttp(server, SEARCH, { token: reader, variables })).search;
}

describe.each(['countries', 'country'])('GraphQL search(type: "%s") and REST search agree', (type) => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const rest = await viaRest(c);
    const gql = await viaGraphQL(c, type);

    // The case is meaningful: something matched.
    expect(rest.hits.length).toBeGreaterThan(0);

    expect(gql.total).toBe(rest.total);
    expect(gql.hits.map((h: any) => h.id)).toEqual(rest.hits.map((h: any) => h._id));
    expect(gql.hits.map((h: any) => h.score)).toEqual(rest.hits.map((h: any) => h._score));
    expect(gql.hits.map((h: any) => h.source)).toEqual(rest.hits.map((h: any) => h._source));
    if (c.body.sort !== undefined) expect(gql.hits.map((h: any) => h.sort)).toEqual(rest.hits.map((h: any) => h.sort));

    // The typed entity is the same entity as the raw source.
    for (const hit of gql.hits) {
      expect(hit.entity).toEqual({
        id: hit.source.id,
        entityType: 'country',
        slug: hit.source.slug,
        allowTenantIds: hit.source.allowTenantIds,
        name: hit.source.name,
        code: hit.source.code,
      });
    }
  });

  it('respects the tenant filter the same way (acme sees its own entity, never globex\'s)', async () => {
    const c: Case = { name: 'south', body: { query: { match: { name: 'south' } } }, size: 50 };
    const rest = await viaRest(c);
    const gql = await viaGraphQL(c, type);
    const names = gql.hits.map((h: any) => h.source.name);
    expect(names).toContain('South Acmeland');
    expect(names).not.toContain('South Globexia');
    expect(gql.hits.map((h: any) => h.id)).toEqual(rest.hits.map((h: any) => h._id));
    expect(gql.total).toBe(rest.total);
  });
});

it('scores are the same numbers, not rounded (a non-trivial BM25 score survives GraphQL Float)', async () => {
  const c: Case = { name: 'match', body: { query: { match: { name: 'south korea' } } } };
  const rest = await viaRest(c);
  const gql = await viaGraphQL(c, 'countries');
  expect(rest.hits[0]._score).not.toBe(Math.round(rest.hits[0]._score));
  expect(gql.hits[0].score).toBe(rest.hits[0]._score);
});
