/** document:replace and document:update: a whole new body, or a partial one merged into the stored entity. */
import { fitsMapping } from '../mappings/documentFit';
import { isPlainObject } from '../args';
import { fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import { canWrite, isWriter, type Principal } from '../principal';
import type { CoreDeps } from '../deps';
import { entityNotFound, parseDocumentAddress } from './address';
import { buildEntity, mergePatch } from './entityDocument';
import type { EntityType } from './entityType';
import { visibleEntity, type EntityResult } from './getEntity';
import { writeFailure } from './writeOutcome';
import { ADDRESS_ERRORS, ENTITY_BODY_SCHEMA, ENTITY_RESULT_SCHEMA, EXAMPLE_ENTITY, WRITE_ERRORS } from './entityContract';
import type { OperationContract } from '../contract';

export interface ChangeEntityInput {
  type: EntityType;
  id: string;
  body: unknown;
}

async function change(deps: CoreDeps, principal: Principal, input: ChangeEntityInput, mode: 'replace' | 'update'): Promise<Result<EntityResult>> {
  const { type, id } = input;
  if (input.body === undefined || input.body === null) return fail('api.assert.body_required');
  if (!isPlainObject(input.body)) return fail('api.assert.invalid_type', { name: 'body', expected: 'a JSON object' });
  const previous = await visibleEntity(deps, principal, input);
  if (previous === null) return entityNotFound(type, id);
  if (!canWrite(principal, previous.allowTenantIds)) {
    return fail('security.rights.forbidden', { reason: `this ${type.entityType} is not writable by tenant "${principal.tenantId}"` });
  }
  const requested = mode === 'update' ? mergePatch(previous, input.body) : input.body;
  const doc = buildEntity({ type, id, input: requested, principal, now: deps.now(), previous });
  if (!doc.ok) return doc;
  const fits = await fitsMapping(deps, type.collection, id, doc.value);
  if (!fits.ok) return fits;
  const outcome = await deps.store.entities.replace(type.collection, id, doc.value, mode);
  if (outcome !== 'ok') return writeFailure(outcome, type, id, doc.value);
  deps.feed.publish({ action: mode, collection: type.collection, _id: id, _source: doc.value, previous });
  return ok({ _id: id, _source: doc.value });
}

export const replaceEntity = (deps: CoreDeps, principal: Principal, input: ChangeEntityInput) => change(deps, principal, input, 'replace');
export const updateEntity = (deps: CoreDeps, principal: Principal, input: ChangeEntityInput) => change(deps, principal, input, 'update');

const changeContract = (summary: string, description: string, example: Record<string, unknown>): OperationContract => ({
  summary,
  description: `${description} Needs the \`writer\` or \`admin\` role; 404 when absent or not visible, 403 when visible but not the caller's tenant's to change, 409 for a \`slug\` given explicitly that another entity of the type has.`,
  addressesDocument: true,
  body: { required: true, schema: ENTITY_BODY_SCHEMA, examples: { change: { summary, value: example } } },
  result: ENTITY_RESULT_SCHEMA,
  resultExample: { _id: 'atlantis', _source: { ...EXAMPLE_ENTITY, ...example } },
  errors: [...ADDRESS_ERRORS, ...WRITE_ERRORS, 'services.storage.not_found'],
});

const parseChange = (req: Parameters<typeof parseDocumentAddress>[0], deps: CoreDeps): Result<ChangeEntityInput> => {
  const address = parseDocumentAddress(req, deps);
  if (!address.ok) return address;
  return ok({ ...address.value, body: req.body });
};

export const replaceEntityOperation = defineOperation<ChangeEntityInput, EntityResult>({
  controller: 'document',
  action: 'replace',
  addressesCollection: true,
  allows: isWriter,
  contract: changeContract('Replace an entity', 'The whole entity: fields not sent are gone (the server-managed ones are kept or set).', { name: 'Atlantis', code: 'AX' }),
  parse: parseChange,
  run: replaceEntity,
});

export const updateEntityOperation = defineOperation<ChangeEntityInput, EntityResult>({
  controller: 'document',
  action: 'update',
  addressesCollection: true,
  allows: isWriter,
  contract: changeContract('Update an entity', 'The fields sent, merged into the entity: objects deeply, arrays replaced.', { code: 'AX' }),
  parse: parseChange,
  run: updateEntity,
});
