/**
 * Sorting hits as Elasticsearch does, and `search_after`.
 *
 * Forms: `"field"`, `{"field": "desc"}`, `{"field": {"order": "desc", "missing": "_first", "mode":
 * "max", "unmapped_type": "long"}}`, `"_score"` (descending by default), `"_doc"` (index order),
 * or an array of them. Sortable fields: keyword (including `.keyword` sub-fields, UTF-8 order),
 * long, float, date and boolean. Multi-valued fields sort by their smallest value ascending and
 * their largest descending (`mode` changes it). Missing values go last (`_last`, the default, in
 * either order), first (`_first`), or take a given value. Ties are broken by index order.
 *
 * Sort values (a hit's `sort`) are what Elasticsearch returns: strings for keywords, epoch millis for
 * dates, 0/1 for booleans, the shortest decimal for floats, the score for `_score`, the internal
 * document number for `_doc`; a missing value is null for keywords, -2^63 or 2^63-1 for long, date
 * and boolean (Long.MIN_VALUE/MAX_VALUE, approximated by JavaScript numbers), "-Infinity" or
 * "Infinity" for floats. A sort of `_score` descending alone is no sort at all (no `sort` values).
 * `_geo_distance` sorts by distance to a point (geo/geoSort.ts).
 * Text fields, unmapped fields (without unmapped_type) and `_id` cannot be sorted on, as in
 * Elasticsearch 8.
 */
import { InvalidQueryError } from '../../port';
import { parseDateValue } from './dates';
import { FieldIndex } from './fieldIndex';
import { FieldType, floatToJson, toBoolean, toDouble, toFloat, toKeyword, toLong } from './fieldValues';
import { describe, hasOwn, isPlainObject, quote } from './json';
import { IndexMapping } from './mapping';
import { compareUtf8 } from './strings';
import { GeoSortSpec, parseGeoSort, resolveGeoSort } from './geo/geoSort';
import type { InvertedIndex } from './invertedIndex';

export type SortOrder = 'asc' | 'desc';
export type SortMode = 'min' | 'max' | 'sum' | 'avg' | 'median';
type Missing = { kind: 'last' } | { kind: 'first' } | { kind: 'value'; value: unknown };

/** A sort clause as written (field types are resolved at search time). */
export interface SortClause {
  field: string;
  order: SortOrder;
  missing: Missing;
  mode: SortMode | null;
  unmappedType: FieldType | null;
  where: string;
  /** `_geo_distance`: its points, unit and distance type. */
  geo?: GeoSortSpec;
}

export type ResolvedSort =
  | { kind: 'score'; order: SortOrder }
  | { kind: 'doc'; order: SortOrder }
  | { kind: 'field'; field: string; type: FieldType; order: SortOrder; mode: SortMode; missing: Missing; index: FieldIndex | undefined; where: string }
  /** `_geo_distance`: the distance of a document (Infinity without a point). */
  | { kind: 'geo'; order: SortOrder; distance: (doc: number) => number };

/** Comparable key of one hit for one sort clause: a number, a string, or null (a missing keyword). */
export type SortKey = number | string | null;

const LONG_MIN = -9223372036854775808;
const LONG_MAX = 9223372036854775807;

function invalid(message: string): InvalidQueryError {
  return new InvalidQueryError(message);
}

function readOrder(value: unknown, where: string): SortOrder {
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (lower === 'asc' || lower === 'desc') return lower;
  }
  throw invalid(`sort order at ${where} must be "asc" or "desc", got ${describe(value)}`);
}

const SORT_PARAMS = ['order', 'missing', 'mode', 'unmapped_type'];
const UNMAPPED_TYPES = new Map<string, FieldType>([
  ['keyword', 'keyword'],
  ['long', 'long'],
  ['integer', 'long'],
  ['short', 'long'],
  ['byte', 'long'],
  ['float', 'float'],
  ['double', 'double'],
  ['half_float', 'float'],
  ['date', 'date'],
  ['boolean', 'boolean'],
]);

