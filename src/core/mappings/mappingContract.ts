/** Declared mappings as JSON Schema (core/contract.ts) and what the mapping operations share. */
import type { JsonSchema } from '../contract';
import type { ErrorId } from '../errors';
import { fail, ok, type Result } from '../errors';
import { isAdmin, type Principal } from '../principal';
import { MappingError } from '../../store/mapping/mappingError';
import { ANALYZERS, FIELD_TYPES, parseTypeMapping, type MappingUpdate, type TypeMapping } from '../../store/mapping/typeMapping';

const FIELD_SCHEMA: JsonSchema = {
  title: 'FieldMapping',
  description: `One field, as Elasticsearch maps it: \`type\` (${Object.keys(FIELD_TYPES).join(', ')}; default object) and its parameters (\`analyzer\` ${ANALYZERS.join('/')}, \`ignore_above\`, \`normalizer\`, \`format\`, \`scaling_factor\`, \`index\`, \`null_value\`, \`copy_to\`, \`ignore_malformed\`, \`fields\`, \`properties\`, \`dynamic\`).`,
  type: 'object',
  additionalProperties: true,
  properties: { type: { enum: Object.keys(FIELD_TYPES) } },
};

export const MAPPING_SCHEMA: JsonSchema = {
  title: 'TypeMapping',
  description: 'Elasticsearch\'s mapping of an entity type: `dynamic` ("true", "false" or "strict"), `_meta`, and the declared fields.',
  type: 'object',
  required: ['dynamic', '_meta', 'properties'],
  additionalProperties: false,
  properties: {
    dynamic: { enum: ['true', 'false', 'strict'] },
    _meta: { type: 'object' },
    properties: { type: 'object', additionalProperties: FIELD_SCHEMA },
  },
};

export const MAPPING_BODY_SCHEMA: JsonSchema = {
  title: 'MappingBody',
  description: 'A put mapping: fields to add (a declared or dynamically mapped field keeps its type), and `dynamic` and `_meta` when they change.',
  type: 'object',
  additionalProperties: false,
  properties: {
    dynamic: { enum: [true, false, 'true', 'false', 'strict'], examples: ['strict'] },
    _meta: { type: 'object', examples: [{ owner: 'catalogue team' }] },
    properties: { type: 'object', additionalProperties: FIELD_SCHEMA, examples: [{ code: { type: 'keyword' } }] },
  },
};

export const MAPPING_EXAMPLE = { dynamic: 'true', _meta: {}, properties: { code: { type: 'keyword' }, price: { type: 'scaled_float', scaling_factor: 100 }, publishedAt: { type: 'date', format: 'dd/MM/yyyy' } } };

export const MAPPING_ERRORS: readonly ErrorId[] = ['services.storage.invalid_mapping', 'services.storage.mapping_conflict'];

/** The mapping as Kuzzle's collection:getMapping answers it: `_meta` always there. */
export const mappingAnswer = (m: TypeMapping): TypeMapping => ({ dynamic: m.dynamic, _meta: m._meta ?? {}, properties: m.properties });

/** A body parsed into a mapping update, or the 400 naming what is wrong. */
export function parseMappingBody(body: unknown): Result<MappingUpdate> {
  if (body === undefined || body === null) return fail('api.assert.body_required');
  try {
    return ok(parseTypeMapping(body));
  } catch (err) {
    if (err instanceof MappingError) return fail(`services.storage.${err.kind}`, err.props);
    throw err;
  }
}

/** Only an admin changes a mapping: it is shared by every tenant. */
export function checkMappingWriter(principal: Principal): Result<void> {
  return isAdmin(principal) ? ok(undefined) : fail('security.rights.forbidden', { reason: 'only the admin role may change a mapping (it is shared by every tenant)' });
}
