/**
 * The stored form of an entity: the client's fields plus the server-managed ones (DESIGN.md
 * "Entities"), in the field order of spec 2.2. Clients cannot set managed fields: they are replaced.
 */
import { isPlainObject } from '../args';
import { fail, ok, type Result } from '../errors';
import { isAdmin, isWriter, type Principal } from '../principal';
import type { Doc, ServiceInfo } from '../../store/port';
import type { EntityType } from './entityType';

export const MANAGED_FIELDS = ['_service_info', 'entityType', 'id', 'modified', 'modifier', '_id'] as const;
const MAX_SLUG_LENGTH = 256;

/** "Côte d'Ivoire" -> "cote-d-ivoire"; empty when nothing latin is left. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 128)
    .replace(/-+$/, '');
}

function clientFields(input: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(input)) if (!(MANAGED_FIELDS as readonly string[]).includes(k)) out[k] = v;
  return out;
}

function resolveSlug(fields: Doc, id: string, previous: Doc | null): Result<string> {
  const given = fields.slug;
  if (given !== undefined && given !== null) {
    if (typeof given !== 'string') return fail('api.assert.invalid_type', { name: 'slug', expected: 'a string' });
    if (given === '' || given.length > MAX_SLUG_LENGTH || /\s/.test(given)) {
      return fail('api.assert.invalid_argument', { name: 'slug', reason: `must be 1 to ${MAX_SLUG_LENGTH} characters without spaces` });
    }
    return ok(given);
  }
  if (previous !== null && typeof previous.slug === 'string') return ok(previous.slug);
  const fromName = typeof fields.name === 'string' ? slugify(fields.name) : '';
  return ok(fromName !== '' ? fromName : id.toLowerCase());
}

function resolveTenants(fields: Doc, principal: Principal, previous: Doc | null): Result<string[]> {
  const given = fields.allowTenantIds;
  if (given === undefined || given === null) {
    if (previous !== null && Array.isArray(previous.allowTenantIds)) return ok(previous.allowTenantIds as string[]);
    if (principal.tenantId !== null) return ok([principal.tenantId]);
    return fail('api.assert.missing_argument', { name: 'allowTenantIds' });
  }
  if (!Array.isArray(given) || given.length === 0 || !given.every((t) => typeof t === 'string' && t !== '')) {
    return fail('api.assert.invalid_type', { name: 'allowTenantIds', expected: 'a non-empty array of tenant ids' });
  }
  if (!isAdmin(principal) && !(given.length === 1 && given[0] === principal.tenantId)) {
    return fail('security.rights.forbidden', { reason: `a writer may only share entities with its own tenant ("${principal.tenantId}")` });
  }
  return ok([...new Set(given as string[])]);
}

export interface BuildEntityArgs {
  type: EntityType;
  id: string;
  input: unknown;
  principal: Principal;
  now: number;
  /** The stored entity this one replaces; null on create. */
  previous: Doc | null;
}

export function buildEntity({ type, id, input, principal, now, previous }: BuildEntityArgs): Result<Doc> {
  if (!isWriter(principal)) return fail('security.rights.forbidden', { reason: 'writing entities needs the "writer" or "admin" role' });
  if (input === undefined || input === null) return fail('api.assert.body_required');
  if (!isPlainObject(input)) return fail('api.assert.invalid_type', { name: 'body', expected: 'a JSON object' });
  const fields = clientFields(input);
  const slug = resolveSlug(fields, id, previous);
  if (!slug.ok) return slug;
  const tenants = resolveTenants(fields, principal, previous);
  if (!tenants.ok) return tenants;
  const prevInfo = previous?._service_info as ServiceInfo | undefined;
  const serviceInfo: ServiceInfo = prevInfo
    ? { author: prevInfo.author, createdAt: prevInfo.createdAt, updatedAt: now, updater: principal.userId }
    : { author: principal.userId, createdAt: now, updatedAt: null, updater: null };
  const { slug: _slug, allowTenantIds: _tenants, ...rest } = fields;
  return ok({
    _service_info: serviceInfo,
    entityType: type.entityType,
    id,
    modified: new Date(now).toISOString(),
    modifier: { entityType: 'user', id: principal.userId, slug: principal.slug, shortName: principal.shortName },
    slug: slug.value,
    allowTenantIds: tenants.value,
    ...rest,
  });
}

/** Deep merge for partial updates: objects merge, everything else (arrays included) replaces. */
export function mergePatch(base: Doc, patch: Doc): Doc {
  const out: Doc = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? mergePatch(out[k] as Doc, v) : v;
  }
  return out;
}
