/**
 * Declared mappings of an entity type, in Elasticsearch 8's shape (`{dynamic, _meta, properties}`),
 * shared by every store: what a mapping may hold (types and their parameters, checked as
 * Elasticsearch's mapping parser checks them) and how a new one merges into the current one (fields
 * added, a field's type never changed). Written by hand: no npm library parses Elasticsearch
 * mappings; the rules are Elasticsearch's own (TypeParsers, FieldMapper.Builder.merge).
 */
import { MappingError } from './mappingError';
import { ANALYZER_NAMES } from '../embedded/engine/analysis/analyzers';

export type Dynamic = 'true' | 'false' | 'strict';

/** One field's mapping, as Elasticsearch writes it. */
export interface FieldMapping {
  type?: string;
  properties?: Record<string, FieldMapping>;
  fields?: Record<string, FieldMapping>;
  [param: string]: unknown;
}

export interface TypeMapping {
  dynamic: Dynamic;
  _meta?: Record<string, unknown>;
  properties: Record<string, FieldMapping>;
}

/** What a put mapping sends: `dynamic` and `_meta` only when it changes them. */
export interface MappingUpdate {
  dynamic?: Dynamic;
  _meta?: Record<string, unknown>;
  properties: Record<string, FieldMapping>;
}

const COMMON = ['type', 'index', 'copy_to', 'fields', 'boost', 'doc_values', 'store', 'meta'];
const NUMERIC = [...COMMON, 'null_value', 'ignore_malformed', 'coerce'];

/** Each supported type and the parameters Elasticsearch accepts on it. */
export const FIELD_TYPES: Record<string, readonly string[]> = {
  text: [...COMMON, 'analyzer', 'search_analyzer', 'search_quote_analyzer', 'norms', 'similarity', 'position_increment_gap', 'index_options'],
  keyword: [...COMMON, 'ignore_above', 'normalizer', 'null_value', 'norms', 'similarity', 'index_options'],
  long: NUMERIC,
  integer: NUMERIC,
  short: NUMERIC,
  byte: NUMERIC,
  double: NUMERIC,
  float: NUMERIC,
  half_float: NUMERIC,
  scaled_float: [...NUMERIC, 'scaling_factor'],
  boolean: [...COMMON, 'null_value'],
  date: [...NUMERIC, 'format', 'locale'],
  geo_point: ['type', 'index', 'doc_values', 'store', 'null_value', 'ignore_malformed', 'ignore_z_value', 'copy_to', 'meta'],
  object: ['type', 'properties', 'dynamic', 'enabled'],
  nested: ['type', 'properties', 'dynamic', 'include_in_parent', 'include_in_root'],
};

/** The analyzers a text field may name: Elasticsearch's built-in ones the engine implements (engine/analysis). */
export const ANALYZERS: readonly string[] = ANALYZER_NAMES;
/** The normalizers a keyword field may name. */
export const NORMALIZERS = ['lowercase'] as const;

/** Elasticsearch's limits: index.mapping.depth.limit, and a field name's length. */
const MAX_DEPTH = 20;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A field's type as Elasticsearch names it: `object` when it has properties and no type. */
export function typeOf(field: FieldMapping): string {
  return field.type ?? 'object';
}

function parseDynamic(value: unknown, where: string): Dynamic {
  if (value === true || value === 'true') return 'true';
  if (value === false || value === 'false') return 'false';
  if (value === 'strict') return 'strict';
  throw new MappingError('invalid_mapping', { reason: `Could not convert [${where}dynamic] to boolean or "strict": [${String(value)}]` });
}

/**
 * A mapping body as a client sends it (`{dynamic?, _meta?, properties?}`), checked: unknown types and
 * parameters, bad parameter values, a depth past 20 are refused (MappingError invalid_mapping).
 */
