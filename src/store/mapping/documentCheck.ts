/**
 * Whether a document fits its type's declared mapping, as Elasticsearch's document parser decides
 * (README "Mappings"): a value a declared field cannot take is refused ("failed to parse field
 * [price] of type [long] in document with id 'x'") unless the field sets `ignore_malformed`; under
 * `dynamic: strict` (the type's, or an object's, inherited by its fields) an undeclared field is
 * refused ("mapping set to strict, dynamic introduction of [colour] within [_doc] is not allowed").
 * The server-managed fields are always allowed. Shared by both stores, checked before a write.
 */
import { isDateString, looksNumeric } from '../embedded/engine/dates';
import { toBoolean, toDate, toDouble, toLong } from '../embedded/engine/fieldValues';
import { compileDateFormat, isReadableDateFormat } from '../embedded/engine/dateFormat';
import { MappingError } from './mappingError';
import type { Dynamic, FieldMapping, TypeMapping } from './typeMapping';

/** Fields every entity carries, set by the server (core/entities/entityDocument.ts). */
export const SERVER_FIELDS = new Set(['id', 'entityType', 'slug', 'allowTenantIds', 'modified', 'modifier', '_service_info']);

/** Elasticsearch's integer types and their ranges (a value outside is malformed). */
const INTEGER_RANGES: Record<string, [number, number]> = {
  long: [-9223372036854775808, 9223372036854775807],
  integer: [-2147483648, 2147483647],
  short: [-32768, 32767],
  byte: [-128, 127],
};
const FLOATS = new Set(['double', 'float', 'half_float', 'scaled_float']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Elasticsearch's index.mapping.nested_objects.limit: the objects of `nested` fields one document may hold (each is a hidden document). */
export const NESTED_OBJECTS_LIMIT = 10_000;

/** The first refusal of `source` under `mapping`, or null when it fits. */
export function checkDocument(mapping: TypeMapping, id: string, source: Record<string, unknown>): MappingError | null {
  if (mapping.dynamic === 'true' && Object.keys(mapping.properties).length === 0) return null;
  for (const [key, value] of Object.entries(source)) {
    if (SERVER_FIELDS.has(key)) continue;
    const refused = checkField(mapping.properties, key, key, value, mapping.dynamic, '_doc', id);
    if (refused !== null) return refused;
  }
  if (nestedObjects(mapping.properties, source, NESTED_OBJECTS_LIMIT) > NESTED_OBJECTS_LIMIT) return new MappingError('nested_objects_limit', { limit: String(NESTED_OBJECTS_LIMIT), id });
  return null;
}

/** How many objects of `nested` fields (at any depth) an object holds, counted until past `stopAt` (DocumentParser's nested document count). */
function nestedObjects(properties: Record<string, FieldMapping>, object: Record<string, unknown>, stopAt: number): number {
  let count = 0;
  for (const [key, value] of Object.entries(object)) {
    const field = properties[key];
    if (field === undefined || (field.type !== 'nested' && field.properties === undefined)) continue;
    const values = Array.isArray(value) ? value.flat(Infinity) : [value];
    for (const v of values) {
      if (!isObject(v)) continue;
      if (field.type === 'nested') count++;
      count += nestedObjects(field.properties ?? {}, v, stopAt - count);
      if (count > stopAt) return count;
    }
  }
  return count;
}

function checkField(properties: Record<string, FieldMapping>, name: string, path: string, value: unknown, dynamic: Dynamic, within: string, id: string): MappingError | null {
  const field = properties[name];
  if (field === undefined) {
    // a dotted key is a path: {"a.b": 1} is {"a": {"b": 1}}
    const dot = name.indexOf('.');
    if (dot > 0 && properties[name.slice(0, dot)] !== undefined) return checkField(properties, name.slice(0, dot), path.slice(0, path.length - name.length + dot), { [name.slice(dot + 1)]: value }, dynamic, within, id);
    if (dynamic === 'strict' && value !== null && value !== undefined) return new MappingError('strict_dynamic_mapping', { field: name, within });
    return null;
  }
  const geoPair = field.type === 'geo_point' && Array.isArray(value) && value.length === 2 && value.every((n) => typeof n === 'number');
  const values = geoPair ? [{ lon: (value as number[])[0], lat: (value as number[])[1] }] : Array.isArray(value) ? value.flat(Infinity) : [value];
  for (const v of values) {
    if (v === null || v === undefined) continue;
    const refused = checkValue(field, path, v, dynamic, id);
    if (refused !== null) return refused;
  }
  return null;
}

function checkValue(field: FieldMapping, path: string, value: unknown, dynamic: Dynamic, id: string): MappingError | null {
  const type = field.type ?? 'object';
  if (type === 'object' || type === 'nested') {
    if (!isObject(value)) return new MappingError('document_parse_failed', { field: path, type, id, reason: `object mapping for [${path}] tried to parse field [${path}] as object, but found a concrete value` });
    const inner = (field.dynamic as Dynamic | undefined) ?? dynamic;
    for (const [key, child] of Object.entries(value)) {
      const refused = checkField(field.properties ?? {}, key, `${path}.${key}`, child, inner, path, id);
      if (refused !== null) return refused;
    }
    return null;
  }
  if (fits(type, field, value) || field.ignore_malformed === true) return null;
  return new MappingError('document_parse_failed', { field: path, type, id });
}

/** Whether a (non-null) value is one the field type takes, with Elasticsearch's coercion. */
function fits(type: string, field: FieldMapping, value: unknown): boolean {
  if (isObject(value) && type !== 'geo_point') return false;
  const range = INTEGER_RANGES[type];
  if (range !== undefined) {
    if (field.coerce === false && typeof value !== 'number') return false;
    const n = toLong(value);
    return n !== null && n >= range[0] && n <= range[1];
  }
  if (FLOATS.has(type)) {
    if (field.coerce === false && typeof value !== 'number') return false;
    return toDouble(value) !== null;
  }
  switch (type) {
    case 'boolean':
      return toBoolean(value) !== null;
    case 'date':
      // a `format` the engine cannot read: left to the store (Elasticsearch checks it)
      if (typeof field.format === 'string') return !isReadableDateFormat(field.format) || compileDateFormat(field.format)(value) !== null;
      return toDate(value) !== null || (typeof value === 'string' && (isDateString(value) || looksNumeric(value)));
    case 'geo_point':
      return isGeoPoint(value);
    default:
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'; // text, keyword
  }
}

/** Elasticsearch's geo_point forms: {lat, lon}, [lon, lat], "lat,lon", a geohash, WKT POINT. */
function isGeoPoint(value: unknown): boolean {
  const lat = (n: unknown) => typeof n === 'number' && n >= -90 && n <= 90;
  const lon = (n: unknown) => typeof n === 'number' && n >= -180 && n <= 180;
  if (isObject(value)) return lat(toDouble(value.lat)) && lon(toDouble(value.lon));
  if (typeof value === 'string') {
    const parts = value.split(',');
    if (parts.length === 2) return lat(toDouble(parts[0])) && lon(toDouble(parts[1]));
    return /^[0-9b-hjkmnp-z]{1,12}$/.test(value) || /^POINT\s*\(\s*-?[\d.]+\s+-?[\d.]+\s*\)$/i.test(value);
  }
  return false;
}
