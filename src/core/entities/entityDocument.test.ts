import fc from 'fast-check';
import type { Principal } from '../principal';
import { badFieldName, buildEntity, mergePatch, slugify } from './entityDocument';

const writer: Principal = { userId: 'u1', tenantId: 'acme', roles: ['writer'], slug: 'alice', shortName: 'Alice', apiKeyId: null, expiresAt: -1 };
const admin: Principal = { ...writer, userId: 'root', roles: ['admin'] };
const reader: Principal = { ...writer, roles: [] };
const type = { collection: 'countries', entityType: 'country' };
const NOW = Date.UTC(2026, 0, 2, 3, 4, 5, 6);

describe('buildEntity', () => {
  it('sets every server-managed field, in the order of spec 2.2', () => {
    const r = buildEntity({ type, id: 'fr', input: { name: 'France', code: 'FR' }, principal: writer, now: NOW, previous: null });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual({
      _service_info: { author: 'u1', createdAt: NOW, updatedAt: null, updater: null },
      entityType: 'country',
      id: 'fr',
      modified: '2026-01-02T03:04:05.006Z',
      modifier: { entityType: 'user', id: 'u1', slug: 'alice', shortName: 'Alice' },
      slug: 'france',
      allowTenantIds: ['acme'],
      name: 'France',
      code: 'FR',
    });
    expect(Object.keys(r.value)).toEqual(['_service_info', 'entityType', 'id', 'modified', 'modifier', 'slug', 'allowTenantIds', 'name', 'code']);
  });

  it('replaces managed fields a client tries to set', () => {
    const r = buildEntity({
      type,
      id: 'fr',
      input: { name: 'France', entityType: 'planet', id: 'x', modified: 'yesterday', _service_info: { author: 'me' } },
      principal: writer,
      now: NOW,
      previous: null,
    });
    expect(r.ok && [r.value.entityType, r.value.id, r.value.modified, (r.value._service_info as { author: string }).author]).toEqual([
      'country',
      'fr',
      '2026-01-02T03:04:05.006Z',
      'u1',
    ]);
  });

  it('keeps author and createdAt on change and records the updater', () => {
    const first = buildEntity({ type, id: 'fr', input: { name: 'France' }, principal: writer, now: 1000, previous: null });
    if (!first.ok) throw first.error;
    const second = buildEntity({ type, id: 'fr', input: { name: 'République française' }, principal: admin, now: 2000, previous: first.value });
    expect(second.ok && second.value._service_info).toEqual({ author: 'u1', createdAt: 1000, updatedAt: 2000, updater: 'root' });
    expect(second.ok && second.value.slug).toBe('france');
    expect(second.ok && second.value.allowTenantIds).toEqual(['acme']);
  });

  it('lets a writer share only with its own tenant, and an admin with anyone', () => {
    const writerStar = buildEntity({ type, id: 'fr', input: { allowTenantIds: ['*'] }, principal: writer, now: NOW, previous: null });
    expect(!writerStar.ok && writerStar.error.id).toBe('security.rights.forbidden');
    const adminStar = buildEntity({ type, id: 'fr', input: { allowTenantIds: ['*'] }, principal: admin, now: NOW, previous: null });
    expect(adminStar.ok && adminStar.value.allowTenantIds).toEqual(['*']);
  });

  it('refuses callers without a writing role, and bodies that are not objects', () => {
    const r = buildEntity({ type, id: 'fr', input: { name: 'France' }, principal: reader, now: NOW, previous: null });
    expect(!r.ok && r.error.id).toBe('security.rights.forbidden');
    const arr = buildEntity({ type, id: 'fr', input: [1], principal: writer, now: NOW, previous: null });
    expect(!arr.ok && arr.error.id).toBe('api.assert.invalid_type');
  });
});