export function parseTypeMapping(body: unknown): MappingUpdate {
  if (!isObject(body)) throw new MappingError('invalid_mapping', { reason: 'the mapping must be an object: {"dynamic"?, "_meta"?, "properties"?}' });
  for (const key of Object.keys(body)) {
    if (!['dynamic', '_meta', 'properties'].includes(key)) throw new MappingError('invalid_mapping', { reason: `Root mapping definition has unsupported parameters: [${key}]` });
  }
  const out: MappingUpdate = { properties: {} };
  if (body.dynamic !== undefined) out.dynamic = parseDynamic(body.dynamic, '');
  if (body._meta !== undefined) {
    if (!isObject(body._meta)) throw new MappingError('invalid_mapping', { reason: '[_meta] must be an object' });
    out._meta = body._meta;
  }
  if (body.properties !== undefined) out.properties = parseProperties(body.properties, '', 1);
  return out;
}

function parseProperties(value: unknown, prefix: string, depth: number): Record<string, FieldMapping> {
  if (!isObject(value)) throw new MappingError('invalid_mapping', { reason: `[${prefix === '' ? '' : prefix + '.'}properties] must be an object` });
  if (depth > MAX_DEPTH) throw new MappingError('invalid_mapping', { reason: `Limit of mapping depth [${MAX_DEPTH}] has been exceeded due to object field [${prefix}]` });
  const out: Record<string, FieldMapping> = {};
  for (const [name, spec] of Object.entries(value)) {
    if (name.trim() === '' || name.split('.').some((p) => p === '')) throw new MappingError('invalid_mapping', { reason: `field name cannot be empty or contain empty parts: [${name}]` });
    const path = prefix === '' ? name : `${prefix}.${name}`;
    if (!isObject(spec)) throw new MappingError('invalid_mapping', { reason: `Expected map for property [fields] on field [${path}] but got a ${typeof spec}` });
    out[name] = parseField(spec, path, depth);
  }
  return out;
}

function parseField(spec: Record<string, unknown>, path: string, depth: number): FieldMapping {
  const type = spec.type === undefined ? 'object' : spec.type;
  if (typeof type !== 'string' || FIELD_TYPES[type] === undefined) {
    throw new MappingError('invalid_mapping', { reason: `No handler for type [${String(type)}] declared on field [${path}]` });
  }
  const allowed = FIELD_TYPES[type];
  for (const key of Object.keys(spec)) {
    if (!allowed.includes(key)) throw new MappingError('invalid_mapping', { reason: `unknown parameter [${key}] on mapper [${path}] of type [${type}]` });
  }
  const out: FieldMapping = { ...spec };
  if (type === 'object' || type === 'nested') {
    if (spec.properties !== undefined) out.properties = parseProperties(spec.properties, path, depth + 1);
    if (spec.dynamic !== undefined) out.dynamic = parseDynamic(spec.dynamic, `${path}.`);
    return out;
  }
  checkParams(spec, type, path);
  if (spec.fields !== undefined) {
    if (!isObject(spec.fields)) throw new MappingError('invalid_mapping', { reason: `[fields] of [${path}] must be an object` });
    const fields: Record<string, FieldMapping> = {};
    for (const [name, sub] of Object.entries(spec.fields)) {
      if (!isObject(sub)) throw new MappingError('invalid_mapping', { reason: `Expected map for property [fields] on field [${path}.${name}]` });
      if (sub.type === 'object' || sub.type === 'nested' || sub.type === undefined || sub.fields !== undefined) {
        throw new MappingError('invalid_mapping', { reason: `Type [${String(sub.type ?? 'object')}] cannot be used in multi field [${path}.${name}]` });
      }
      fields[name] = parseField(sub, `${path}.${name}`, depth);
    }
    out.fields = fields;
  }
  return out;
}

