/** document:delete: `{_id}`; 404 when absent or invisible, 403 when visible but not the caller's to change. */
import { fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import { canWrite, isWriter, type Principal } from '../principal';
import type { CoreDeps } from '../deps';
import { DELETED_SCHEMA } from '../contract';
import { entityNotFound, parseDocumentAddress } from './address';
import { ADDRESS_ERRORS } from './entityContract';
import { visibleEntity, type EntityAddress } from './getEntity';

export async function deleteEntity(deps: CoreDeps, principal: Principal, address: EntityAddress): Promise<Result<{ _id: string }>> {
  if (!isWriter(principal)) return fail('security.rights.forbidden', { reason: 'deleting entities needs the "writer" or "admin" role' });
  const previous = await visibleEntity(deps, principal, address);
  if (previous === null) return entityNotFound(address.type, address.id);
  if (!canWrite(principal, previous.allowTenantIds)) {
    return fail('security.rights.forbidden', { reason: `this ${address.type.entityType} is not writable by tenant "${principal.tenantId}"` });
  }
  if (!(await deps.store.entities.delete(address.type.collection, address.id))) return entityNotFound(address.type, address.id);
  deps.feed.publish({ action: 'delete', collection: address.type.collection, _id: address.id, _source: previous });
  return ok({ _id: address.id });
}

export const deleteEntityOperation = defineOperation<EntityAddress, { _id: string }>({
  controller: 'document',
  action: 'delete',
  addressesCollection: true,
  allows: isWriter,
  contract: {
    summary: 'Delete an entity',
    description: "Needs the `writer` or `admin` role; 404 when absent or not visible, 403 when visible but not the caller's tenant's to change.",
    addressesDocument: true,
    result: DELETED_SCHEMA,
    resultExample: { _id: 'atlantis' },
    errors: [...ADDRESS_ERRORS, 'security.rights.forbidden', 'services.storage.not_found'],
  },
  parse: parseDocumentAddress,
  run: deleteEntity,
});
