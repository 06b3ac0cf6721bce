/** What clients are shown of a stored API key: never a token (none is stored), nothing internal. */
import type { Doc } from '../../store/port';

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
