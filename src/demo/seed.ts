/** Loads the demo countries through the core (so every managed field is set) when there are none yet. */
import type { CoreDeps } from '../core/deps';
import { mCreateEntities } from '../core/entities/mCreateEntities';
import { parseCollection } from '../core/entities/entityType';
import type { Principal } from '../core/principal';
import { demoCountries } from './countries';

export const SYSTEM_PRINCIPAL: Principal = {
  userId: 'system',
  tenantId: null,
  roles: ['admin'],
  slug: 'system',
  shortName: 'System',
  apiKeyId: null,
  expiresAt: -1,
};

/** Number of countries created (0 when some were already there). */
export async function seedDemoData(deps: CoreDeps): Promise<number> {
  const type = parseCollection('countries');
  if (!type.ok) throw type.error;
  if ((await deps.store.entities.count(type.value.collection, undefined, null)).count > 0) return 0;
  const documents = demoCountries().map((body) => ({ body }));
  const result = await mCreateEntities(deps, SYSTEM_PRINCIPAL, { type: type.value, documents });
  return result.ok ? result.value.successes.length : 0;
}
