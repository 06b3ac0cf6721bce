/**
 * A declared mapping (Elasticsearch's `{dynamic, properties}`, store/mapping/typeMapping.ts) applied
 * to an index's field types: each declared field takes the engine type that indexes it as
 * Elasticsearch's type does (integer, short and byte are longs; float and half_float 32-bit floats,
 * half_float values rounded to 16 bits; double a 64-bit double; scaled_float a double holding
 * Math.round(value * scaling_factor) / scaling_factor, as its long reads back; a nested field's
 * objects are documents of their own, nested/nestedDocs.ts), with its multi-fields and
 * ignore_above. A field of a type the engine does not index yet (geo_point) is kept in `_source`
 * only, and never mapped dynamically. A declared field overrides dynamic detection: it is mapped
 * before any document brings it.
 */
import type { FieldMapping, TypeMapping } from '../../mapping/typeMapping';
import { mappedFields, typeOf } from '../../mapping/typeMapping';
import type { FieldType } from './fieldValues';
import type { FieldAnalyzers, IndexMapping, MultiField } from './mapping';
import { STANDARD, analyzerByName } from './analysis/analyzers';
import { isReadableDateFormat } from './dateFormat';
import { declareGeoPoint } from './geo/geoColumn';

/** Elasticsearch's field types as the engine's; undefined: kept in `_source` only. */
const ENGINE_TYPES: Record<string, FieldType | 'object'> = {
  text: 'text',
  keyword: 'keyword',
  long: 'long',
  integer: 'long',
  short: 'long',
  byte: 'long',
  double: 'double',
  float: 'float',
  half_float: 'float',
  scaled_float: 'double',
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

/** How a field's values and query terms are read: a text field's analyzers, a keyword field's normalizer, a half_float's or scaled_float's rounding. */
export function declareFieldRules(index: IndexMapping, path: string, field: FieldMapping): void {
  const numberKind = typeOf(field) === 'half_float' ? ({ kind: 'half_float' } as const) : typeOf(field) === 'scaled_float' ? ({ kind: 'scaled_float', scalingFactor: field.scaling_factor as number } as const) : undefined;
  if (numberKind !== undefined) index.declareValueRules(path, { numberKind });
  index.declareAnalysis(path, { analyzers: typeOf(field) === 'text' ? analyzersOf(field) : undefined, lowercase: typeOf(field) === 'keyword' ? field.normalizer === 'lowercase' : undefined });
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
    declareFieldRules(index, path, field);
    if (multiOf !== undefined) continue;
    const multi: MultiField[] = [];
    for (const [name, sub] of Object.entries(field.fields ?? {})) {
      const type = engineType(sub);
      if (type !== null && type !== 'object') multi.push({ path: `${path}.${name}`, type, ignoreAbove: ignoreAboveOf(sub) });
    }
    index.declareField(path, engineType(field), multi, ignoreAboveOf(field));
    const format = typeOf(field) === 'date' && typeof field.format === 'string' && isReadableDateFormat(field.format) ? field.format : undefined;
    const copyTo = field.copy_to === undefined ? undefined : ([] as unknown[]).concat(field.copy_to).map(String);
    index.declareValueRules(path, { dateFormat: format, nullValue: field.null_value, copyTo });
    if (typeOf(field) === 'nested') index.declareNested(path, field.include_in_parent === true || field.include_in_root === true);
    if (typeOf(field) === 'geo_point') declareGeoPoint(index, path); // read by geo/ (geo_distance, geo_bounding_box, _geo_distance, decays)
  }
  index.setDynamic(mapping.dynamic === 'true');
}