function checkParams(spec: Record<string, unknown>, type: string, path: string): void {
  const bad = (param: string, why: string) => new MappingError('invalid_mapping', { reason: `Failed to parse [${param}] of field [${path}]: ${why}` });
  for (const flag of ['index', 'ignore_malformed', 'coerce', 'doc_values', 'store', 'norms']) {
    if (spec[flag] !== undefined && typeof spec[flag] !== 'boolean') throw bad(flag, `expected true or false, got [${String(spec[flag])}]`);
  }
  if (spec.ignore_above !== undefined && !(Number.isInteger(spec.ignore_above) && (spec.ignore_above as number) >= 0)) throw bad('ignore_above', 'expected a non-negative integer');
  if (type === 'scaled_float') {
    if (spec.scaling_factor === undefined) throw new MappingError('invalid_mapping', { reason: `Field [scaling_factor] is required on field [${path}]` });
    if (typeof spec.scaling_factor !== 'number' || !Number.isFinite(spec.scaling_factor) || spec.scaling_factor <= 0) throw bad('scaling_factor', '[scaling_factor] must be a positive number');
  }
  for (const param of ['analyzer', 'search_analyzer', 'search_quote_analyzer']) {
    const name = spec[param];
    if (name !== undefined && !ANALYZERS.includes(name as string)) {
      throw new MappingError('invalid_mapping', { reason: `analyzer [${String(name)}] has not been configured in mappings (field [${path}]; built-in analyzers: ${ANALYZERS.join(', ')})` });
    }
  }
  // TextParams.Analyzers: a search analyzer needs the index one, a search quote analyzer both
  if (spec.search_analyzer !== undefined && spec.analyzer === undefined) throw new MappingError('invalid_mapping', { reason: `analyzer on field [${path}] must be set when search_analyzer is set` });
  if (spec.search_quote_analyzer !== undefined && (spec.analyzer === undefined || spec.search_analyzer === undefined)) {
    throw new MappingError('invalid_mapping', { reason: `analyzer and search_analyzer on field [${path}] must be set when search_quote_analyzer is set` });
  }
  if (spec.normalizer !== undefined && !(NORMALIZERS as readonly unknown[]).includes(spec.normalizer)) {
    throw new MappingError('invalid_mapping', { reason: `normalizer [${String(spec.normalizer)}] not found for field [${path}]` });
  }
  if (spec.format !== undefined && (typeof spec.format !== 'string' || spec.format.trim() === '')) throw bad('format', 'expected a format name or pattern');
  if (spec.copy_to !== undefined) {
    const targets = Array.isArray(spec.copy_to) ? spec.copy_to : [spec.copy_to];
    if (!targets.every((t) => typeof t === 'string' && t !== '')) throw bad('copy_to', 'expected a field name or a list of field names');
  }
  if (spec.null_value !== undefined && (spec.null_value === null || typeof spec.null_value === 'object')) throw bad('null_value', 'expected a value of the field type');
}

/**
 * `incoming` merged into `current`, as Elasticsearch's put mapping merges: new fields added, a known
 * field keeps its type (MappingError mapping_conflict otherwise: "mapper [code] cannot be changed
 * from type [keyword] to [text]"), its parameters updated, `dynamic` and `_meta` replaced when given.
 * `known` answers the type of fields mapped another way (dynamically), which cannot change either.
 */
export function mergeTypeMapping(current: TypeMapping, incoming: MappingUpdate, known: (path: string) => string | undefined = () => undefined): TypeMapping {
  const merged: TypeMapping = {
    dynamic: incoming.dynamic ?? current.dynamic,
    ...(incoming._meta !== undefined ? { _meta: incoming._meta } : current._meta !== undefined ? { _meta: current._meta } : {}),
    properties: mergeProperties(current.properties, incoming.properties, '', known),
  };
  // MapperService.checkNestedFieldsLimit (index.mapping.nested_fields.limit)
  let nested = 0;
  for (const { field, multiOf } of mappedFields(merged.properties)) if (multiOf === undefined && field.type === 'nested') nested++;
  if (nested > NESTED_FIELDS_LIMIT) throw new MappingError('invalid_mapping', { reason: `Limit of nested fields [${NESTED_FIELDS_LIMIT}] has been exceeded` });
  return merged;
}

