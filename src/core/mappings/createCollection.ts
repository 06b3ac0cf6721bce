/**
 * collection:create (Kuzzle, raw WebSocket): declares the mapping of an entity type, given as
 * `{mappings: {dynamic, _meta, properties}}` or, as Kuzzle 1 sent it, `{dynamic, _meta, properties}`;
 * answers `{acknowledged: true}`. Entity types need no creation: on a type that holds entities it
 * is a put mapping (updateMapping.ts). Index `settings` are refused (analyzers are built in).
 */
import { fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import { isAdmin, type Principal } from '../principal';
import type { CoreDeps } from '../deps';
import { isPlainObject } from '../args';
import type { JsonSchema } from '../contract';
import { parseAddress } from '../entities/address';
import { ADDRESS_ERRORS } from '../entities/entityContract';
import { MAPPING_BODY_SCHEMA, MAPPING_ERRORS, parseMappingBody } from './mappingContract';
import { updateMapping, type UpdateMappingInput } from './updateMapping';

export async function createCollection(deps: CoreDeps, principal: Principal, input: UpdateMappingInput): Promise<Result<{ acknowledged: true }>> {
  const done = await updateMapping(deps, principal, input);
  return done.ok ? ok({ acknowledged: true }) : done;
}

export const createCollectionOperation = defineOperation<UpdateMappingInput, { acknowledged: true }>({
  controller: 'collection',
  action: 'create',
  addressesCollection: true,
  allows: isAdmin,
  contract: {
    summary: 'Create an entity type with a mapping',
    description: "Kuzzle's collection:create: the body's `mappings` (or the mapping itself) declared as a put mapping would. Needs the `admin` role. Index `settings` are 400.",
    body: {
      required: false,
      schema: {
        title: 'CreateCollectionBody',
        description: '`{mappings}`, or the mapping itself (Kuzzle 1).',
        type: 'object',
        additionalProperties: false,
        properties: { mappings: { ...MAPPING_BODY_SCHEMA, title: 'CollectionMappings', examples: [{ properties: { code: { type: 'keyword' } } }] }, ...(MAPPING_BODY_SCHEMA.properties as Record<string, JsonSchema>) },
      },
      examples: { code: { summary: 'code as a keyword', value: { mappings: { properties: { code: { type: 'keyword' } } } } } },
    },
    result: { type: 'object', required: ['acknowledged'], additionalProperties: false, properties: { acknowledged: { const: true } } },
    resultExample: { acknowledged: true },
    errors: [...ADDRESS_ERRORS, 'api.assert.invalid_argument', 'security.rights.forbidden', ...MAPPING_ERRORS],
  },
  parse(req, deps) {
    const type = parseAddress(req, deps);
    if (!type.ok) return type;
    const body = req.body ?? {};
    if (isPlainObject(body) && body.settings !== undefined) return fail('api.assert.invalid_argument', { name: 'settings', reason: 'index settings are not supported (analyzers are built in: README "Mappings")' });
    if (isPlainObject(body) && 'mappings' in body) {
      const other = Object.keys(body).find((key) => key !== 'mappings');
      if (other !== undefined) return fail('services.storage.invalid_mapping', { reason: `unsupported parameter [${other}] beside [mappings]` });
    }
    const given = isPlainObject(body) && 'mappings' in body ? body.mappings : body;
    const mapping = parseMappingBody(given ?? {});
    if (!mapping.ok) return mapping;
    return ok({ type: type.value, mapping: mapping.value });
  },
  run: createCollection,
});
