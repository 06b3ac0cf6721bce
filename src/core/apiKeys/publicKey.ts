/** What clients are shown of a stored API key: never a token (none is stored), nothing internal. */
import type { Doc } from '../../store/port';

/** The fields of a key a client is shown (publicKeySource). */
const PUBLIC_FIELDS = new Set(['description', 'expiresAt', 'ttl', 'fingerprint', 'userId', '_service_info']);

/**
 * The highlights of the fields a client is shown: a highlight of another field (roles, tenantId)
 * would show what publicKeySource leaves out.
 */
export function publicKeyHighlight(highlight: Record<string, string[]>): Record<string, string[]> | undefined {
  let out: Record<string, string[]> | undefined;
  for (const [field, fragments] of Object.entries(highlight)) {
    if (!PUBLIC_FIELDS.has(field.split('.')[0])) continue;
    out ??= {};
    out[field] = fragments;
  }
  return out;
}

export function publicKeySource(stored: Doc): Doc {
  return {
    description: stored.description,
    expiresAt: stored.expiresAt,
    ttl: stored.ttl,
    fingerprint: stored.fingerprint,
    userId: stored.userId,
    _service_info: stored._service_info,
  };
}
