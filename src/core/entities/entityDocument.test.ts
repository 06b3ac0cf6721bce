import type { Principal } from '../principal';
import { buildEntity, mergePatch, slugify } from './entityDocument';

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
  ])('slugify(%p) = %p', (input, slug) => expect(slugify(input)).toBe(slug));

  it('merges objects deeply and replaces arrays', () => {
    expect(mergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { c: 3 }, l: [3] })).toEqual({ a: { b: 1, c: 3 }, l: [3] });
  });
});
