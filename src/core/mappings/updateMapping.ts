/**
 * collection:updateMapping (REST PUT _mapping) and collection:create: declares fields of an entity
 * type, as Elasticsearch's put mapping does (README "Mappings"). Admin only: a mapping is shared by
 * every tenant.
 */
import { ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import { isAdmin, type Principal } from '../principal';
import type { CoreDeps } from '../deps';
import type { MappingUpdate, TypeMapping } from '../../store/mapping/typeMapping';
import { parseAddress } from '../entities/address';
import { ADDRESS_ERRORS } from '../entities/entityContract';
import type { EntityType } from '../entities/entityType';
import { MAPPING_BODY_SCHEMA, MAPPING_ERRORS, MAPPING_EXAMPLE, MAPPING_SCHEMA, checkMappingWriter, mappingAnswer, parseMappingBody } from './mappingContract';

export interface UpdateMappingInput {
  type: EntityType;
  mapping: MappingUpdate;
}

export async function updateMapping(deps: CoreDeps, principal: Principal, input: UpdateMappingInput): Promise<Result<TypeMapping>> {
  const allowed = checkMappingWriter(principal);
  if (!allowed.ok) return allowed;
  return ok(mappingAnswer(await deps.store.entities.putMapping(input.type.collection, input.mapping)));
}

export const updateMappingOperation = defineOperation<UpdateMappingInput, TypeMapping>({
  controller: 'collection',
  action: 'updateMapping',
  addressesCollection: true,
  allows: isAdmin,
  contract: {
    summary: 'Declare fields of an entity type',
    description:
      'Elasticsearch\'s put mapping, answered as Kuzzle\'s collection:updateMapping (the mapping after the change). Fields are added; a field already mapped (declared, or dynamically by an entity) keeps its type: another is 400 `services.storage.mapping_conflict`. Entities indexed before keep their indexing, as in Elasticsearch. Needs the `admin` role (403 otherwise).',
    body: { required: true, schema: MAPPING_BODY_SCHEMA, examples: { code: { summary: 'code as a keyword', value: { properties: { code: { type: 'keyword' } } } }, strict: { summary: 'Refuse undeclared fields', value: { dynamic: 'strict', properties: { name: { type: 'text' } } } } } },
    result: MAPPING_SCHEMA,
    resultExample: MAPPING_EXAMPLE,
    errors: [...ADDRESS_ERRORS, 'api.assert.body_required', 'security.rights.forbidden', ...MAPPING_ERRORS],
  },
  parse(req, deps) {
    const type = parseAddress(req, deps);
    if (!type.ok) return type;
    const mapping = parseMappingBody(req.body);
    if (!mapping.ok) return mapping;
    return ok({ type: type.value, mapping: mapping.value });
  },
  run: updateMapping,
});
