/**
 * document:mCreate: many entities at once. Each item stands alone: one bad item is reported in
 * `errors` and the rest are created (Kuzzle's mCreate result shape). A caller without the writer
 * role is refused whole (403), whichever form the body takes.
 */
import { isPlainObject, optionalId } from '../args';
import { fail, ok, toApiError, type ApiError, type ErrorObject, type Result } from '../errors';
import { defineOperation } from '../operation';
import { isWriter, type Principal } from '../principal';
import { SOURCE_TEXT, type Doc, type EntityStore } from '../../store/port';
import type { CoreDeps } from '../deps';
import { parseAddress } from './address';
import { buildEntity, writerRefusal } from './entityDocument';
import type { EntityType } from './entityType';
import { writeFailure } from './writeOutcome';
import { ERROR_OBJECT_SCHEMA, type JsonSchema } from '../contract';
import { ADDRESS_ERRORS, ENTITY_BODY_SCHEMA, ENTITY_SCHEMA, EXAMPLE_ENTITY } from './entityContract';
import { createWithFreeSlugs, slugDerived } from './slugs';
import { NdjsonBody, parseNdjsonBulk, type NdjsonAction } from './bulkNdjson';
import { mCreateNdjson } from './mCreateNdjson';

export const MAX_BULK_ITEMS = 10_000;

export interface BulkItem {
  _id?: string;
  body: unknown;
}

export interface MCreateInput {
  type: EntityType;
  documents: BulkItem[];
  /** An NDJSON body (Content-Type: application/x-ndjson): its actions, written a batch at a time by mCreateNdjson. */
  ndjson?: { body: NdjsonBody; actions: NdjsonAction[] };
}

export interface MCreateResult {
  /** Each with its `_source`'s JSON text when the store was given it (SOURCE_TEXT). */
  successes: { _id: string; _source: Doc; status: number; [SOURCE_TEXT]?: string }[];
  errors: { document: BulkItem; status: number; reason: ErrorObject }[];
}

const BULK_ITEM_SCHEMA: JsonSchema = {
  title: 'BulkItem',
  type: 'object',
  required: ['body'],
  properties: { _id: { type: 'string', description: "Default: the body's `_id`, else a new UUID." }, body: ENTITY_BODY_SCHEMA },
};

const BULK_BODY_SCHEMA: JsonSchema = {
  title: 'BulkBody',
  description: `An array of entities (each may carry \`_id\`), or Kuzzle's \`{documents: [{_id?, body}]}\`; at most ${MAX_BULK_ITEMS} items.`,
  oneOf: [
    { type: 'array', items: ENTITY_BODY_SCHEMA, maxItems: MAX_BULK_ITEMS },
    { type: 'object', required: ['documents'], properties: { documents: { type: 'array', items: BULK_ITEM_SCHEMA, maxItems: MAX_BULK_ITEMS } } },
  ],
};

const MCREATE_RESULT_SCHEMA: JsonSchema = {
  title: 'BulkResult',
  description: 'Each item stands alone: those created in `successes`, those refused in `errors` with their reason.',
  type: 'object',
  required: ['successes', 'errors'],
  additionalProperties: false,
  properties: {
    successes: {
      type: 'array',
      items: { type: 'object', required: ['_id', '_source', 'status'], additionalProperties: false, properties: { _id: { type: 'string' }, _source: ENTITY_SCHEMA, status: { enum: [200, 201], description: '201 created; 200 replaced (an NDJSON `index` action on an `_id` that exists)' } } },
    },
    errors: {
      type: 'array',
      items: { type: 'object', required: ['document', 'status', 'reason'], additionalProperties: false, properties: { document: BULK_ITEM_SCHEMA, status: { type: 'integer' }, reason: ERROR_OBJECT_SCHEMA } },
    },
  },
};

/** Accepts `{documents: [{_id?, body}]}` (Kuzzle) or a plain array of entities (each may carry `_id`). */
export function parseBulkItems(body: unknown): Result<BulkItem[]> {
  if (body === undefined || body === null) return fail('api.assert.body_required');
  const list = Array.isArray(body) ? body.map((doc) => ({ body: doc })) : isPlainObject(body) ? body.documents : undefined;
  if (!Array.isArray(list)) return fail('api.assert.invalid_type', { name: 'body', expected: 'an array of entities or {documents: [{_id?, body}]}' });
  if (list.length > MAX_BULK_ITEMS) return fail('api.assert.invalid_argument', { name: 'documents', reason: `at most ${MAX_BULK_ITEMS} items per request` });
  return ok(
    list.map((item: unknown) => {
      const it = isPlainObject(item) ? item : { body: item };
      return { _id: typeof it._id === 'string' ? it._id : undefined, body: it.body };
    }),
  );
}

/** What mCreate uses of the core's dependencies (`npm run import` gives it a store that only writes). */
export type BulkDeps = Pick<CoreDeps, 'feed' | 'now' | 'newId'> & { store: { entities: Pick<EntityStore, 'createMany'> & Partial<Pick<EntityStore, 'checkDocuments'>> } };

