import { IndexMapping } from '../embedded/engine/mapping';
import { learnProperties } from './entities';
import { parseTypeMapping } from '../mapping/typeMapping';
import { entity, storeOnFake } from './testing/storeOnFake';

describe('subscription filters on the Elasticsearch store', () => {
  it("see the entity's real _id and the field types entities written before fixed", async () => {
    const { store } = storeOnFake();
    const byId = store.entities.matcher('countries', { ids: { values: ['fr'] } });
    expect(byId('fr', entity('fr', 'france'))).toBe(true);
    expect(byId('de', entity('de', 'germany'))).toBe(false);
    const atLeast9 = store.entities.matcher('countries', { range: { points: { gte: 9 } } });
    expect(await store.entities.create('countries', 'fr', entity('fr', 'france', { points: 5 }))).toBe('ok');
    // points is a long now: "12" is the number 12 (alone, it would be text, and "12" < "9")
    expect(atLeast9('de', entity('de', 'germany', { points: '12' }))).toBe(true);
    expect(atLeast9('de', entity('de', 'germany', { points: '3' }))).toBe(false);
  });

  it("read an Elasticsearch mapping's properties as field types", () => {
    const mapping = new IndexMapping();
    learnProperties(
      mapping,
      {
        name: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
        code: { type: 'keyword' },
        rank: { type: 'integer' },
        price: { type: 'scaled_float', scaling_factor: 100 },
        at: { type: 'date' },
        on: { type: 'boolean' },
        place: { properties: { city: { type: 'text' } } },
        shape: { type: 'geo_shape' },
      },
      '',
    );
    expect([mapping.type('name'), mapping.type('name.keyword'), mapping.type('code'), mapping.type('rank'), mapping.type('price'), mapping.type('at'), mapping.type('on'), mapping.type('place.city'), mapping.type('shape')]).toEqual([
      'text',
      'keyword',
      'keyword',
      'long',
      'double',
      'date',
      'boolean',
      'text',
      undefined,
    ]);
    expect(mapping.isObject('place')).toBe(true);
  });

  it('match declared fields as the cluster indexes them: analyzers, normalizers, number roundings', async () => {
    const { store } = storeOnFake();
    await store.entities.putMapping('notes', parseTypeMapping({ properties: { body: { type: 'text', analyzer: 'english' }, code: { type: 'keyword', normalizer: 'lowercase' }, price: { type: 'scaled_float', scaling_factor: 10 } } }));
    const phrase = store.entities.matcher('notes', { match_phrase: { body: 'running the races' } });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the cluster's mapping is read once, in the background
    expect(phrase('a', { body: 'Dogs running fast races' })).toBe(true);
    expect(phrase('b', { body: 'Dogs running races' })).toBe(false);
    expect(store.entities.matcher('notes', { term: { code: 'AB' } })('c', { code: 'aB' })).toBe(true);
    expect(store.entities.matcher('notes', { term: { price: 1.2 } })('d', { price: 1.23 })).toBe(true);
  });

  it('match nested queries object by object, the cluster\'s nested fields declared', async () => {
    const { store } = storeOnFake();
    await store.entities.putMapping('kits', parseTypeMapping({ properties: { parts: { type: 'nested', properties: { name: { type: 'text' }, n: { type: 'integer' } } } } }));
    const both = store.entities.matcher('kits', { nested: { path: 'parts', query: { bool: { must: [{ match: { 'parts.name': 'bolt' } }, { range: { 'parts.n': { gte: 5 } } }] } } } });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the cluster's mapping is read once, in the background
    expect(both('a', { parts: [{ name: 'bolt', n: 9 }] })).toBe(true);
    expect(both('b', { parts: [{ name: 'bolt', n: 3 }, { name: 'nut', n: 9 }] })).toBe(false);
    const mapping = new IndexMapping();
    learnProperties(mapping, { parts: { type: 'nested', include_in_parent: true, properties: { name: { type: 'text' } } } }, '');
    expect([mapping.isNested('parts'), mapping.type('parts.name')]).toEqual([true, 'text']);
  });
});