describe('slugify and mergePatch', () => {
  it.each([
    ["Côte d'Ivoire", 'cote-d-ivoire'],
    ['  São Tomé & Príncipe ', 'sao-tome-principe'],
    ['日本', ''],
    ['Country North 12', 'country-north-12'],
    ['--A  b--', 'a-b'],
    [`${'a'.repeat(127)} b`, 'a'.repeat(127)],
    [`${'a'.repeat(126)} bc`, `${'a'.repeat(126)}-b`],
  ])('slugify(%p) = %p', (input, slug) => expect(slugify(input)).toBe(slug));

  it('slugifies ASCII texts in one pass exactly as the general rule (NFKD, marks stripped, runs of others as one dash, 128 at most)', () => {
    const general = (text: string) =>
      text
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 128)
        .replace(/-+$/, '');
    const char = fc.constantFrom(...'aZ09 -_.!\t~'.split(''), 'é', 'ß', '日');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 300 }), fc.nat(200), (chars, pad) => {
        const text = 'x'.repeat(pad) + chars.join('');
        expect(slugify(text)).toBe(general(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('merges objects deeply and replaces arrays', () => {
    expect(mergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { c: 3 }, l: [3] })).toEqual({ a: { b: 1, c: 3 }, l: [3] });
  });
});

describe('keys that name prototypes, and deep patches', () => {
  const proto = Object.prototype as unknown as Record<string, unknown>;
  const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
  afterEach(() => {
    expect(proto.polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it('keeps __proto__, constructor and prototype as plain fields of the stored entity', () => {
    const input = json('{"name":"P","__proto__":{"slug":"evil","polluted":1},"constructor":{"prototype":{"polluted":2}},"prototype":3}');
    const r = buildEntity({ type, id: 'p', input, principal: writer, now: NOW, previous: null });
    if (!r.ok) throw r.error;
    expect(r.value.slug).toBe('p'); // not read through a prototype
    expect(Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(JSON.stringify(r.value)).toContain('"name":"P","__proto__":{"slug":"evil","polluted":1},"constructor":{"prototype":{"polluted":2}},"prototype":3}');
  });

  it('merges a patch key __proto__ with the stored field of that name, never with a prototype', () => {
    const base = json('{"a":1,"__proto__":{"x":1}}');
    const merged = mergePatch(base, json('{"__proto__":{"y":2},"b":{"__proto__":{"polluted":1}},"constructor":{"prototype":{"polluted":1}}}'));
    expect(JSON.stringify(merged)).toBe('{"a":1,"__proto__":{"x":1,"y":2},"b":{"__proto__":{"polluted":1}},"constructor":{"prototype":{"polluted":1}}}');
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(JSON.stringify(base)).toBe('{"a":1,"__proto__":{"x":1}}'); // the stored entity is not changed
  });

  it('a patch __proto__ on an entity without that field becomes a field', () => {
    const merged = mergePatch({ a: 1 }, json('{"__proto__":{"polluted":1}}'));
    expect(JSON.stringify(merged)).toBe('{"a":1,"__proto__":{"polluted":1}}');
    expect((merged as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('merges patches nested 100,000 levels deep without recursion', () => {
    const deep = (n: number, leaf: unknown) => {
      let v: unknown = leaf;
      for (let i = 0; i < n; i++) v = { a: v };
      return v as Record<string, unknown>;
    };
    const merged = mergePatch(deep(100_000, { x: 1 }), deep(100_000, { y: 2 }));
    let at: Record<string, unknown> = merged;
    for (let i = 0; i < 100_000; i++) at = at.a as Record<string, unknown>;
    expect(at).toEqual({ x: 1, y: 2 });
  });

  it.each([
    ['{"":1}', '', 'body'],
    ['{"a":{"b":[{"  ":1}]}}', '  ', 'body.a.b[0]'],
    ['{"a.":1}', 'a.', 'body'],
    ['{".a":1}', '.a', 'body'],
    ['{"a..b":1}', 'a..b', 'body'],
    ['{"a. .b":1}', 'a. .b', 'body'],
    ['{"x":1,"y":{"z":{".":1}}}', '.', 'body.y.z'],
  ])('refuses the field name of %s', (text, key, path) => {
    expect(badFieldName(json(text))).toEqual({ key, path });
    const r = buildEntity({ type, id: 'p', input: json(text), principal: writer, now: NOW, previous: null });
    expect(!r.ok && [r.error.id, r.error.props.name]).toEqual(['api.assert.invalid_argument', 'body']);
  });

  it.each(['{"a.b":1}', '{"é":{"_x":[{"a b":1}]}}', '{"__proto__":1}', '{"a":[[{"b":{}}]]}'])('accepts the field names of %s', (text) => {
    expect(badFieldName(json(text))).toBeUndefined();
  });
});
