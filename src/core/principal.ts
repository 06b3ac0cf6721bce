/**
 * Who is calling, and what they may do (DESIGN.md "Permissions and tenants").
 */
import type { QueryDsl } from '../store/port';

export interface Principal {
  userId: string;
  /** null when the token names no tenant: such a caller sees only entities shared with "*". */
  tenantId: string | null;
  roles: string[];
  slug: string;
  shortName: string;
  /** Set when the caller authenticated with an API key. */
  apiKeyId: string | null;
  /** When the presented token stops working, ms since Epoch; -1 for never. */
  expiresAt: number;
}

/** The caller of a public operation: no user, no tenant, no role. */
export const ANONYMOUS: Principal = Object.freeze({
  userId: '',
  tenantId: null,
  roles: [],
  slug: '',
  shortName: '',
  apiKeyId: null,
  expiresAt: -1,
}) as Principal;

export const isAdmin = (p: Principal): boolean => p.roles.includes('admin');
export const isWriter = (p: Principal): boolean => isAdmin(p) || p.roles.includes('writer');

/** The non-scoring filter that limits a search to what the principal may see; null for admins. */
export function visibilityFilter(p: Principal): QueryDsl | null {
  if (isAdmin(p)) return null;
  const tenants = p.tenantId === null ? ['*'] : [p.tenantId, '*'];
  return { terms: { allowTenantIds: tenants } };
}

/** The same rule for one document already fetched. */
export function canSee(p: Principal, allowTenantIds: unknown): boolean {
  if (isAdmin(p)) return true;
  if (!Array.isArray(allowTenantIds)) return false;
  return allowTenantIds.includes('*') || (p.tenantId !== null && allowTenantIds.includes(p.tenantId));
}

/** A writer may change an entity only when it belongs to its tenant alone; an admin may change any. */
export function canWrite(p: Principal, allowTenantIds: unknown): boolean {
  if (isAdmin(p)) return true;
  if (!isWriter(p) || p.tenantId === null) return false;
  return Array.isArray(allowTenantIds) && allowTenantIds.length === 1 && allowTenantIds[0] === p.tenantId;
}
