/**
 * Declared mappings on Elasticsearch (README "Mappings"): put and read through the indices API.
 * The index's mapping holds what Elasticsearch maps (declared and dynamic fields); what was declared
 * is kept beside it in the mapping's `_meta` (`declared`), so that a read answers what the embedded
 * store answers (dynamic fields, which any tenant's entities may bring, are not shown). Declared
 * fields that accept `ignore_malformed` are sent with `ignore_malformed: false` unless they set it:
 * the entity index sets it true for dynamic fields (mappings.ts), and a declared type refuses a
 * value that does not fit it.
 */
import type { Backend } from './backend';
import { errorTypeOf, reasonOf, statusOf } from './errors';
import { MappingError } from '../mapping/mappingError';
import { EMPTY_MAPPING, FIELD_TYPES, mergeTypeMapping, typeOf, type FieldMapping, type MappingUpdate, type TypeMapping } from '../mapping/typeMapping';

interface IndexMappingBody {
  properties?: Record<string, FieldMapping>;
  _meta?: { declared?: TypeMapping };
}

/** The index's mapping as Elasticsearch answers it (null: no such index). */
async function readIndexMapping(backend: Backend, index: string): Promise<IndexMappingBody | null> {
  try {
    const response = (await backend.call('read', (client) => client.indices.getMapping({ index }))) as Record<string, { mappings?: IndexMappingBody }>;
    return Object.values(response)[0]?.mappings ?? {};
  } catch (err) {
    if (statusOf(err) === 404) return null;
    throw err;
  }
}

export async function getDeclaredMapping(backend: Backend, index: string): Promise<TypeMapping> {
  return (await readIndexMapping(backend, index))?._meta?.declared ?? EMPTY_MAPPING;
}

/** The type of every field of an Elasticsearch mapping's properties (multi-fields included), by path. */
export function propertyTypes(properties: Record<string, FieldMapping>, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [name, field] of Object.entries(properties)) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    out.set(path, typeOf(field));
    if (field.properties !== undefined) propertyTypes(field.properties, path, out);
    if (field.fields !== undefined) propertyTypes(field.fields, path, out);
  }
  return out;
}

/** The server-managed objects of every entity, mapped as they come even when the type is strict (README "Mappings"). */
const SERVER_OBJECTS: Record<string, FieldMapping> = { modifier: { type: 'object', dynamic: 'true' }, _service_info: { type: 'object', dynamic: 'true' } };

/** Declared properties as sent to Elasticsearch: ignore_malformed false where the type takes it and the field does not say. */
export function strictProperties(properties: Record<string, FieldMapping>): Record<string, FieldMapping> {
  const out: Record<string, FieldMapping> = {};
  for (const [name, field] of Object.entries(properties)) {
    const copy: FieldMapping = { ...field };
    if (field.properties !== undefined) copy.properties = strictProperties(field.properties);
    if (FIELD_TYPES[typeOf(field)]?.includes('ignore_malformed') && field.ignore_malformed === undefined) copy.ignore_malformed = false;
    out[name] = copy;
  }
  return out;
}

/**
 * Merges `update` into the declared mapping (the index must exist): conflicts with declared or
 * dynamically mapped fields are refused before anything is sent, as Elasticsearch refuses them.
 */
export async function putDeclaredMapping(backend: Backend, index: string, update: MappingUpdate): Promise<TypeMapping> {
  const current = (await readIndexMapping(backend, index)) ?? {};
  const types = propertyTypes(current.properties ?? {});
  const merged = mergeTypeMapping(current._meta?.declared ?? EMPTY_MAPPING, update, (path) => types.get(path));
  try {
    await backend.call('write', (client) =>
      client.indices.putMapping({ index, dynamic: merged.dynamic, properties: { ...SERVER_OBJECTS, ...strictProperties(merged.properties) } as never, _meta: { declared: merged } }),
    );
  } catch (err) {
    throw mappingErrorOf(err) ?? err;
  }
  return merged;
}

/** Elasticsearch's refusal of a put mapping, as the embedded store's MappingError. */
export function mappingErrorOf(err: unknown): MappingError | undefined {
  if (statusOf(err) !== 400) return undefined;
  const reason = reasonOf((err as { body?: unknown }).body) ?? String(errorTypeOf(err));
  const conflict = /mapper \[(.+?)\] cannot be changed from type \[(.+?)\] to \[(.+?)\]/.exec(reason);
  if (conflict !== null) return new MappingError('mapping_conflict', { field: conflict[1], from: conflict[2], to: conflict[3] });
  return new MappingError('invalid_mapping', { reason });
}