function parseClause(field: string, value: unknown, where: string): SortClause {
  if (field === '') throw invalid(`sort field name at ${where} must not be empty`);
  if (field === '_script' || field === '_shard_doc') throw invalid(`sort ${quote(field)} is not supported at ${where}`);
  if (field === '_geo_distance') {
    const geo = parseGeoSort(value, where);
    return { field, order: geo.order, missing: { kind: 'last' }, mode: geo.mode, unmappedType: null, where, geo };
  }
  const clause: SortClause = { field, order: field === '_score' ? 'desc' : 'asc', missing: { kind: 'last' }, mode: null, unmappedType: null, where };
  if (value === undefined) return clause;
  if (typeof value === 'string') {
    clause.order = readOrder(value, where);
    return clause;
  }
  if (!isPlainObject(value)) throw invalid(`sort for ${quote(field)} at ${where} must be "asc", "desc" or an object, got ${describe(value)}`);
  for (const key of Object.keys(value)) {
    if (!SORT_PARAMS.includes(key)) throw invalid(`unsupported sort parameter ${quote(key)} at ${where}`);
  }
  if (hasOwn(value, 'order')) clause.order = readOrder(value.order, `${where}.order`);
  if (field === '_score' || field === '_doc') {
    const extra = Object.keys(value).find((k) => k !== 'order');
    if (extra !== undefined) throw invalid(`sort parameter ${quote(extra)} does not apply to ${field} at ${where}`);
    return clause;
  }
  if (hasOwn(value, 'missing')) {
    const missing = value.missing;
    if (missing === '_last') clause.missing = { kind: 'last' };
    else if (missing === '_first') clause.missing = { kind: 'first' };
    else if (typeof missing === 'string' || typeof missing === 'number' || typeof missing === 'boolean') clause.missing = { kind: 'value', value: missing };
    else throw invalid(`sort "missing" at ${where}.missing must be "_last", "_first" or a value, got ${describe(missing)}`);
  }
  if (hasOwn(value, 'mode')) {
    const mode = typeof value.mode === 'string' ? value.mode.toLowerCase() : null;
    if (mode !== 'min' && mode !== 'max' && mode !== 'sum' && mode !== 'avg' && mode !== 'median') throw invalid(`sort "mode" at ${where}.mode must be min, max, sum, avg or median, got ${describe(value.mode)}`);
    clause.mode = mode;
  }
  if (hasOwn(value, 'unmapped_type')) {
    const type = typeof value.unmapped_type === 'string' ? UNMAPPED_TYPES.get(value.unmapped_type) : undefined;
    if (type === undefined) throw invalid(`sort "unmapped_type" at ${where}.unmapped_type must be one of ${[...UNMAPPED_TYPES.keys()].join(', ')}, got ${describe(value.unmapped_type)}`);
    clause.unmappedType = type;
  }
  return clause;
}

function parseElement(element: unknown, where: string, out: SortClause[]): void {
  if (typeof element === 'string') {
    out.push(parseClause(element, undefined, where));
  } else if (isPlainObject(element)) {
    const keys = Object.keys(element);
    if (keys.length === 0) throw invalid(`sort at ${where} must name a field, got an empty object`);
    for (const key of keys) out.push(parseClause(key, element[key], `${where}.${key}`));
  } else {
    throw invalid(`sort at ${where} must be a field name or an object, got ${describe(element)}`);
  }
}

/** Parse a `sort` value; null (no sort: by score) for undefined, an empty array, or `_score` descending alone. */
export function parseSort(sort: unknown): SortClause[] | null {
  if (sort === undefined || sort === null) return null;
  const clauses: SortClause[] = [];
  if (Array.isArray(sort)) sort.forEach((element, i) => parseElement(element, `sort[${i}]`, clauses));
  else parseElement(sort, 'sort', clauses);
  if (clauses.length === 0) return null;
  if (clauses.length === 1 && clauses[0].field === '_score' && clauses[0].order === 'desc') return null;
  return clauses;
}

