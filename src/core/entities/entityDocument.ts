/**
 * The stored form of an entity: the client's fields plus the server-managed ones (DESIGN.md
 * "Entities"), in the field order of spec 2.2. Clients cannot set managed fields: they are replaced.
 */
import { isPlainObject, setOwn } from '../args';
import { fail, ok, type Result } from '../errors';
import { isAdmin, isWriter, type Principal } from '../principal';
import type { Doc, ServiceInfo } from '../../store/port';
import type { EntityType } from './entityType';

export const MANAGED_FIELDS = ['_service_info', 'entityType', 'id', 'modified', 'modifier', '_id'] as const;
export const MAX_SLUG_LENGTH = 256;

/** "Côte d'Ivoire" -> "cote-d-ivoire"; empty when nothing latin is left. */
export function slugify(text: string): string {
  return slugifyAscii(text) ?? slugifyAny(text);
}

const SLUG_LENGTH = 128;

/**
 * slugifyAny's answer for an ASCII text, in one pass (no normalization to do, nothing to strip):
 * runs of other characters become one dash, none at either end, at most SLUG_LENGTH characters;
 * undefined when the text holds a character beyond ASCII. (Every create derives a slug: an import
 * spent a tenth of its time in the five regular expressions.)
 */
function slugifyAscii(text: string): string | undefined {
  let out = '';
  let dash = false;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0x80) return undefined;
    if (c >= 0x41 && c <= 0x5a) c += 0x20; // A-Z
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      if (out.length >= SLUG_LENGTH) continue; // (the rest is only checked for non-ASCII)
      if (dash && out !== '') {
        if (out.length + 1 >= SLUG_LENGTH) {
          out += '-'; // (cut below: a slug never ends with a dash)
          continue;
        }
        out += '-';
      }
      dash = false;
      out += String.fromCharCode(c);
    } else dash = true;
  }
  return out.endsWith('-') ? out.slice(0, -1) : out;
}

function slugifyAny(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_LENGTH)
    .replace(/-+$/, '');
}

/** Keys a client's body cannot set (managed), or that buildEntity places itself (slug, allowTenantIds). */
const PLACED_FIELDS = new Set<string>([...MANAGED_FIELDS, 'slug', 'allowTenantIds']);

/** `modified` of the last `now` asked (a batch's entities share their `now`). */
let lastNow = NaN;
let lastModified = '';
const modifiedAt = (now: number): string => (now === lastNow ? lastModified : ((lastNow = now), (lastModified = new Date(now).toISOString())));

/** A field name Elasticsearch refuses: empty, blank, or with an empty or blank part between dots ("a.", ".a", "a..b"). */
const isBadFieldName = (key: string): boolean => {
  if (!key.includes('.')) return !/\S/.test(key);
  for (const part of key.split('.')) if (!/\S/.test(part)) return true;
  return false;
};

/**
 * The first field name (depth first) that Elasticsearch would refuse ("field name cannot be an
 * empty string", "object field starting or ending with a [.] makes object resolution ambiguous"),
 * with its path; refused here so that both stores answer alike. Iterative (any depth).
 */
export function badFieldName(input: Doc): { key: string; path: string } | undefined {
  const stack: [unknown, string][] = [[input, 'body']];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) if (typeof value[i] === 'object' && value[i] !== null) stack.push([value[i], `${path}[${i}]`]);
    } else if (isPlainObject(value)) {
      const keys = Object.keys(value);
      for (const key of keys) if (isBadFieldName(key)) return { key, path };
      for (let i = keys.length - 1; i >= 0; i--) {
        const inner = value[keys[i]];
        if (typeof inner === 'object' && inner !== null) stack.push([inner, `${path}.${keys[i]}`]);
      }
    }
  }
  return undefined;
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
  return ok(given.length === 1 ? [given[0] as string] : [...new Set(given as string[])]);
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

/** The refusal of a caller who may not write entities (no `writer` or `admin` role), or null. */
export function writerRefusal(principal: Principal): Result<never> | null {
  return isWriter(principal) ? null : fail('security.rights.forbidden', { reason: 'writing entities needs the "writer" or "admin" role' });
}

export function buildEntity({ type, id, input, principal, now, previous }: BuildEntityArgs): Result<Doc> {
  const refused = writerRefusal(principal);
  if (refused !== null) return refused;
  if (input === undefined || input === null) return fail('api.assert.body_required');
  if (!isPlainObject(input)) return fail('api.assert.invalid_type', { name: 'body', expected: 'a JSON object' });
  const bad = badFieldName(input);
  if (bad !== undefined) {
    return fail('api.assert.invalid_argument', {
      name: 'body',
      reason: `the field name ${quoteName(bad.key)} in ${quoteName(bad.path)} is empty, blank, or has an empty part between dots (Elasticsearch refuses it)`,
    });
  }
  // (managed fields are not the client's: slug, name and allowTenantIds are read from the body as it is)
  const fields = input;
  const slug = resolveSlug(fields, id, previous);
  if (!slug.ok) return slug;
  const tenants = resolveTenants(fields, principal, previous);
  if (!tenants.ok) return tenants;
  const prevInfo = previous?._service_info as ServiceInfo | undefined;
  const serviceInfo: ServiceInfo = prevInfo
    ? { author: prevInfo.author, createdAt: prevInfo.createdAt, updatedAt: now, updater: principal.userId }
    : { author: principal.userId, createdAt: now, updatedAt: null, updater: null };
  const doc: Doc = {
    _service_info: serviceInfo,
    entityType: type.entityType,
    id,
    modified: modifiedAt(now),
    modifier: { entityType: 'user', id: principal.userId, slug: principal.slug, shortName: principal.shortName },
    slug: slug.value,
    allowTenantIds: tenants.value,
  };
  // then the client's other fields, in their order (keys such as `__proto__`, `constructor` or
  // `prototype` are plain fields: kept as own properties, never a prototype)
  const keys = Object.keys(input);
  for (let i = 0; i < keys.length; i++) if (!PLACED_FIELDS.has(keys[i])) setOwn(doc, keys[i], input[keys[i]]);
  return ok(doc);
}

/**
 * Deep merge for partial updates: objects merge, everything else (arrays included) replaces. Own
 * keys only, whatever their name: a patch's `__proto__` merges with a stored field of that name,
 * never with a prototype. Iterative (a patch may nest as deep as MAX_JSON_DEPTH).
 */
export function mergePatch(base: Doc, patch: Doc): Doc {
  const root: Doc = { ...base }; // (a spread copies a `__proto__` key as an own property)
  const stack: [Doc, Doc][] = [[root, patch]];
  while (stack.length > 0) {
    const [out, changes] = stack.pop() as [Doc, Doc];
    for (const k of Object.keys(changes)) {
      const v = changes[k];
      const current = Object.hasOwn(out, k) ? out[k] : undefined;
      if (isPlainObject(v) && isPlainObject(current)) {
        const merged: Doc = { ...current };
        setOwn(out, k, merged);
        stack.push([merged, v]);
      } else {
        setOwn(out, k, v);
      }
    }
  }
  return root;
}

/** A client's name in a message: JSON-quoted, at most 80 characters. */
function quoteName(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
}