/** Elasticsearch's index.mapping.nested_fields.limit: the `nested` fields one mapping may declare. */
export const NESTED_FIELDS_LIMIT = 50;

function mergeProperties(current: Record<string, FieldMapping>, incoming: Record<string, FieldMapping>, prefix: string, known: (path: string) => string | undefined): Record<string, FieldMapping> {
  const out: Record<string, FieldMapping> = { ...current };
  for (const [name, field] of Object.entries(incoming)) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const before = current[name];
    const from = before !== undefined ? typeOf(before) : known(path);
    const to = typeOf(field);
    if (from !== undefined && from !== to) throw new MappingError('mapping_conflict', { field: path, from, to });
    checkFixedParams(before, field, from, path);
    if (before === undefined) {
      checkKnownChildren(field, path, known);
      out[name] = field;
      continue;
    }
    const merged: FieldMapping = { ...before, ...field };
    if (before.properties !== undefined || field.properties !== undefined) merged.properties = mergeProperties(before.properties ?? {}, field.properties ?? {}, path, known);
    if (before.fields !== undefined || field.fields !== undefined) merged.fields = mergeProperties(before.fields ?? {}, field.fields ?? {}, path, known);
    out[name] = merged;
  }
  return out;
}

/**
 * The parameters Elasticsearch does not let a put mapping change (FieldMapper.Parameter not
 * updateable): a text field's `analyzer`, a keyword field's `normalizer`, a scaled_float's
 * `scaling_factor` (what is indexed depends on them). A field mapped dynamically has the defaults
 * (standard analyzer, no normalizer).
 */
function checkFixedParams(before: FieldMapping | undefined, field: FieldMapping, from: string | undefined, path: string): void {
  if (from === undefined) return;
  const fixed: [string, unknown][] = [
    ['analyzer', 'standard'],
    ['normalizer', undefined],
    ['scaling_factor', undefined],
  ];
  for (const [param, byDefault] of fixed) {
    if (!FIELD_TYPES[from]?.includes(param)) continue;
    const was = before === undefined ? byDefault : (before[param] ?? byDefault);
    const now = field[param] ?? byDefault;
    if (was !== now) {
      throw new MappingError('invalid_mapping', { reason: `Mapper for [${path}] conflicts with existing mapper: Cannot update parameter [${param}] from [${String(was ?? 'none')}] to [${String(now ?? 'none')}]` });
    }
  }
}

/** A new object's fields may already be mapped (dynamically): their types cannot change either. */
function checkKnownChildren(field: FieldMapping, path: string, known: (path: string) => string | undefined): void {
  for (const [key, children] of [['properties', field.properties], ['fields', field.fields]] as const) {
    if (children === undefined) continue;
    void key;
    for (const [name, child] of Object.entries(children)) {
      const childPath = `${path}.${name}`;
      const from = known(childPath);
      if (from !== undefined && from !== typeOf(child)) throw new MappingError('mapping_conflict', { field: childPath, from, to: typeOf(child) });
      checkFixedParams(undefined, child, from, childPath);
      checkKnownChildren(child, childPath, known);
    }
  }
}

/** Every field of a mapping with its dotted path, objects first, multi-fields after their field. */
export function* mappedFields(properties: Record<string, FieldMapping>, prefix = ''): Generator<{ path: string; field: FieldMapping; multiOf?: string }> {
  for (const [name, field] of Object.entries(properties)) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    yield { path, field };
    if (field.properties !== undefined) yield* mappedFields(field.properties, path);
    for (const [sub, subField] of Object.entries(field.fields ?? {})) yield { path: `${path}.${sub}`, field: subField, multiOf: path };
  }
}

/** The mapping with nothing declared: every field mapped as it comes. */
export const EMPTY_MAPPING: TypeMapping = Object.freeze({ dynamic: 'true', properties: Object.freeze({}) }) as TypeMapping;
