/**
 * Conformance, README "Mappings": PUT and GET _mapping on every store: fields added and merged,
 * a field's type never changed (declared or mapped dynamically), the example (a keyword
 * `code` counted by prefix), admin only for changes, any authenticated caller for reads.
 */
import type { TestServer } from '../support/testServer';
import { failsWith, ok, uniqueCollection, type Caller } from './support/api';
import { gatewayOn } from './support/gateway';
import { describeEachStore } from './support/targets';

describeEachStore('mappings', (target) => {
  const gw = gatewayOn(target);
  let server: TestServer;
  let admin: Caller;
  let writer: Caller;
  let reader: Caller;

  beforeAll(async () => {
    server = gw.server();
    admin = { server, token: await server.token({ sub: 'ada', tenantId: 'acme', roles: ['admin'] }) };
    writer = { server, token: await server.token({ sub: 'wendy', tenantId: 'acme', roles: ['writer'] }) };
    reader = { server, token: await server.token({ sub: 'rita', tenantId: 'acme', roles: [] }) };
  });

  const at = (type: { collection: string }, suffix = '') => `/v4/entity/${type.collection}${suffix}`;

  it('PUT _mapping on a new type: code as a keyword, then {"prefix":{"code":"F"}} counts the codes starting with F', async () => {
    const type = uniqueCollection();
    expect(await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { code: { type: 'keyword' } } })).toEqual({ dynamic: 'true', _meta: {}, properties: { code: { type: 'keyword' } } });
    for (const [name, code] of [['France', 'FR'], ['Finland', 'FI'], ['Germany', 'DE']]) await ok(writer, 'POST', at(type), { name, code });
    expect(await ok(reader, 'POST', at(type, '/count'), { query: { prefix: { code: 'F' } } })).toEqual({ count: 2 });
    expect(await ok(reader, 'GET', at(type, '/_mapping'))).toEqual({ dynamic: 'true', _meta: {}, properties: { code: { type: 'keyword' } } });
  });

  it('fields are added, dynamic and _meta replaced when given; a type change is 400 mapping_conflict naming the field', async () => {
    const type = uniqueCollection();
    await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { code: { type: 'keyword' }, address: { properties: { city: { type: 'keyword' } } } } });
    const after = await ok(admin, 'PUT', at(type, '/_mapping'), { dynamic: 'false', _meta: { owner: 'geo' }, properties: { rank: { type: 'integer' }, address: { properties: { zip: { type: 'keyword' } } } } });
    expect(after).toEqual({
      dynamic: 'false',
      _meta: { owner: 'geo' },
      properties: { code: { type: 'keyword' }, rank: { type: 'integer' }, address: { properties: { city: { type: 'keyword' }, zip: { type: 'keyword' } } } },
    });
    const conflict = await failsWith(admin, 'PUT', at(type, '/_mapping'), { properties: { code: { type: 'text' } } }, 'services.storage.mapping_conflict', 400);
    expect(conflict.message).toBe('mapper [code] cannot be changed from type [keyword] to [text]');
    expect(await ok(admin, 'GET', at(type, '/_mapping'))).toEqual(after);
  });

  it('a field an entity mapped dynamically keeps its type, as do the server-managed fields', async () => {
    const type = uniqueCollection();
    await ok(writer, 'POST', at(type), { name: 'France' });
    await failsWith(admin, 'PUT', at(type, '/_mapping'), { properties: { name: { type: 'keyword' } } }, 'services.storage.mapping_conflict', 400);
    await failsWith(admin, 'PUT', at(type, '/_mapping'), { properties: { slug: { type: 'text' } } }, 'services.storage.mapping_conflict', 400);
    expect(await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { name: { type: 'text' } } })).toEqual({ dynamic: 'true', _meta: {}, properties: { name: { type: 'text' } } });
  });

  it('malformed mappings are 400 invalid_mapping in Elasticsearch\'s words; no body is 400', async () => {
    const type = uniqueCollection();
    const bad = await failsWith(admin, 'PUT', at(type, '/_mapping'), { properties: { code: { type: 'strnig' } } }, 'services.storage.invalid_mapping', 400);
    expect(bad.message).toBe('Failed to parse mapping: No handler for type [strnig] declared on field [code]');
    await failsWith(admin, 'PUT', at(type, '/_mapping'), { properties: { p: { type: 'keyword', scaling_factor: 10 } } }, 'services.storage.invalid_mapping', 400);
    await failsWith(admin, 'PUT', at(type, '/_mapping'), undefined, 'api.assert.body_required', 400);
    await failsWith(admin, 'GET', '/v4/entity/country/_mapping', undefined, 'api.assert.invalid_argument', 400);
  });

  it('only an admin changes a mapping (shared by every tenant): a writer and a reader get 403 and nothing changes', async () => {
    const type = uniqueCollection();
    for (const caller of [writer, reader]) {
      const refused = await failsWith(caller, 'PUT', at(type, '/_mapping'), { properties: { code: { type: 'keyword' } } }, 'security.rights.forbidden', 403);
      expect(refused.message).toContain('admin');
    }
    expect(await ok(reader, 'GET', at(type, '/_mapping'))).toEqual({ dynamic: 'true', _meta: {}, properties: {} });
    await failsWith({ server, token: undefined as unknown as string }, 'GET', at(type, '/_mapping'), undefined, 'security.rights.unauthorized', 401);
  });

  it('a value a declared type cannot take is 400 document_parse_failed on create, replace, update; _bulk refuses that item alone', async () => {
    const type = uniqueCollection();
    await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { price: { type: 'long' }, note: { type: 'integer', ignore_malformed: true } } });
    const refused = await failsWith(writer, 'POST', at(type, '?_id=fig'), { name: 'Fig', price: 'cheap' }, 'services.storage.document_parse_failed', 400);
    expect(refused.message).toBe("failed to parse field [price] of type [long] in document with id 'fig'");
    await ok(writer, 'POST', at(type, '?_id=fig'), { name: 'Fig', price: '3', note: 'not a number' });
    await failsWith(writer, 'PUT', at(type, '/fig'), { name: 'Fig', price: 'cheap' }, 'services.storage.document_parse_failed', 400);
    await failsWith(writer, 'PATCH', at(type, '/fig'), { price: { amount: 3 } }, 'services.storage.document_parse_failed', 400);
    const bulk = await ok(writer, 'POST', at(type, '/_bulk'), [{ _id: 'pear', name: 'Pear', price: 2 }, { _id: 'plum', name: 'Plum', price: 'x' }]);
    expect(bulk.successes.map((s: { _id: string }) => s._id)).toEqual(['pear']);
    expect(bulk.errors.map((e: { status: number; reason: { id: string } }) => [e.status, e.reason.id])).toEqual([[400, 'services.storage.document_parse_failed']]);
    expect(await ok(writer, 'POST', at(type, '/count'), {})).toEqual({ count: 2 });
    expect((await ok(writer, 'GET', at(type, '/fig')))._source.price).toBe('3');
  });

  it('a date declared with format dd/MM/yyyy is searched as that date; a value the format does not read is 400', async () => {
    const type = uniqueCollection();
    await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { publishedAt: { type: 'date', format: 'dd/MM/yyyy' } } });
    await ok(writer, 'POST', at(type), { name: 'A', publishedAt: '25/11/2026' });
    await ok(writer, 'POST', at(type), { name: 'B', publishedAt: '02/01/2020' });
    expect(await ok(writer, 'POST', at(type, '/count'), { query: { range: { publishedAt: { gte: '2026-11-01', lt: '2026-12-01' } } } })).toEqual({ count: 1 });
    await failsWith(writer, 'POST', at(type), { name: 'C', publishedAt: '2026-11-25' }, 'services.storage.document_parse_failed', 400);
  });

  it('dynamic strict refuses an undeclared field (the server-managed ones are allowed), on every write', async () => {
    const type = uniqueCollection();
    await ok(admin, 'PUT', at(type, '/_mapping'), { dynamic: 'strict', properties: { name: { type: 'text' } } });
    await ok(writer, 'POST', at(type, '?_id=a'), { name: 'Alpha' });
    const refused = await failsWith(writer, 'POST', at(type), { name: 'Beta', colour: 'red' }, 'services.storage.strict_dynamic_mapping', 400);
    expect(refused.message).toBe('mapping set to strict, dynamic introduction of [colour] within [_doc] is not allowed');
    await failsWith(writer, 'PATCH', at(type, '/a'), { colour: 'red' }, 'services.storage.strict_dynamic_mapping', 400);
    const bulk = await ok(writer, 'POST', at(type, '/_bulk'), [{ name: 'Gamma' }, { name: 'Delta', colour: 'blue' }]);
    expect([bulk.successes.length, bulk.errors.map((e: { reason: { id: string } }) => e.reason.id)]).toEqual([1, ['services.storage.strict_dynamic_mapping']]);
  });

  it('a text field declared with an analyzer is indexed and searched with it: stems, stop words, phrases across them, highlights', async () => {
    const type = uniqueCollection();
    await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { body: { type: 'text', analyzer: 'english' }, jp: { type: 'text', analyzer: 'cjk' } } });
    await ok(writer, 'POST', at(type, '?_id=a'), { body: 'The dogs are running the races', jp: '東京都' });
    await ok(writer, 'POST', at(type, '?_id=b'), { body: 'A runner ran one race', jp: '京都' });
    const ids = async (body: Record<string, unknown>) => (await ok(reader, 'POST', at(type, '/search'), body)).hits.map((h: { _id: string }) => h._id).sort();
    expect(await ids({ query: { match: { body: 'race' } } })).toEqual(['a', 'b']);
    expect(await ids({ query: { term: { body: 'race' } } })).toEqual(['a', 'b']);
    expect(await ids({ query: { term: { body: 'races' } } })).toEqual([]);
    expect(await ids({ query: { match_phrase: { body: 'running the races' } } })).toEqual(['a']);
    expect(await ids({ query: { match_phrase: { body: 'running races' } } })).toEqual([]);
    expect(await ids({ query: { match: { jp: '京都' } } })).toEqual(['a', 'b']);
    expect(await ids({ query: { match: { jp: '東京' } } })).toEqual(['a']);
    expect(await ids({ query: { match: { body: { query: 'races', analyzer: 'keyword' } } } })).toEqual([]);
    expect(await ids({ query: { query_string: { query: 'body:dogs AND body:"running the races"' } } })).toEqual(['a']);
    const highlighted = await ok(reader, 'POST', at(type, '/search'), { query: { match: { body: 'race' } }, highlight: { fields: { body: {} } } });
    expect(highlighted.hits.map((h: { highlight: unknown }) => h.highlight)).toEqual([{ body: ['The dogs are running the <em>races</em>'] }, { body: ['A runner ran one <em>race</em>'] }]);
    const unknown = await failsWith(reader, 'POST', at(type, '/search'), { query: { match: { body: { query: 'x', analyzer: 'french' } } } }, 'services.storage.invalid_search_query', 400);
    expect(unknown.message).toContain('analyzer [french]');
  });

  it('search_analyzer replaces the analyzer at search time; the analyzer itself never changes (400 invalid_mapping naming the field)', async () => {
    const type = uniqueCollection();
    await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { body: { type: 'text', analyzer: 'english', search_analyzer: 'whitespace' } } });
    await ok(writer, 'POST', at(type, '?_id=a'), { body: 'Running dogs' });
    expect(await ok(reader, 'POST', at(type, '/count'), { query: { match: { body: 'Running' } } })).toEqual({ count: 0 });
    expect(await ok(reader, 'POST', at(type, '/count'), { query: { match: { body: 'run' } } })).toEqual({ count: 1 });
    await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { body: { type: 'text', analyzer: 'english', search_analyzer: 'english' } } });
    expect(await ok(reader, 'POST', at(type, '/count'), { query: { match: { body: 'Running' } } })).toEqual({ count: 1 });
    const refused = await failsWith(admin, 'PUT', at(type, '/_mapping'), { properties: { body: { type: 'text', analyzer: 'simple' } } }, 'services.storage.invalid_mapping', 400);
    expect(refused.message).toContain('Mapper for [body] conflicts with existing mapper: Cannot update parameter [analyzer] from [english] to [simple]');
    await failsWith(admin, 'PUT', at(type, '/_mapping'), { properties: { title: { type: 'text', search_analyzer: 'simple' } } }, 'services.storage.invalid_mapping', 400);
  });

  it('normalizer lowercase: term-level queries find any case, sort and aggregations see the lower-cased value, _source keeps what was sent', async () => {
    const type = uniqueCollection();
    await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { code: { type: 'keyword', normalizer: 'lowercase' } } });
    await ok(writer, 'POST', at(type, '?_id=a'), { code: 'FR-75' });
    await ok(writer, 'POST', at(type, '?_id=b'), { code: 'fr-13' });
    for (const query of [{ term: { code: 'Fr-75' } }, { terms: { code: ['FR-75'] } }, { prefix: { code: 'FR-7' } }, { wildcard: { code: 'FR-7?' } }, { regexp: { code: 'FR-7.' } }, { fuzzy: { code: 'FR-76' } }, { range: { code: { gt: 'FR-50' } } }, { match: { code: 'FR-75' } }]) {
      expect({ query, count: await ok(reader, 'POST', at(type, '/count'), { query }) }).toEqual({ query, count: { count: 1 } });
    }
    const result = await ok(reader, 'POST', at(type, '/search'), { sort: [{ code: 'desc' }], aggs: { codes: { terms: { field: 'code' } } } });
    expect(result.hits.map((h: { _id: string; sort: unknown; _source: { code: string } }) => [h._id, h.sort, h._source.code])).toEqual([
      ['a', ['fr-75'], 'FR-75'],
      ['b', ['fr-13'], 'fr-13'],
    ]);
    expect(result.aggregations.codes.buckets.map((b: { key: string }) => b.key)).toEqual(['fr-13', 'fr-75']);
  });

  it("tenants: an analyzed field never shows another tenant's entity, in hits, counts or highlights", async () => {
    const type = uniqueCollection();
    await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { body: { type: 'text', analyzer: 'english' }, code: { type: 'keyword', normalizer: 'lowercase' } } });
    await ok(writer, 'POST', at(type, '?_id=mine'), { body: 'running races', code: 'AB' });
    const other: Caller = { server, token: await server.token({ sub: 'olga', tenantId: 'other-co', roles: ['writer'] }) };
    await ok(other, 'POST', at(type, '?_id=theirs'), { body: 'the races ran', code: 'ab' });
    const seen = await ok(reader, 'POST', at(type, '/search'), { query: { bool: { should: [{ match: { body: 'race' } }, { term: { code: 'ab' } }] } }, highlight: { fields: { body: {} } } });
    expect(seen.hits.map((h: { _id: string }) => h._id)).toEqual(['mine']);
    expect(await ok(other, 'POST', at(type, '/count'), { query: { term: { code: 'AB' } } })).toEqual({ count: 1 });
  });

  it('double keeps 64 bits, float 32, half_float 16, scaled_float a long of value * scaling_factor: terms, ranges, sorts and sums as Elasticsearch keeps them', async () => {
    const type = uniqueCollection();
    await ok(admin, 'PUT', at(type, '/_mapping'), { properties: { d: { type: 'double' }, f: { type: 'float' }, h: { type: 'half_float' }, s: { type: 'scaled_float', scaling_factor: 100 } } });
    await ok(writer, 'POST', at(type, '?_id=a'), { d: 0.1, f: 0.1, h: 0.1, s: 1.234 });
    await ok(writer, 'POST', at(type, '?_id=b'), { d: 0.30000000000000004, f: 0.3, h: 1000.2, s: 1.235 });
    const ids = async (query: Record<string, unknown>) => (await ok(reader, 'POST', at(type, '/search'), { query, sort: [{ d: 'asc' }] })).hits.map((h: { _id: string }) => h._id);
    expect(await ids({ range: { d: { gt: 0.3 } } })).toEqual(['b']);
    expect(await ids({ range: { f: { gt: 0.3 } } })).toEqual([]);
    expect(await ids({ term: { d: 0.1 } })).toEqual(['a']);
    expect(await ids({ term: { h: 1000 } })).toEqual(['b']);
    expect(await ids({ term: { s: 1.23 } })).toEqual(['a']);
    expect(await ids({ range: { s: { gt: 1.23 } } })).toEqual(['b']);
    const result = await ok(reader, 'POST', at(type, '/search'), { sort: [{ d: 'desc' }], aggs: { sum: { sum: { field: 'd' } } }, docvalue_fields: ['d', 'h', 's'] });
    expect(result.hits.map((h: { sort: unknown }) => h.sort)).toEqual([[0.30000000000000004], [0.1]]);
    expect(result.aggregations.sum.value).toBe(0.1 + 0.30000000000000004);
    expect(result.hits[1].fields).toEqual({ d: [0.1], h: [0.0999755859375], s: [1.23] });
    expect(result.hits[1]._source).toMatchObject({ d: 0.1, h: 0.1, s: 1.234 });
  });
});