/** Field types of the sort clauses against an index (errors for fields that cannot be sorted on). */
export function resolveSort(clauses: readonly SortClause[], mapping: IndexMapping, fieldIndex: (field: string) => FieldIndex | undefined, index?: InvertedIndex): ResolvedSort[] {
  return clauses.map((clause): ResolvedSort => {
    if (clause.geo !== undefined) {
      if (index === undefined) throw invalid(`sort "_geo_distance" is not supported here (at ${clause.where})`);
      return { kind: 'geo', order: clause.order, distance: resolveGeoSort(clause.geo, mapping, index) };
    }
    if (clause.field === '_score') return { kind: 'score', order: clause.order };
    if (clause.field === '_doc') return { kind: 'doc', order: clause.order };
    if (clause.field === '_id') throw invalid(`sorting on "_id" is not allowed (at ${clause.where})`);
    let type = mapping.type(clause.field);
    if (type === 'text') {
      throw invalid(`text field ${quote(clause.field)} cannot be sorted on (at ${clause.where}); sort on a keyword field, e.g. ${quote(clause.field + '.keyword')}`);
    }
    if (type === undefined) {
      if (clause.unmappedType === null) throw invalid(`no mapping found for ${quote(clause.field)} in order to sort on (at ${clause.where})`);
      type = clause.unmappedType;
    }
    const mode = clause.mode ?? (clause.order === 'asc' ? 'min' : 'max');
    if (type === 'keyword' && mode !== 'min' && mode !== 'max') throw invalid(`sort mode [${mode}] is not allowed on keyword field ${quote(clause.field)} (at ${clause.where})`);
    if (clause.missing.kind === 'value' && missingValue(type, clause.missing.value) === null) {
      throw invalid(`sort "missing" value ${describe(clause.missing.value)} is not a valid ${type} at ${clause.where}.missing`);
    }
    return { kind: 'field', field: clause.field, type, order: clause.order, mode, missing: clause.missing, index: mapping.type(clause.field) === undefined ? undefined : fieldIndex(clause.field), where: clause.where };
  });
}

function missingValue(type: FieldType, value: unknown): SortKey {
  switch (type) {
    case 'keyword':
      return toKeyword(value);
    case 'long':
      return toLong(value);
    case 'float':
      return toFloat(value);
    case 'double':
      return toDouble(value);
    case 'date':
      return parseDateValue(value);
    case 'boolean': {
      const b = toBoolean(value);
      return b === null ? null : b ? 1 : 0;
    }
    case 'text':
      return null;
  }
}

function pick(values: number[], mode: SortMode, type: FieldType): number {
  switch (mode) {
    case 'min':
      return values[0];
    case 'max':
      return values[values.length - 1];
    case 'sum': {
      const sum = values.reduce((a, b) => a + b, 0);
      return type === 'float' ? Math.fround(sum) : sum;
    }
    case 'avg': {
      const avg = values.reduce((a, b) => a + b, 0) / values.length;
      return type === 'float' ? Math.fround(avg) : type === 'double' ? avg : Math.round(avg);
    }
    case 'median': {
      const mid = values.length >> 1;
      const median = values.length % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
      return type === 'float' ? Math.fround(median) : type === 'double' ? median : Math.round(median);
    }
  }
}

/** The key a missing value sorts with: a sentinel that puts it first or last in the output order. */
function missingKey(sort: Extract<ResolvedSort, { kind: 'field' }>): SortKey {
  if (sort.missing.kind === 'value') return missingValue(sort.type, sort.missing.value);
  if (sort.type === 'keyword') return null;
  const lowest = (sort.missing.kind === 'first') !== (sort.order === 'desc');
  if (sort.type === 'float' || sort.type === 'double') return lowest ? -Infinity : Infinity;
  return lowest ? LONG_MIN : LONG_MAX;
}

/** The sort key of a document for one clause. */
export function sortKey(sort: ResolvedSort, doc: number, score: number): SortKey {
  if (sort.kind === 'score') return score;
  if (sort.kind === 'doc') return doc;
  if (sort.kind === 'geo') return sort.distance(doc);
  const index = sort.index;
  if (index === undefined || !index.present.has(doc)) return missingKey(sort);
  if (sort.type === 'keyword') {
    const value = index.keywordValue(doc, sort.mode === 'max');
    return value === undefined ? missingKey(sort) : value;
  }
  const values = index.values;
  if (values === null || values.count(doc) === 0) return missingKey(sort);
  if (sort.mode === 'min') return values.entries[values.from(doc)];
  if (sort.mode === 'max') return values.entries[values.to(doc) - 1];
  return pick(values.list(doc), sort.mode, sort.type);
}

