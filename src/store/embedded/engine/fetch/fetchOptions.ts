/**
 * What each hit carries (Elasticsearch's FetchSourceContext, StoredFieldsContext and the `fields`
 * and `docvalue_fields` of SearchSourceBuilder): its `_source` (filtered, or none), and the values
 * of the fields asked for. `stored_fields` names no stored field here (no field is mapped with
 * `store: true`), so it only decides whether `_source` comes: `_none_` leaves out `_source` (and it
 * refuses an explicit `_source`); a list of names leaves it out unless `_source` is asked for.
 */
import { InvalidQueryError } from '../../../port';
import { DateFormats } from '../aggregations/dateFormat';
import { describe, isPlainObject, quote } from '../json';
import { SourceFilter, parseSourceFilter } from '../source';

/** One entry of `fields` or `docvalue_fields`: a field name or pattern, and a date format. */
export interface FieldRequest {
  pattern: string;
  format: DateFormats | null;
}

export interface FetchOptions {
  /** null: the hits carry no `_source`. */
  source: SourceFilter | null;
  fields: FieldRequest[];
  docvalueFields: FieldRequest[];
}

const NONE = '_none_';

function fieldRequests(name: 'fields' | 'docvalue_fields', value: unknown): FieldRequest[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item, i) => {
    const where = `${name}[${i}]`;
    if (typeof item === 'string') return { pattern: item, format: null };
    if (!isPlainObject(item)) throw new InvalidQueryError(`${where} must be a field name or an object {field, format}, got ${describe(item)}`);
    for (const key of Object.keys(item)) {
      if (key !== 'field' && key !== 'format') throw new InvalidQueryError(`unsupported parameter ${quote(key)} at ${where} (supported: field, format)`);
    }
    if (typeof item.field !== 'string' || item.field === '') throw new InvalidQueryError(`${where}.field must be a field name, got ${describe(item.field)}`);
    if (item.format !== undefined && typeof item.format !== 'string') throw new InvalidQueryError(`${where}.format must be a string, got ${describe(item.format)}`);
    return { pattern: item.field, format: typeof item.format === 'string' && item.format !== 'use_field_mapping' ? new DateFormats(item.format, `${where}.format`) : null };
  });
}

function storedFieldNames(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  const names = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) throw new InvalidQueryError(`stored_fields must be a field name or an array of field names, got ${describe(value)}`);
  if (names.includes(NONE) && names.length > 1) throw new InvalidQueryError(`[stored_fields] cannot list other fields with [${NONE}]`);
  return names as string[];
}

export function parseFetchOptions(request: { _source?: unknown; stored_fields?: unknown; fields?: unknown; docvalue_fields?: unknown }): FetchOptions {
  const filter = parseSourceFilter(request._source);
  const stored = storedFieldNames(request.stored_fields);
  const explicitSource = request._source !== undefined && request._source !== null && request._source !== false;
  let source: SourceFilter | null = filter.enabled ? filter : null;
  if (stored !== null && stored[0] === NONE) {
    if (explicitSource) throw new InvalidQueryError('[stored_fields] cannot be disabled if [_source] is requested');
    if (request.fields !== undefined && request.fields !== null) throw new InvalidQueryError('[stored_fields] cannot be disabled when using the [fields] option');
    source = null;
  } else if (stored !== null && !explicitSource) {
    source = null;
  }
  return { source, fields: fieldRequests('fields', request.fields), docvalueFields: fieldRequests('docvalue_fields', request.docvalue_fields) };
}

/** Hits with the whole stored `_source` or none, and no `fields` or `docvalue_fields`: they can be written as their stored text (engine/pageText.ts). */
export function plainFetch(fetch: FetchOptions): boolean {
  const source = fetch.source;
  return fetch.fields.length === 0 && fetch.docvalueFields.length === 0 && (source === null || (source.includes.length === 0 && source.excludes.length === 0));
}
