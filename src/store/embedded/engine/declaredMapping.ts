/**
 * A declared mapping (Elasticsearch's `{dynamic, properties}`, store/mapping/typeMapping.ts) applied
 * to an index's field types: each declared field takes the engine type that indexes it as
 * Elasticsearch's type does (integer, short and byte are longs; double, half_float and scaled_float
 * floats; nested fields are stored and mapped as an object's), with its multi-fields and
 * ignore_above. A field of a type the engine does not index yet (geo_point) is kept in `_source`
 * only, and never mapped dynamically. A declared field overrides dynamic detection: it is mapped
 * before any document brings it.
 */
import type { FieldMapping, TypeMapping } from '../../mapping/typeMapping';
import { mappedFields, typeOf } from '../../mapping/typeMapping';
import type { FieldType } from './fieldValues';
import type { FieldAnalyzers, IndexMapping, MultiField } from './mapping';
import { STANDARD, analyzerByName } from './analysis/analyzers';
import { compileDateFormat, isReadableDateFormat } from './dateFormat';
import { declareGeoPoint } from './geo/geoColumn';

/** Elasticsearch's field types as the engine's; undefined: kept in `_source` only. */
const ENGINE_TYPES: Record<string, FieldType | 'object'> = {
  text: 'text',
  keyword: 'keyword',
  long: 'long',
  integer: 'long',
  short: 'long',
  byte: 'long',
  double: 'float',
  float: 'float',
  half_float: 'float',
  scaled_float: 'float',
  date: 'date',
  boolean: 'boolean',
  object: 'object',
  nested: 'object',
};

/** The engine type of an Elasticsearch field mapping ('object' for objects, null: not indexed by the engine). */
export function engineType(field: FieldMapping): FieldType | 'object' | null {
  if (field.index === false) return null;
  return ENGINE_TYPES[typeOf(field)] ?? null;
}

/** A text field's analyzers: `analyzer` (standard by default), `search_analyzer` (`analyzer`'s by default), `search_quote_analyzer` (`search_analyzer`'s), as TextFieldMapper defaults them. */
export function analyzersOf(field: FieldMapping): FieldAnalyzers {
  const named = (name: unknown) => (typeof name === 'string' ? analyzerByName(name) : undefined);
  const index = named(field.analyzer) ?? STANDARD;
  const search = named(field.search_analyzer) ?? index;
  return { index, search, searchQuote: named(field.search_quote_analyzer) ?? search };
}

const ignoreAboveOf = (field: FieldMapping): number | undefined => (typeof field.ignore_above === 'number' ? field.ignore_above : undefined);

/** Declares every field of `mapping` in `index` and sets its `dynamic` (strict leaves new fields unindexed, as false does: refusing them is the write path's). */
export function applyDeclaredMapping(index: IndexMapping, mapping: TypeMapping): void {
  for (const { path, field, multiOf } of mappedFields(mapping.properties)) {
    index.declareAnalysis(path, { analyzers: typeOf(field) === 'text' ? analyzersOf(field) : undefined, lowercase: typeOf(field) === 'keyword' ? field.normalizer === 'lowercase' : undefined });
    if (multiOf !== undefined) continue;
    const multi: MultiField[] = [];
    for (const [name, sub] of Object.entries(field.fields ?? {})) {
      const type = engineType(sub);
      if (type !== null && type !== 'object') multi.push({ path: `${path}.${name}`, type, ignoreAbove: ignoreAboveOf(sub) });
    }
    index.declareField(path, engineType(field), multi, ignoreAboveOf(field));
    const format = typeof field.format === 'string' && isReadableDateFormat(field.format) ? compileDateFormat(field.format) : undefined;
    const copyTo = field.copy_to === undefined ? undefined : ([] as unknown[]).concat(field.copy_to).map(String);
    index.declareValueRules(path, { dateParser: typeOf(field) === 'date' ? format : undefined, nullValue: field.null_value, copyTo });
    if (typeOf(field) === 'geo_point') declareGeoPoint(index, path); // read by geo/ (geo_distance, geo_bounding_box, _geo_distance, decays)
  }
  index.setDynamic(mapping.dynamic === 'true');
}
