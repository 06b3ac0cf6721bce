/** Entities as JSON Schema (core/contract.ts): what a client sends, what is stored and answered. */
import type { JsonSchema } from '../contract';
import type { ErrorId } from '../errors';
import { hitSchema, searchResultSchema } from '../search/searchContract';

const SERVICE_INFO_SCHEMA: JsonSchema = {
  title: 'ServiceInfo',
  type: 'object',
  required: ['author', 'createdAt', 'updatedAt', 'updater'],
  additionalProperties: false,
  properties: {
    author: { type: ['string', 'null'] },
    createdAt: { type: 'integer', description: 'ms since Epoch' },
    updatedAt: { type: ['integer', 'null'], description: 'ms since Epoch; null until changed' },
    updater: { type: ['string', 'null'] },
  },
};

export const ENTITY_SCHEMA: JsonSchema = {
  title: 'Entity',
  description: "An entity: its own fields, and those the server manages on every write (`id`, `entityType`, `slug`, `allowTenantIds`, `modified`, `modifier`, `_service_info`).",
  type: 'object',
  required: ['id', 'entityType', 'slug', 'allowTenantIds', 'modified', 'modifier', '_service_info'],
  additionalProperties: true,
  properties: {
    id: { type: 'string', description: 'The `_id`.' },
    entityType: { type: 'string', description: 'The singular camelCase type: `country`, `businessUnit`.' },
    slug: { type: 'string', description: 'Unique per type: given, or derived from `name`.' },
    allowTenantIds: { type: 'array', items: { type: 'string' }, description: 'The tenants that see it; `"*"`: every tenant.' },
    modified: { type: 'string', format: 'date-time' },
    modifier: {
      type: 'object',
      required: ['entityType', 'id'],
      properties: { entityType: { const: 'user' }, id: { type: 'string' }, slug: { type: 'string' }, shortName: { type: 'string' } },
    },
    _service_info: SERVICE_INFO_SCHEMA,
  },
};

/** An entity as a client writes it: any fields; the server-managed ones are set by the server whatever is sent. */
export const ENTITY_BODY_SCHEMA: JsonSchema = {
  title: 'EntityBody',
  description:
    'Any fields. `slug` (1 to 100 characters without spaces; else derived from `name`) and `allowTenantIds` (default: the writer\'s tenant; a writer may give only `[its tenant]`, an admin any tenants or `"*"`) are read; `id`, `entityType`, `modified`, `modifier` and `_service_info` are set by the server. A field name that is empty, blank or has an empty part between dots is 400.',
  type: 'object',
  additionalProperties: true,
  properties: {
    _id: { type: 'string', description: 'The id, when no `_id` argument gives it (create, _bulk).' },
    slug: { type: 'string' },
    allowTenantIds: { type: 'array', items: { type: 'string' }, minItems: 1 },
  },
};

export const ENTITY_RESULT_SCHEMA: JsonSchema = {
  title: 'EntityResult',
  type: 'object',
  required: ['_id', '_source'],
  additionalProperties: false,
  properties: { _id: { type: 'string' }, _source: ENTITY_SCHEMA },
};

/** A hit's `_source` may be cut by the search's `_source`. */
export const ENTITY_SEARCH_RESULT_SCHEMA = searchResultSchema(
  'EntitySearchResult',
  hitSchema('EntityHit', { type: 'object', description: 'The entity (its fields as the search\'s `_source` keeps them).' }),
  true,
);

export const EXAMPLE_ENTITY = {
  _service_info: { author: 'alice', createdAt: 1767225600000, updatedAt: null, updater: null },
  entityType: 'country',
  id: 'atlantis',
  modified: '2026-01-01T00:00:00.000Z',
  modifier: { entityType: 'user', id: 'alice', slug: 'alice', shortName: 'Alice' },
  slug: 'atlantis',
  allowTenantIds: ['*'],
  name: 'Atlantis',
  code: 'AT-X',
};

/** What addressing an entity type may be refused with: a malformed or singular collection. */
export const ADDRESS_ERRORS: readonly ErrorId[] = ['api.assert.invalid_argument'];

/** What writing one entity may be refused with (entityDocument.ts buildEntity, the store's outcome). */
export const WRITE_ERRORS: readonly ErrorId[] = [
  'security.rights.forbidden',
  'api.assert.body_required',
  'api.assert.invalid_type',
  'api.assert.invalid_argument',
  'api.assert.missing_argument',
  'services.storage.document_already_exists',
  // a document the type's declared mapping refuses (README "Mappings")
  'services.storage.strict_dynamic_mapping',
  'services.storage.document_parse_failed',
  'services.storage.nested_objects_limit',
];
