/** Whether an entity fits its type's declared mapping (README "Mappings"), asked of the store before a single write: the 400 naming the field, or ok. */
import { ok, toApiError, type Result } from '../errors';
import type { CoreDeps } from '../deps';
import type { Doc } from '../../store/port';

export async function fitsMapping(deps: Pick<CoreDeps, 'store'>, collection: string, id: string, source: Doc): Promise<Result<void>> {
  // (a store stand-in without the check, in some unit tests, refuses nothing)
  const refusals = await deps.store.entities.checkDocuments?.(collection, [{ id, source }]);
  const refused = refusals?.[0] ?? null;
  return refused === null ? ok(undefined) : { ok: false, error: toApiError(refused) };
}
