import fc from 'fast-check';
import { IndexMapping, coerce, dynamicType } from './mapping';

function fields(mapping: IndexMapping, doc: Record<string, unknown>) {
  return Object.fromEntries([...mapping.parse(doc)].map(([name, v]) => [name, v.values]));
}

describe('IndexMapping (explicit + dynamic mapping)', () => {
  it('maps and counts each document of a sequence as a fresh copy of the mapping does (the keys of the objects before it remembered)', () => {
    // documents of a few keys, in varying order, whose values change type, turn into objects or
    // arrays, or are null: every walk and count agrees with a copy made just before it (a copy
    // remembers nothing of the documents seen)
    const key = fc.constantFrom('a', 'b', 'c', 'a.b', '_id', 'd');
    const leaf = fc.oneof(fc.constantFrom('x y', '2024-01-02', 'Z', 7, 1.5, true, null), fc.string({ maxLength: 3 }));
    const value = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, leaf, fc.array(leaf, { maxLength: 2 }), fc.dictionary(key, tie('value'), { maxKeys: 3 })),
    })).value;
    const doc = fc.dictionary(key, value, { maxKeys: 4 });
    fc.assert(
      fc.property(fc.array(doc, { minLength: 1, maxLength: 12 }), fc.boolean(), fc.array(fc.nat(11), { maxLength: 2 }), (docs, dynamic, learnAt) => {
        const m = new IndexMapping({ keyword: ['b'] });
        m.setDynamic(dynamic);
        docs.forEach((d, i) => {
          if (learnAt.includes(i)) m.learn(`c.${i}`, 'keyword');
          const fresh = m.copy();
          expect(m.newFieldCount([d, d])).toBe(fresh.newFieldCount([d, d]));
          expect(fields(m, d)).toEqual(fields(fresh, d));
          expect(m.fieldNames().sort()).toEqual(fresh.fieldNames().sort());
        });
      }),
      { seed: 17, numRuns: 300 },
    );
  });

  it('maps strings to text plus a keyword sub-field, numbers to long or float, booleans', () => {
    const m = new IndexMapping();
    expect(fields(m, { name: 'France', pop: 67, area: 0.5, eu: true })).toEqual({
      name: ['France'],
      'name.keyword': ['France'],
      pop: [67],
      area: [Math.fround(0.5)],
      eu: [true],
    });
    expect(m.type('name')).toBe('text');
    expect(m.type('name.keyword')).toBe('keyword');
    expect(m.type('pop')).toBe('long');
    expect(m.type('area')).toBe('float');
    expect(m.type('eu')).toBe('boolean');
  });

  it('reads nested keys the same document after document, and a field mapped later once it is (dynamic off)', () => {
    const m = new IndexMapping({ keyword: ['a.b'] });
    m.setDynamic(false);
    const doc = { a: { b: 'x', c: 'y', 'd.e': 'z' }, f: 1 };
    expect(fields(m, doc)).toEqual({ 'a.b': ['x'] });
    expect(fields(m, doc)).toEqual({ 'a.b': ['x'] });
    m.learn('a.c', 'keyword');
    m.learn('a.d.e', 'long');
    expect(fields(m, { a: { b: 'x', c: 'y', 'd.e': 5 }, f: 1 })).toEqual({ 'a.b': ['x'], 'a.c': ['y'], 'a.d.e': [5] });
    const dynamic = new IndexMapping();
    expect(fields(dynamic, doc)).toEqual({ 'a.b': ['x'], 'a.b.keyword': ['x'], 'a.c': ['y'], 'a.c.keyword': ['y'], 'a.d.e': ['z'], 'a.d.e.keyword': ['z'], f: [1] });
    expect(fields(dynamic, doc)).toEqual({ 'a.b': ['x'], 'a.b.keyword': ['x'], 'a.c': ['y'], 'a.c.keyword': ['y'], 'a.d.e': ['z'], 'a.d.e.keyword': ['z'], f: [1] });
  });

  it('maps and counts the own keys only, also while Object.prototype has an enumerable key or the document another prototype', () => {
    const doc = { a: 'x', n: { b: 1 } };
    const inherited = Object.assign(Object.create({ hidden: 'y' }) as Record<string, unknown>, { a: 'x' });
    Object.defineProperty(Object.prototype, 'polluted', { value: 'z', enumerable: true, configurable: true });
    try {
      expect(new IndexMapping().newFieldCount([doc, inherited])).toBe(4); // a, a.keyword, n, n.b
      expect(fields(new IndexMapping(), doc)).toEqual({ a: ['x'], 'a.keyword': ['x'], 'n.b': [1] });
      expect(fields(new IndexMapping(), inherited)).toEqual({ a: ['x'], 'a.keyword': ['x'] });
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    expect(fields(new IndexMapping(), inherited)).toEqual({ a: ['x'], 'a.keyword': ['x'] });
  });

  it('detects dates on first sight only', () => {
    const m = new IndexMapping();
    fields(m, { when: '2024-01-05T10:00:00Z', code: '2024' });
    expect(m.type('when')).toBe('date');
    expect(m.type('code')).toBe('text');
    expect(fields(m, { when: 'not a date' })).toEqual({}); // not coercible: left out
  });

  it('honours explicit keyword and date fields', () => {
    const m = new IndexMapping({ keyword: ['id', 'allowTenantIds', 'modifier.id'], date: ['modified'] });
    expect(fields(m, { id: 'x', allowTenantIds: ['a', 'b'], modified: '2024-01-05', modifier: { id: 'u1', slug: 'bob' } })).toEqual({
      id: ['x'],
      allowTenantIds: ['a', 'b'],
      modified: [Date.parse('2024-01-05')],
      'modifier.id': ['u1'],
      'modifier.slug': ['bob'],
      'modifier.slug.keyword': ['bob'],
    });
    expect(m.type('id')).toBe('keyword');
    expect(m.type('modified')).toBe('date');
    expect(m.isObject('modifier')).toBe(true);
  });

  it('flattens objects, arrays of objects and dotted keys', () => {
    const m = new IndexMapping();
    expect(fields(m, { a: { b: { c: 1 } }, list: [{ x: 1 }, { x: 2 }], 'd.e': 3, nested: [[1, 2], [3]] })).toEqual({
      'a.b.c': [1],
      'list.x': [1, 2],
      'd.e': [3],
      nested: [1, 2, 3],
    });
    expect(m.isObject('a.b')).toBe(true);
    expect(m.isObject('d')).toBe(true);
  });

  it('keeps the first type and coerces or drops later values', () => {
    const m = new IndexMapping();
    fields(m, { n: 1, s: 'text', b: true, o: { x: 1 } });
    expect(fields(m, { n: '42', s: 5, b: 'false', o: 'scalar' })).toEqual({ n: [42], s: ['5'], 's.keyword': ['5'], b: [false] });
    expect(fields(m, { n: 'abc', b: 'maybe', s: { x: 1 } })).toEqual({});
    expect(fields(m, { n: 2.7 })).toEqual({ n: [2] });
  });

  it('skips nulls, empty names and metadata fields, and respects ignore_above', () => {
    const m = new IndexMapping();
    const long = 'x'.repeat(257);
    expect(fields(m, { a: null, '': 1, _id: 'x', b: [null, 'v'], c: long })).toEqual({ b: ['v'], 'b.keyword': ['v'], c: [long] });
    expect(m.type('a')).toBeUndefined();
    expect(m.type('_id')).toBeUndefined();
    expect(fields(m, { _service_info: { createdAt: 5 } })).toEqual({ '_service_info.createdAt': [5] });
  });

  it('honours explicit text (no keyword sub-field), long, float and boolean fields', () => {
    const m = new IndexMapping({ text: ['title', 'meta.summary'], long: ['count'], float: ['ratio'], boolean: ['flag'] });
    expect(fields(m, { title: 'Hello', meta: { summary: 'Short' }, count: '12', ratio: 1, flag: 'true' })).toEqual({
      title: ['Hello'],
      'meta.summary': ['Short'],
      count: [12],
      ratio: [1],
      flag: [true],
    });
    expect(m.type('title')).toBe('text');
    expect(m.type('title.keyword')).toBeUndefined();
    expect(m.isObject('meta')).toBe(true);
    expect(m.dynamic).toBe(true);
  });

  it('dynamic: false indexes the declared fields only, and never maps new ones', () => {
    const m = new IndexMapping({ dynamic: false, text: ['name', 'owner.name'], keyword: ['tags'] });
    const doc = { name: 'Paris', description: 'a city', rank: 3, tags: ['x', 'y'], owner: { name: 'Ann', age: 4 }, extra: { deep: 'v' }, 'owner.id': 'u1' };
    expect(fields(m, doc)).toEqual({ name: ['Paris'], tags: ['x', 'y'], 'owner.name': ['Ann'] });
    expect(fields(m, doc)).toEqual({ name: ['Paris'], tags: ['x', 'y'], 'owner.name': ['Ann'] }); // (the top-level key cache too)
    for (const field of ['description', 'rank', 'owner.age', 'owner.id', 'extra', 'extra.deep', 'name.keyword']) expect(m.type(field)).toBeUndefined();
    expect(m.isObject('extra')).toBe(false);
    expect(m.fieldNames().sort()).toEqual(['name', 'owner.name', 'tags']);
    expect(m.dynamic).toBe(false);
  });

  it('names dynamic types and coerces', () => {
    expect(dynamicType(1)).toBe('long');
    expect(dynamicType(1.5)).toBe('float');
    expect(dynamicType(NaN)).toBeNull();
    expect(dynamicType(undefined)).toBeNull();
    expect(coerce('keyword', 5)).toBe('5');
    expect(coerce('long', '7')).toBe(7);
  });
});
