import { MappingError } from '../mapping/mappingError';
import { parseTypeMapping } from '../mapping/typeMapping';
import { mappingErrorOf, strictProperties } from './declaredMappings';
import { entityIndexDefinition } from './mappings';
import { esError } from './testing/fakeElasticsearch';
import { entity, storeOnFake } from './testing/storeOnFake';

const shape = (r: { method: string; path: string; querystring: Record<string, string> }) => [r.method, r.path, r.querystring];

describe('declared mappings on Elasticsearch: what is sent', () => {
  it('put: the index created first, its mapping read, then PUT _mapping with the declared fields and the declaration in _meta', async () => {
    const { fake, store } = storeOnFake();
    const update = parseTypeMapping({ dynamic: 'strict', properties: { code: { type: 'keyword' }, price: { type: 'long' }, loose: { type: 'long', ignore_malformed: true } } });
    const merged = await store.entities.putMapping('countries', update);
    expect(merged).toEqual({ dynamic: 'strict', properties: update.properties });
    expect(fake.requests.map(shape)).toEqual([
      ['HEAD', '/gw-countries', {}],
      ['HEAD', '/gw_slugs', {}],
      ['PUT', '/gw-countries', {}],
      ['PUT', '/gw_slugs', {}],
      ['GET', '/gw-countries/_mapping', {}],
      ['PUT', '/gw-countries/_mapping', {}],
    ]);
    expect(fake.requests[2].body).toEqual(entityIndexDefinition());
    expect(fake.requests[5].body).toEqual({
      dynamic: 'strict',
      properties: { modifier: { type: 'object', dynamic: 'true' }, _service_info: { type: 'object', dynamic: 'true' }, code: { type: 'keyword' }, price: { type: 'long', ignore_malformed: false }, loose: { type: 'long', ignore_malformed: true } },
      _meta: { declared: merged },
    });
    expect(await store.entities.getMapping('countries')).toEqual(merged);
    expect(await store.entities.getMapping('nothing-here')).toEqual({ dynamic: 'true', properties: {} });
  });

  it('sends analyzers, search analyzers, normalizers, scaling factors and number types unchanged; a search carries a query analyzer as given', async () => {
    const { fake, store } = storeOnFake();
    const properties = {
      body: { type: 'text', analyzer: 'english', search_analyzer: 'standard', search_quote_analyzer: 'whitespace', fields: { jp: { type: 'text', analyzer: 'cjk' } } },
      code: { type: 'keyword', normalizer: 'lowercase' },
      price: { type: 'scaled_float', scaling_factor: 100 },
      weight: { type: 'double' },
      ratio: { type: 'half_float' },
    };
    await store.entities.putMapping('goods', parseTypeMapping({ properties }));
    const put = fake.requests.find((r) => r.method === 'PUT' && r.path === '/gw-goods/_mapping');
    expect(put?.body.properties).toMatchObject({
      body: properties.body,
      code: properties.code,
      price: { ...properties.price, ignore_malformed: false },
      weight: { type: 'double', ignore_malformed: false },
      ratio: { type: 'half_float', ignore_malformed: false },
    });
    fake.requests.length = 0;
    const query = { bool: { must: [{ match: { body: { query: 'Running', analyzer: 'simple' } } }, { query_string: { query: '"the dog"', quote_analyzer: 'english', analyzer: 'standard' } }] } };
    await store.entities.search('goods', { query, from: 0, size: 10 }, null);
    const search = fake.requests.find((r) => r.path.endsWith('/_search'));
    expect(JSON.stringify(search?.body)).toContain(JSON.stringify(query.bool.must[0]));
    expect(JSON.stringify(search?.body)).toContain(JSON.stringify(query.bool.must[1]));
  });

  it('refuses a type change of a declared or dynamically mapped field before sending it, in Elasticsearch\'s words', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.create('countries', 'fr', entity('fr', 'france'));
    fake.requests.length = 0;
    // the fake maps the entity's fields as Elasticsearch's dynamic mapping would: name is text here
    fake.indices.get('gw-countries')!.mappings.properties = { ...(fake.indices.get('gw-countries')!.mappings.properties as object), name: { type: 'text', fields: { keyword: { type: 'keyword' } } } };
    const err = await store.entities.putMapping('countries', parseTypeMapping({ properties: { name: { type: 'keyword' } } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MappingError);
    expect((err as MappingError).message).toBe('mapper [name] cannot be changed from type [text] to [keyword]');
    expect(fake.requests.map(shape)).toEqual([['GET', '/gw-countries/_mapping', {}]]);
  });

  it("Elasticsearch's own refusals become MappingErrors", () => {
    expect(mappingErrorOf(esError(400, 'illegal_argument_exception', 'mapper [code] cannot be changed from type [keyword] to [long]'))?.props).toEqual({ field: 'code', from: 'keyword', to: 'long' });
    expect(mappingErrorOf(esError(400, 'mapper_parsing_exception', 'No handler for type [x] declared on field [y]'))?.kind).toBe('invalid_mapping');
    expect(mappingErrorOf(esError(503, 'unavailable', 'x'))).toBeUndefined();
  });

  it('a store that cannot reach Elasticsearch answers unavailable, not a mapping error', async () => {
    const { fake, store } = storeOnFake();
    fake.unreachable = true;
    await expect(store.entities.getMapping('countries')).rejects.toThrow(/unavailable/);
  });

  it('strictProperties: ignore_malformed false on the types that take it, objects walked', () => {
    expect(strictProperties({ a: { type: 'text' }, b: { properties: { c: { type: 'date' }, d: { type: 'geo_point' } } }, e: { type: 'boolean' } })).toEqual({
      a: { type: 'text' },
      b: { properties: { c: { type: 'date', ignore_malformed: false }, d: { type: 'geo_point', ignore_malformed: false } } },
      e: { type: 'boolean' },
    });
  });
});

describe('declared mappings on Elasticsearch: documents checked before a write', () => {
  it('checkDocuments reads the declared mapping once (then as put here) and refuses what does not fit', async () => {
    const { fake, store } = storeOnFake();
    await store.entities.putMapping('countries', parseTypeMapping({ dynamic: 'strict', properties: { name: { type: 'text' }, price: { type: 'long' } } }));
    fake.requests.length = 0;
    const refusals = await store.entities.checkDocuments('countries', [
      { id: 'a', source: entity('a', 'a', { price: 3 }) },
      { id: 'b', source: entity('b', 'b', { price: 'x' }) },
      { id: 'c', source: entity('c', 'c', { colour: 'red' }) },
    ]);
    expect(refusals.map((r) => r?.kind ?? null)).toEqual([null, 'document_parse_failed', 'strict_dynamic_mapping']);
    expect(fake.requests).toEqual([]); // known from the put
    const { store: other, fake: same } = storeOnFake({}, fake);
    expect((await other.entities.checkDocuments('countries', [{ id: 'b', source: { price: 'x' } }]))[0]?.props).toEqual({ field: 'price', type: 'long', id: 'b' });
    expect(same.requests.map(shape)).toEqual([['GET', '/gw-countries/_mapping', {}]]);
  });
});
