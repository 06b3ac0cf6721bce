/**
 * The per-document values an aggregation reads, from the index's doc values (Lucene's, as
 * Elasticsearch reads them): keyword fields as their sorted set of distinct terms (term ids into the
 * field's dictionary), long, float, date and boolean fields as their sorted numbers (duplicates kept;
 * dates in epoch millis, booleans 0/1, floats as the double of the stored float, as Elasticsearch's
 * `float` doc values read).
 *
 * Text fields have no doc values and are refused with Elasticsearch's message (fielddata is off);
 * a field no document has mapped yet has no values (Elasticsearch's "unmapped" aggregators answer
 * as over no values). Each aggregation names the value types it accepts; another is refused as
 * Elasticsearch refuses it ("Field [code.keyword] of type [keyword] is not supported for aggregation [avg]").
 */
import { InvalidQueryError } from '../../../port';
import { parseDateValue } from '../dates';
import { FieldType, toBoolean, toDouble, toFloat, toKeyword, toLong } from '../fieldValues';
import { ForwardIndex, TermIds } from '../forwardIndex';
import { InvertedIndex } from '../invertedIndex';
import { TermHash } from '../termHash';
import { TermPostings } from '../termPostings';
import { describe, quote } from '../json';
import { IndexMapping } from '../mapping';
import { DEFAULT_DATE_FORMAT, DateFormats } from './dateFormat';
import { TimeZone, UTC } from '../dates';
import { javaDouble } from './numbers';

export interface NumericValues {
  readonly kind: 'numeric';
  readonly type: 'long' | 'float' | 'double' | 'date' | 'boolean';
  readonly forward: ForwardIndex<Float64Array>;
}

export interface KeywordValues {
  readonly kind: 'keyword';
  readonly forward: ForwardIndex<TermIds>;
  /** term id <-> term */
  readonly dict: TermHash;
}

export interface NoValues {
  readonly kind: 'none';
}

export type Values = NumericValues | KeywordValues | NoValues;

const NONE: NoValues = { kind: 'none' };

/** The value kinds an aggregation accepts. */
export type Accepts = 'keyword' | 'numeric' | 'date' | 'boolean';

export function textFieldError(field: string): InvalidQueryError {
  return new InvalidQueryError(
    `Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead (e.g. ${quote(field + '.keyword')}). Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
  );
}

export interface FieldSource {
  readonly mapping: IndexMapping;
  readonly index: InvertedIndex;
}

function kindOf(type: FieldType): Accepts {
  return type === 'long' || type === 'float' || type === 'double' ? 'numeric' : (type as Accepts);
}

/** The values of `field` for aggregation `agg` (its type name, for messages). */
export function fieldValues(source: FieldSource, field: string, agg: string, accepts: readonly Accepts[]): Values {
  const type = source.mapping.type(field);
  if (type === undefined) return NONE;
  if (type === 'text') throw textFieldError(field);
  if (!accepts.includes(kindOf(type))) throw new InvalidQueryError(`Field [${field}] of type [${type}] is not supported for aggregation [${agg}]`);
  const index = source.index.field(field);
  if (index === undefined) return NONE;
  if (type === 'keyword') return { kind: 'keyword', forward: index.tokens as ForwardIndex<TermIds>, dict: (index.terms as TermPostings).dict as TermHash };
  return { kind: 'numeric', type, forward: index.values as ForwardIndex<Float64Array> };
}

/** A `missing` value in the field's type: a term, a number, or null when it is not one. */
export function missingValue(values: Values, raw: unknown, where: string): string | number {
  let out: string | number | null;
  if (values.kind === 'keyword') out = toKeyword(raw);
  else if (values.kind === 'none') out = typeof raw === 'number' ? raw : toKeyword(raw);
  else if (values.type === 'date') out = typeof raw === 'string' ? DEFAULT_DATE_FORMAT.parse(raw) ?? parseDateValue(raw) : parseDateValue(raw);
  else if (values.type === 'boolean') {
    const b = toBoolean(raw);
    out = b === null ? null : b ? 1 : 0;
  } else out = values.type === 'long' ? toLong(raw) : values.type === 'double' ? toDouble(raw) : toFloat(raw) ?? toDouble(raw);
  if (out === null) throw new InvalidQueryError(`"missing" value ${describe(raw)} at ${where} is not a value of the field's type`);
  return out;
}

/**
 * How a numeric value prints as a string (`key_as_string`, `value_as_string`), or null for plain
 * numbers (Elasticsearch's DocValueFormat.RAW prints none): dates in the `format` (else the field's
 * strict_date_optional_time) in the time zone, booleans as true/false.
 */
export function valuePrinter(values: Values, format: DateFormats | null, zone: TimeZone = UTC): ((value: number) => string) | null {
  if (values.kind === 'numeric' && values.type === 'date') {
    const formats = format ?? DEFAULT_DATE_FORMAT;
    return (value) => (Number.isFinite(value) ? formats.print(Math.trunc(value), zone) : javaDouble(value));
  }
  if (values.kind === 'numeric' && values.type === 'boolean') return (value) => (value !== 0 ? 'true' : 'false');
  return null;
}

/** Whether a document has at least one value. */
export function hasValues(values: Values, doc: number): boolean {
  return values.kind !== 'none' && values.forward.count(doc) > 0;
}
