/**
 * document:mCreate with an NDJSON body (bulkNdjson.ts): the actions written a batch at a time (the
 * body and one batch of parsed sources in memory), answered in mCreate's envelope. `create` is
 * mCreate's create; `index` with an `_id` that exists replaces that entity (document:replace's
 * rules: visible, writable by the caller), as Elasticsearch's index action does, status 200; else
 * it creates, status 201. A caller without the writer role is refused whole (403).
 */
import { ok, type Result } from '../errors';
import type { Principal } from '../principal';
import { writerRefusal } from './entityDocument';
import type { CoreDeps } from '../deps';
import { parseSource, type NdjsonAction, type NdjsonBody } from './bulkNdjson';
import type { EntityType } from './entityType';
import type { BulkItem, MCreateInput, MCreateResult } from './mCreateEntities';
import { replaceEntity } from './replaceEntity';

/** Sources parsed and written at once. */
export const NDJSON_BATCH = 1000;

type CreateBatch = (deps: CoreDeps, principal: Principal, input: MCreateInput) => Promise<Result<MCreateResult>>;

export async function mCreateNdjson(
  deps: CoreDeps,
  principal: Principal,
  type: EntityType,
  ndjson: { body: NdjsonBody; actions: NdjsonAction[] },
  createBatch: CreateBatch,
): Promise<Result<MCreateResult>> {
  const refused = writerRefusal(principal);
  if (refused !== null) return refused;
  const result: MCreateResult = { successes: [], errors: [] };
  let creates: BulkItem[] = [];
  let createIds = new Set<string>();
  const flush = async (): Promise<Result<void>> => {
    if (creates.length === 0) return ok(undefined);
    const created = await createBatch(deps, principal, { type, documents: creates });
    creates = [];
    createIds = new Set();
    if (!created.ok) return created;
    result.successes.push(...created.value.successes);
    result.errors.push(...created.value.errors);
    return ok(undefined);
  };
  for (const action of ndjson.actions) {
    const source = parseSource(ndjson.body, action);
    const document: BulkItem = { _id: action._id, body: source.ok ? source.value : null };
    if (!source.ok) {
      result.errors.push({ document, status: source.error.status, reason: source.error.toObject() });
      continue;
    }
    if (action.op === 'index' && action._id !== undefined) {
      // (an entity created earlier in this body is written first, so that this action replaces it)
      if (createIds.has(action._id)) {
        const flushed = await flush();
        if (!flushed.ok) return flushed;
      }
      if ((await deps.store.entities.get(type.collection, action._id)) !== null) {
        const replaced = await replaceEntity(deps, principal, { type, id: action._id, body: source.value });
        if (replaced.ok) result.successes.push({ ...replaced.value, status: 200 });
        else result.errors.push({ document, status: replaced.error.status, reason: replaced.error.toObject() });
        continue;
      }
    }
    creates.push(document);
    if (action._id !== undefined) createIds.add(action._id);
    if (creates.length >= NDJSON_BATCH) {
      const flushed = await flush();
      if (!flushed.ok) return flushed;
    }
  }
  const flushed = await flush();
  return flushed.ok ? ok(result) : flushed;
}
