/**
 * The `fields` and `docvalue_fields` of a hit, as Elasticsearch's FetchFieldsPhase and
 * FetchDocValuesPhase answer them: for each mapped field whose name matches a requested pattern
 * (multi-fields such as `name.keyword` included), its values in an array.
 *
 * - `fields`: the source's values parsed as the field's type, in the source's order (a number
 *   written "5" in a long field is 5; a keyword longer than its `ignore_above` is left out); dates
 *   printed with the request's `format`, else the field's (`strict_date_optional_time`).
 * - `docvalue_fields`: the values as the index keeps them for sorting and aggregations: numbers
 *   ascending (a float as the double of its 32-bit value), keywords unique in byte order, dates
 *   printed as above; a text field has none (400, as Elasticsearch).
 *
 * Both read the values the mapping gives the hit's source (mapping.parse, the document being
 * already mapped), so they are what the index holds.
 */
import { Doc, InvalidQueryError } from '../../../port';
import { DEFAULT_DATE_FORMAT, DateFormats } from '../aggregations/dateFormat';
import { floatToJson } from '../fieldValues';
import { isSimpleMatchPattern, simpleMatch } from '../glob';
import { FieldValues, IndexMapping } from '../mapping';
import { compareUtf8 } from '../strings';
import { FieldRequest } from './fetchOptions';

type Values = FieldValues['values'];

/** Checks a request against the mapping before any hit is fetched (a text field's doc values, a format on a non-date field). */
export function checkFieldRequests(requests: readonly FieldRequest[], mapping: IndexMapping, docValues: boolean): void {
  for (const request of requests) {
    if (isSimpleMatchPattern(request.pattern)) continue;
    const type = mapping.type(request.pattern);
    if (type === undefined) continue;
    if (docValues && type === 'text') {
      throw new InvalidQueryError(`Can't load fielddata on [${request.pattern}] because fielddata is unsupported on fields of type [text]. Use a keyword field instead.`);
    }
    if (request.format !== null && type !== 'date') throw new InvalidQueryError(`Field [${request.pattern}] of type [${type}] does not support custom formats`);
  }
}

function formatted(type: FieldValues['type'], values: Values, format: DateFormats | null, docValues: boolean): unknown[] {
  if (type === 'date') return values.map((v) => (format ?? DEFAULT_DATE_FORMAT).print(v as number));
  if (type === 'float') return values.map((v) => (docValues ? (v as number) : floatToJson(v as number)));
  return values.slice();
}

/** Doc values: numbers ascending, keywords unique in UTF-8 order, booleans false first. */
function docValuesOf(type: FieldValues['type'], values: Values): Values {
  if (type === 'keyword') return [...new Set(values as string[])].sort(compareUtf8);
  if (type === 'boolean') return (values as boolean[]).slice().sort((a, b) => Number(a) - Number(b));
  return (values as number[]).slice().sort((a, b) => a - b);
}

/**
 * The hit's `fields` entries for these requests (none: undefined), added to `out`. Each field
 * comes once, with the format of the first request that matches it.
 */
export function hitFields(source: Doc, mapping: IndexMapping, fields: readonly FieldRequest[], docvalueFields: readonly FieldRequest[], out: Record<string, unknown[]> = {}): Record<string, unknown[]> {
  if (fields.length === 0 && docvalueFields.length === 0) return out;
  const parsed = mapping.parse(source);
  const add = (requests: readonly FieldRequest[], docValues: boolean) => {
    for (const [field, entry] of parsed) {
      if (Object.prototype.hasOwnProperty.call(out, field)) continue;
      const request = requests.find((r) => simpleMatch(r.pattern, field));
      if (request === undefined) continue;
      if (docValues && entry.type === 'text') continue; // a pattern reaching a text field: it has no doc values
      const values = docValues ? docValuesOf(entry.type, entry.values) : entry.values;
      Object.defineProperty(out, field, { value: formatted(entry.type, values, request.format, docValues), enumerable: true, writable: true, configurable: true });
    }
  };
  add(fields, false);
  add(docvalueFields, true);
  return out;
}
