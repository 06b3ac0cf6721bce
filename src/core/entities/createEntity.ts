/** document:create: a new entity with its server-managed fields; 409 on a taken id or a taken slug the client chose (a derived one moves to the next free form: slugs.ts). */
import { optionalId } from '../args';
import { ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import { isWriter, type Principal } from '../principal';
import type { CoreDeps } from '../deps';
import { ADDRESS_ARGS } from '../contract';
import { parseAddress } from './address';
import { ADDRESS_ERRORS, ENTITY_BODY_SCHEMA, ENTITY_RESULT_SCHEMA, EXAMPLE_ENTITY, WRITE_ERRORS } from './entityContract';
import { buildEntity } from './entityDocument';
import type { EntityType } from './entityType';
import type { EntityResult } from './getEntity';
import { writeFailure } from './writeOutcome';
import { fitsMapping } from '../mappings/documentFit';
import { createWithFreeSlugs, slugDerived } from './slugs';

export interface CreateEntityInput {
  type: EntityType;
  id?: string;
  body: unknown;
}

export async function createEntity(deps: CoreDeps, principal: Principal, input: CreateEntityInput): Promise<Result<EntityResult>> {
  const bodyId = (input.body as { _id?: unknown } | null)?._id;
  const given = optionalId('_id', input.id ?? bodyId);
  if (!given.ok) return given;
  const id = given.value ?? deps.newId();
  const doc = buildEntity({ type: input.type, id, input: input.body, principal, now: deps.now(), previous: null });
  if (!doc.ok) return doc;
  const fits = await fitsMapping(deps, input.type.collection, id, doc.value);
  if (!fits.ok) return fits;
  const [outcome] = await createWithFreeSlugs([{ id, source: doc.value, derived: slugDerived(input.body) }], async ([item]) => [await deps.store.entities.create(input.type.collection, item.id, item.source)]);
  if (outcome !== 'ok') return writeFailure(outcome, input.type, id, doc.value);
  deps.feed.publish({ action: 'create', collection: input.type.collection, _id: id, _source: doc.value });
  return ok({ _id: id, _source: doc.value });
}

export const createEntityOperation = defineOperation<CreateEntityInput, EntityResult>({
  controller: 'document',
  action: 'create',
  addressesCollection: true,
  allows: isWriter,
  contract: {
    summary: 'Create an entity',
    description: 'A new entity of the type, with its server-managed fields. Needs the `writer` or `admin` role. A taken `_id`, or a taken `slug` given explicitly, is 409; a derived slug that is taken moves to the next free form (`atlantis-2`).',
    args: { _id: { ...ADDRESS_ARGS._id, description: `${ADDRESS_ARGS._id.description} Default: the body's \`_id\`, else a new UUID.`, example: 'atlantis' } },
    body: { required: true, schema: ENTITY_BODY_SCHEMA, examples: { atlantis: { summary: 'A country every tenant sees', value: { name: 'Atlantis', code: 'AT-X', allowTenantIds: ['*'] } } } },
    result: ENTITY_RESULT_SCHEMA,
    resultExample: { _id: 'atlantis', _source: EXAMPLE_ENTITY },
    errors: [...ADDRESS_ERRORS, ...WRITE_ERRORS],
  },
  parse(req, deps) {
    const type = parseAddress(req, deps);
    if (!type.ok) return type;
    const id = optionalId('_id', req._id ?? req.args._id);
    if (!id.ok) return id;
    return ok({ type: type.value, id: id.value, body: req.body });
  },
  run: createEntity,
});
