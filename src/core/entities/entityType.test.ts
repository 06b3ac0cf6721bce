import { parseCollection, parseTypeName } from './entityType';

describe('entity types', () => {
  it.each([
    ['countries', 'country'],
    ['assets', 'asset'],
    ['business-units', 'businessUnit'],
    ['people', 'person'],
    ['news', 'news'],
  ])('%s is the collection of %s', (segment, entityType) => {
    expect(parseCollection(segment)).toEqual({ ok: true, value: { collection: segment, entityType } });
  });

  it.each(['Countries', 'my_type', 'countries!', '-countries', 'countries-', 'business--units', '1countries', ''])('refuses the malformed segment %p', (segment) => {
    const r = parseCollection(segment);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(['api.assert.invalid_argument', 'api.assert.missing_argument']).toContain(r.error.id);
  });

  it('refuses a singular segment and names the plural', () => {
    const r = parseCollection('country');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('"countries"');
  });

  it.each([
    ['country', 'countries'],
    ['countries', 'countries'],
    ['businessUnit', 'business-units'],
    ['business-unit', 'business-units'],
  ])('reads the type name %s as %s', (name, collection) => {
    const r = parseTypeName(name);
    expect(r.ok && r.value.collection).toBe(collection);
  });
});
