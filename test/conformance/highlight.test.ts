/**
 * Conformance of `highlight` on every store target: the fragments (the unified highlighter's, with
 * Elasticsearch's defaults and options), the refusals (the same 400 before anything is sent), and
 * tenant isolation (no highlight of an entity the caller may not see, nor of the tenant filter the
 * gateway adds: the Elasticsearch store highlights the caller's query as `highlight_query`).
 */
import type { TestServer } from '../support/testServer';
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { describeEachStore } from './support/targets';

const MOTTO = 'Unity in diversity. The rainbow nation of the south of Africa, with eleven official languages and three capitals.';

describeEachStore('highlighted search', (target) => {
  const gw = gatewayOn(target);
  let server: TestServer;
  let admin: Caller;
  let reader: Caller;
  const as: Record<'writerA' | 'writerB' | 'readerC', Caller> = {} as never;
  const countries = uniqueCollection();
  const islands = uniqueCollection('islands');
  const path = (type: { collection: string }, suffix: string) => `/v4/entity/${type.collection}${suffix}`;
  const search = async (body: unknown, who: Caller = reader, type = countries) => ok(who, 'POST', path(type, '/search?size=50'), body);
  const highlights = async (body: unknown, who: Caller = reader, type = countries) =>
    Object.fromEntries((await search(body, who, type)).hits.map((h: any) => [h._source.name, h.highlight ?? null]));

  beforeAll(async () => {
    server = gw.server();
    const make = async (sub: string, tenantId: string, roles: string[]) => ({ server, token: await server.token({ sub, tenantId, roles }) });
    [admin, reader] = [await make('ada', 'hq', ['admin']), await make('rita', 'acme', [])];
    const bulk = await ok(admin, 'POST', path(countries, '/_bulk'), [
      { name: 'South Africa', code: 'ZA', motto: MOTTO, allowTenantIds: ['*'] },
      { name: 'South Korea', code: 'KR', motto: 'Benefit all mankind.', allowTenantIds: ['*'] },
      { name: 'France', code: 'FR', motto: 'Liberty, equality, fraternity.', allowTenantIds: ['*'] },
    ]);
    expect(bulk.errors).toEqual([]);
    as.writerA = await make('anna', 'tenant-a', ['writer']);
    as.writerB = await make('bob', 'tenant-b', ['writer']);
    as.readerC = await make('carl', 'tenant-c', []);
    await ok(as.writerA, 'POST', path(islands, ''), { name: 'Isle of Anna', notes: 'secret harbour of tenant a' });
    await ok(as.writerB, 'POST', path(islands, ''), { name: 'Isle of Bob', notes: 'secret harbour of tenant b' });
    await ok(admin, 'POST', path(islands, '/_bulk'), [{ name: 'Isle of Man', notes: 'a harbour for all', allowTenantIds: ['*'] }]);
  });

  it('highlights the fields asked with the default tags, a phrase as one match', async () => {
    expect(await highlights({ query: { match: { name: 'south' } }, highlight: { fields: { name: {}, motto: {} } } })).toEqual({
      'South Africa': { name: ['<em>South</em> Africa'] },
      'South Korea': { name: ['<em>South</em> Korea'] },
    });
    const phrase = await highlights({ query: { match_phrase: { motto: 'rainbow nation' } }, highlight: { fields: { motto: {} } } });
    expect(phrase['South Africa'].motto[0]).toBe('The <em>rainbow nation</em> of the south of Africa, with eleven official languages and three capitals.');
  });

  it('applies the options: tags, fragment_size, number_of_fragments, encoder, no_match_size, wildcards, require_field_match', async () => {
    const body = {
      query: { match: { motto: 'south capitals' } },
      highlight: { pre_tags: ['<mark>'], post_tags: ['</mark>'], fields: [{ motto: { fragment_size: 30, number_of_fragments: 3 } }, { name: { require_field_match: false } }] },
    };
    expect((await highlights(body))['South Africa']).toEqual({
      motto: ['The rainbow nation of the <mark>south</mark>', 'official languages and three <mark>capitals</mark>'],
      name: ['<mark>South</mark> Africa'],
    });
    const whole = await highlights({ query: { match: { motto: 'liberty' } }, highlight: { encoder: 'html', fields: { 'mot*': { number_of_fragments: 0 } }, tags_schema: 'styled' } });
    expect(whole).toEqual({ France: { motto: ['<em class="hlt1">Liberty</em>, equality, fraternity.'] } });
    const summary = await highlights({ query: { term: { 'code.keyword': 'FR' } }, highlight: { fields: { motto: { no_match_size: 10 } } } });
    expect(summary).toEqual({ France: { motto: ['Liberty, equality'] } });
  });

  it('refuses the same malformed highlight before anything is sent', async () => {
    for (const highlight of [{ fields: { name: { type: 'plain' } } }, { pre_tags: ['<b>'] }, { fields: 'name' }, { boundary_scanner: 'chars' }]) {
      const error = await failsWith(reader, 'POST', path(countries, '/search'), { highlight }, 'services.storage.invalid_search_query', 400);
      expect(error.message).toMatch(/highlight/);
    }
  });

  it("highlights nothing of another tenant's entity, and never the tenant filter", async () => {
    const body = { query: { match: { notes: 'harbour' } }, highlight: { require_field_match: false, fields: { '*': {} } } };
    const seen = await highlights(body, as.readerC, islands);
    expect(Object.keys(seen)).toEqual(['Isle of Man']);
    expect(seen['Isle of Man']).toEqual({ notes: ['a <em>harbour</em> for all'] });
    const own = await highlights(body, as.writerA, islands);
    expect(Object.keys(own).sort()).toEqual(['Isle of Anna', 'Isle of Man']);
    expect(own['Isle of Anna']).toEqual({ notes: ['secret <em>harbour</em> of tenant a'] });
    expect(JSON.stringify(own)).not.toContain('tenant b');
  });
});