/** Compare two keys of one clause in output order (negative: a comes first). */
export function compareKeys(sort: ResolvedSort, a: SortKey, b: SortKey): number {
  let c: number;
  if (a === null || b === null) {
    // only keyword keys are null: a missing keyword goes last (or first), whatever the order
    if (a === b) return 0;
    const last = sort.kind === 'field' && sort.missing.kind === 'first' ? -1 : 1;
    return a === null ? last : -last;
  }
  if (typeof a === 'string' && typeof b === 'string') c = compareUtf8(a, b);
  else c = (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  return sort.order === 'desc' ? -c : c;
}

/** A sort key as Elasticsearch prints it in a hit's `sort` array. */
export function sortValue(sort: ResolvedSort, key: SortKey): unknown {
  if (key === null || typeof key === 'string') return key;
  if (sort.kind === 'geo') return key === Infinity ? 'Infinity' : key;
  if (sort.kind !== 'field') return key;
  if (sort.type === 'float' || sort.type === 'double') {
    if (key === Infinity) return 'Infinity';
    if (key === -Infinity) return '-Infinity';
    return sort.type === 'float' ? floatToJson(key) : key;
  }
  return key;
}

/** A hit's `sort` array as Elasticsearch prints it: each clause's key, a score as a float. */
export function hitSortValues(sorts: readonly ResolvedSort[], keys: readonly SortKey[]): unknown[] {
  return sorts.map((s, j) => (s.kind === 'score' ? floatToJson(keys[j] as number) : sortValue(s, keys[j])));
}

/** A document of a short list sorted whole (inner hits, top_hits): its score and its key for each sort clause. */
export interface Ranked {
  doc: number;
  score: number;
  keys: SortKey[];
}

export function ranked(sorts: readonly ResolvedSort[] | null, doc: number, score: number): Ranked {
  return { doc, score, keys: sorts === null ? [] : sorts.map((s) => sortKey(s, doc, score)) };
}

/**
 * The order of inner hits and top_hits: by the sort clauses, or, without any, by score, highest
 * first; ties by document.
 */
export function compareRanked(sorts: readonly ResolvedSort[] | null): (a: Ranked, b: Ranked) => number {
  return (a, b) => {
    if (sorts === null) return a.score !== b.score ? b.score - a.score : a.doc - b.doc;
    for (let i = 0; i < sorts.length; i++) {
      const c = compareKeys(sorts[i], a.keys[i], b.keys[i]);
      if (c !== 0) return c;
    }
    return a.doc - b.doc;
  };
}

/** Turn a `search_after` value back into a key of its sort clause. */
export function searchAfterKey(sort: ResolvedSort, value: unknown, where: string): SortKey {
  const fail = () => invalid(`search_after value ${describe(value)} at ${where} does not fit the sort on ${sort.kind === 'field' ? quote(sort.field) : sort.kind === 'geo' ? '_geo_distance' : `_${sort.kind}`}`);
  if (sort.kind === 'score') {
    const n = toDouble(value);
    if (n === null) throw fail();
    return Math.fround(n);
  }
  if (sort.kind === 'doc') {
    const n = toDouble(value);
    if (n === null || !Number.isInteger(n)) throw fail();
    return n;
  }
  if (sort.kind === 'geo') {
    const n = value === 'Infinity' ? Infinity : toDouble(value);
    if (n === null) throw fail();
    return n;
  }
  if (sort.type === 'keyword') {
    if (value === null) return null;
    const s = toKeyword(value);
    if (s === null) throw fail();
    return s;
  }
  if (sort.type === 'float' || sort.type === 'double') {
    if (value === 'Infinity') return Infinity;
    if (value === '-Infinity') return -Infinity;
    const n = sort.type === 'float' ? toFloat(value) : toDouble(value);
    if (n === null) throw fail();
    return n;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  const n = sort.type === 'date' && typeof value === 'string' && !/^-?\d+$/.test(value) ? parseDateValue(value) : toLong(value);
  if (n === null) throw fail();
  return n;
}
