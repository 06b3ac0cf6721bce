/**
 * Conformance of the rest of the search request on every store target: `_source: false`,
 * `stored_fields`, `fields`, `docvalue_fields`, `track_total_hits`, `terminate_after`,
 * `min_score`, `post_filter`, `explain`, `collapse` with `inner_hits`; the same refusals before
 * anything is sent; tenant isolation (no hit, count, group, inner hit or explanation of what the
 * caller may not see, and no tenant clause in an explanation).
 */
import type { TestServer } from '../support/testServer';
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { describeEachStore } from './support/targets';

describeEachStore('the rest of the search request', (target) => {
  const gw = gatewayOn(target);
  let server: TestServer;
  let reader: Caller;
  const countries = uniqueCollection();
  const path = `/v4/entity/${countries.collection}/search`;
  const search = (body: unknown) => ok(reader, 'POST', path, body);

  beforeAll(async () => {
    server = gw.server();
    const admin = { server, token: await server.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] }) };
    reader = { server, token: await server.token({ sub: 'rita', tenantId: 'acme', roles: [] }) };
    const bulk = await ok(admin, 'POST', `/v4/entity/${countries.collection}/_bulk`, [
      { name: 'France', code: 'FR', region: 'Europe', population: 68, allowTenantIds: ['*'] },
      { name: 'Germany', code: 'DE', region: 'Europe', population: 84, allowTenantIds: ['*'] },
      { name: 'South Africa', code: 'ZA', region: 'Africa', population: 60, allowTenantIds: ['*'] },
      { name: 'Secret Africa', code: 'SA', region: 'Africa', population: 1, allowTenantIds: ['other'] },
    ]);
    expect(bulk.errors).toEqual([]);
  });

  it('answers _source, stored_fields, fields and docvalue_fields', async () => {
    const [hit] = (await search({ query: { term: { 'code.keyword': 'FR' } }, _source: false, fields: ['name*'], docvalue_fields: ['population'] })).hits;
    expect(hit).not.toHaveProperty('_source');
    expect(hit.fields).toEqual({ name: ['France'], 'name.keyword': ['France'], population: [68] });
    expect((await search({ stored_fields: '_none_', size: 1 })).hits[0]).not.toHaveProperty('_source');
    expect((await search({ query: { term: { 'code.keyword': 'FR' } }, _source: ['name'] })).hits[0]._source).toEqual({ name: 'France' });
  });

  it('counts as track_total_hits says, the terminate_after, min_score and post_filter way', async () => {
    expect(await search({ track_total_hits: false })).toMatchObject({ total: -1 });
    expect(await search({ track_total_hits: 1 })).toMatchObject({ total: 1, total_relation: 'gte' });
    expect(await search({ track_total_hits: 10 })).toMatchObject({ total: 3, total_relation: 'eq' });
    expect(await search({ terminate_after: 1 })).toMatchObject({ total: 1, terminated_early: true });
    expect(await search({ query: { match: { name: 'africa' } }, min_score: 1000 })).toMatchObject({ total: 0 });
    const post = await search({ post_filter: { term: { 'region.keyword': 'Africa' } }, aggs: { r: { terms: { field: 'region.keyword' } } } });
    expect(post.hits.map((h: any) => h._source.name)).toEqual(['South Africa']);
    expect(post.aggregations.r.buckets).toEqual([{ key: 'Europe', doc_count: 2 }, { key: 'Africa', doc_count: 1 }]);
  });

  it('shows a page without its total, to a tenant never searched before, only what it may see', async () => {
    // (the embedded store reads such a tenant's filter, not cached yet, from its postings: lucene/firstDocs.ts)
    const names = (r: any) => r.hits.map((h: any) => h._source.name).sort();
    const newcomer = { server, token: await server.token({ sub: 'nina', tenantId: 'newcomer', roles: [] }) };
    const page = await ok(newcomer, 'POST', path, { track_total_hits: false, size: 10 });
    expect(page.total).toBe(-1);
    expect(names(page)).toEqual(['France', 'Germany', 'South Africa']);
    const other = { server, token: await server.token({ sub: 'olga', tenantId: 'other', roles: [] }) };
    const bounded = await ok(other, 'POST', path, { track_total_hits: 2, size: 10 });
    expect(bounded).toMatchObject({ total: 2, total_relation: 'gte' });
    expect(names(bounded)).toEqual(['France', 'Germany', 'Secret Africa', 'South Africa']);
  });

  it("collapses and explains the caller's entities only", async () => {
    const r = await search({ query: { match: { name: 'africa' } }, collapse: { field: 'region.keyword', inner_hits: { name: 'more' } }, explain: true });
    expect(r.total).toBe(1);
    expect(r.hits[0].fields).toEqual({ 'region.keyword': ['Africa'] });
    expect(r.hits[0].inner_hits.more.hits.hits.map((h: any) => h._source.name)).toEqual(['South Africa']);
    expect(r.hits[0]._explanation.value).toBe(r.hits[0]._score);
    expect(JSON.stringify(r.hits[0]._explanation)).not.toContain('allowTenantIds');
    expect(JSON.stringify(r)).not.toContain('Secret');
  });

  it('refuses the same way', async () => {
    await failsWith(reader, 'POST', path, { track_total_hits: -2 }, 'api.assert.invalid_argument', 400);
    await failsWith(reader, 'POST', path, { collapse: { field: 'name' } }, 'services.storage.invalid_search_query', 400);
    await failsWith(reader, 'POST', path, { docvalue_fields: ['name'] }, 'services.storage.invalid_search_query', 400);
    await failsWith(reader, 'POST', path, { post_filter: { nope: {} } }, 'services.storage.invalid_search_query', 400);
  });
});
