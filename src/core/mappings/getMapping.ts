/** collection:getMapping: the declared mapping of an entity type (README "Mappings"); any authenticated caller. */
import { ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import type { Principal } from '../principal';
import type { CoreDeps } from '../deps';
import type { TypeMapping } from '../../store/mapping/typeMapping';
import { parseAddress } from '../entities/address';
import { ADDRESS_ERRORS } from '../entities/entityContract';
import type { EntityType } from '../entities/entityType';
import { MAPPING_EXAMPLE, MAPPING_SCHEMA, mappingAnswer } from './mappingContract';

export interface GetMappingInput {
  type: EntityType;
}

export async function getMapping(deps: CoreDeps, _principal: Principal, input: GetMappingInput): Promise<Result<TypeMapping>> {
  return ok(mappingAnswer(await deps.store.entities.getMapping(input.type.collection)));
}

export const getMappingOperation = defineOperation<GetMappingInput, TypeMapping>({
  controller: 'collection',
  action: 'getMapping',
  addressesCollection: true,
  contract: {
    summary: 'Read the mapping of an entity type',
    description: 'The declared mapping (Kuzzle\'s collection:getMapping shape): `dynamic`, `_meta` and the declared fields; fields mapped dynamically are not listed (they may come from any tenant\'s entities). Any authenticated caller.',
    result: MAPPING_SCHEMA,
    resultExample: MAPPING_EXAMPLE,
    errors: [...ADDRESS_ERRORS],
  },
  parse(req, deps) {
    const type = parseAddress(req, deps);
    if (!type.ok) return type;
    return ok({ type: type.value });
  },
  run: getMapping,
});