export async function mCreateEntities(deps: BulkDeps, principal: Principal, input: MCreateInput): Promise<Result<MCreateResult>> {
  // a caller who may not write is refused whole, as Kuzzle refuses an action the caller's rights do not allow
  const refused = writerRefusal(principal);
  if (refused !== null) return refused;
  const { type } = input;
  const result: MCreateResult = { successes: [], errors: [] };
  const now = deps.now();
  const reject = (document: BulkItem, error: ApiError) => result.errors.push({ document, status: error.status, reason: error.toObject() });
  // Validate every item first, then write the valid ones in one commit.
  const valid: { item: BulkItem; id: string; source: Doc; derived: boolean }[] = [];
  for (const item of input.documents) {
    const bodyId = isPlainObject(item.body) ? item.body._id : undefined;
    const given = optionalId('_id', item._id ?? bodyId);
    if (!given.ok) {
      reject(item, given.error);
      continue;
    }
    const id = given.value ?? deps.newId();
    const doc = buildEntity({ type, id, input: item.body, principal, now, previous: null });
    if (doc.ok) valid.push({ item, id, source: doc.value, derived: slugDerived(item.body) });
    else reject(item, doc.error);
  }
  await refuseMisfits(deps, type.collection, valid, reject);
  // each source serialized once (after its slug is final): the store's row and the answer's _source
  const texts = new Map<Doc, string>();
  const write = (items: { id: string; source: Doc }[]) => deps.store.entities.createMany(type.collection, items.map(({ id, source }) => itemWithText(id, source, texts)));
  const outcomes = valid.length > 0 ? await createWithFreeSlugs(valid, write) : [];
  valid.forEach(({ item, id, source }, i) => {
    const outcome = outcomes[i];
    if (outcome === 'ok') {
      result.successes.push({ _id: id, _source: source, status: 201, [SOURCE_TEXT]: texts.get(source) });
      deps.feed.publish({ action: 'create', collection: type.collection, _id: id, _source: source });
    } else {
      const failure = writeFailure(outcome, type, id, source);
      if (!failure.ok) reject(item, failure.error);
    }
  });
  return ok(result);
}

/**
 * An item to create whose `json` (JSON.stringify of its source) is made when the store first reads
 * it, and kept in `texts` for the answer's _source: the embedded store reads a bulk write's texts a
 * piece at a time, its commit thread inserting the rows before meanwhile. (One text per write: a
 * slug changed after a taken one is written with a new item.)
 */
function itemWithText(id: string, source: Doc, texts: Map<Doc, string>): { id: string; source: Doc; readonly json: string } {
  let text: string | undefined;
  return {
    id,
    source,
    get json() {
      if (text === undefined) texts.set(source, (text = JSON.stringify(source)));
      return text;
    },
  };
}

/** Items the declared mapping refuses (README "Mappings"), each in `errors` with its 400, taken out of `valid`: the others are still created. */
async function refuseMisfits(deps: BulkDeps, collection: string, valid: { item: BulkItem; id: string; source: Doc }[], reject: (document: BulkItem, error: ApiError) => void): Promise<void> {
  if (valid.length === 0 || deps.store.entities.checkDocuments === undefined) return;
  const refusals = await deps.store.entities.checkDocuments(collection, valid);
  refusals.forEach((refused, i) => {
    if (refused !== null) reject(valid[i].item, toApiError(refused));
  });
  const kept = valid.filter((_, i) => refusals[i] === null);
  valid.splice(0, valid.length, ...kept);
}

export const mCreateEntitiesOperation = defineOperation<MCreateInput, MCreateResult>({
  controller: 'document',
  action: 'mCreate',
  addressesCollection: true,
  allows: isWriter,
  contract: {
    summary: 'Create many entities',
    description: 'Creates each valid item in one commit and reports each refused one (a taken `_id` or explicit `slug`, a bad field, another tenant) in `errors`; a caller without the `writer` role is refused whole (403); derived slugs that are taken move to the next free form, also between the items.',
    body: {
      required: true,
      schema: BULK_BODY_SCHEMA,
      examples: {
        array: { summary: 'An array of entities', value: [{ name: 'Sales' }, { _id: 'rd', name: 'R&D' }] },
        documents: { summary: "Kuzzle's documents", value: { documents: [{ _id: 'sales', body: { name: 'Sales' } }] } },
      },
      alternatives: {
        'application/x-ndjson': {
          schema: {
            type: 'string',
            description:
              "Elasticsearch's bulk form: an action line (`create` or `index`, with an optional `_id`) then the entity's line, each ending with a newline; `MAX_BULK_BYTES` at most.",
          },
          example: '{"create":{"_id":"sales"}}\n{"name":"Sales"}\n{"index":{"_id":"rd"}}\n{"name":"R&D"}\n',
        },
      },
    },
    result: MCREATE_RESULT_SCHEMA,
    resultExample: { successes: [{ _id: 'atlantis', _source: EXAMPLE_ENTITY, status: 201 }], errors: [] },
    errors: [...ADDRESS_ERRORS, 'api.assert.body_required', 'api.assert.invalid_type', 'api.assert.invalid_argument'],
  },
  parse(req, deps) {
    const type = parseAddress(req, deps);
    if (!type.ok) return type;
    if (req.body instanceof NdjsonBody) {
      const actions = parseNdjsonBulk(req.body, type.value.collection);
      if (!actions.ok) return actions;
      return ok({ type: type.value, documents: [], ndjson: { body: req.body, actions: actions.value } });
    }
    const documents = parseBulkItems(req.body);
    if (!documents.ok) return documents;
    return ok({ type: type.value, documents: documents.value });
  },
  run: (deps, principal, input) => (input.ndjson === undefined ? mCreateEntities(deps, principal, input) : mCreateNdjson(deps, principal, input.type, input.ndjson, mCreateEntities)),
});
