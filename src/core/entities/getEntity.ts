/** document:get: one entity, 404 when absent or not visible to the caller's tenant. */
import { ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import { canSee, type Principal } from '../principal';
import type { Doc } from '../../store/port';
import type { CoreDeps } from '../deps';
import { entityNotFound, parseDocumentAddress } from './address';
import { ADDRESS_ERRORS, ENTITY_RESULT_SCHEMA, EXAMPLE_ENTITY } from './entityContract';
import type { EntityType } from './entityType';

export interface EntityAddress {
  type: EntityType;
  id: string;
}

export interface EntityResult {
  _id: string;
  _source: Doc;
}

/** The stored entity if the principal may see it, else null (absent and invisible look the same). */
export async function visibleEntity(deps: CoreDeps, principal: Principal, { type, id }: EntityAddress): Promise<Doc | null> {
  const doc = await deps.store.entities.get(type.collection, id);
  return doc !== null && canSee(principal, doc.allowTenantIds) ? doc : null;
}

export async function getEntity(deps: CoreDeps, principal: Principal, address: EntityAddress): Promise<Result<EntityResult>> {
  const doc = await visibleEntity(deps, principal, address);
  if (doc === null) return entityNotFound(address.type, address.id);
  return ok({ _id: address.id, _source: doc });
}

export const getEntityOperation = defineOperation<EntityAddress, EntityResult>({
  controller: 'document',
  action: 'get',
  addressesCollection: true,
  contract: {
    summary: 'Get an entity',
    description: "One entity; 404 when absent or not visible to the caller's tenant (the same answer).",
    addressesDocument: true,
    result: ENTITY_RESULT_SCHEMA,
    resultExample: { _id: 'atlantis', _source: EXAMPLE_ENTITY },
    errors: [...ADDRESS_ERRORS, 'services.storage.not_found'],
  },
  parse: parseDocumentAddress,
  run: getEntity,
});
