/**
 * The `highlight` of a search body, read as Elasticsearch 8 reads it (HighlightBuilder,
 * AbstractHighlighterBuilder, SearchHighlightContext): options at the top level apply to every field,
 * a field's own options override them, and Elasticsearch's defaults fill the rest:
 *
 *   pre_tags ["<em>"], post_tags ["</em>"] (tags_schema "styled": <em class="hlt1"> ... hlt10),
 *   fragment_size 100, number_of_fragments 5, no_match_size 0, require_field_match true,
 *   order none (text order; "score": best first), encoder "default", boundary_scanner sentence,
 *   type unified.
 *
 * `fields` is an object ({"name": {...}}) or an array of one-field objects; field names may hold `*`.
 * Options only other highlighters read (fragmenter, boundary_chars, boundary_max_scan, phrase_limit,
 * fragment_offset, highlight_filter, force_source, options) are checked and have no effect, as with
 * Elasticsearch's unified highlighter. Refused with a clear reason: another highlighter `type`
 * (`plain`, `fvh`), `boundary_scanner: chars` (the unified highlighter refuses it too),
 * `matched_fields`, and every malformed value.
 */
import { InvalidQueryError } from '../../../port';
import { describe, hasOwn, isPlainObject, quote } from '../json';
import { QueryLimits } from '../limits';
import { ParsedQuery } from '../query/context';
import { parseQuery } from '../query/parse';
import { Encoder } from './formatter';

export type BoundaryScanner = 'sentence' | 'word';

export interface FieldOptions {
  readonly preTag: string;
  readonly postTag: string;
  readonly fragmentSize: number;
  readonly numberOfFragments: number;
  readonly noMatchSize: number;
  readonly requireFieldMatch: boolean;
  readonly scoreOrdered: boolean;
  readonly encoder: Encoder;
  readonly boundaryScanner: BoundaryScanner;
  /** The request's max_analyzed_offset (-1: the index's limit), or null. */
  readonly maxAnalyzedOffset: number | null;
  /** highlight_query, else null (the search's query). */
  readonly highlightQuery: ParsedQuery | null;
}

/** One entry of `fields`: a field name or pattern, and its options merged with the global ones. */
export interface HighlightField {
  readonly pattern: string;
  readonly options: FieldOptions;
}

export interface Highlight {
  readonly fields: readonly HighlightField[];
}

export const STYLED_PRE_TAGS = Array.from({ length: 10 }, (_, i) => `<em class="hlt${i + 1}">`);

/** Elasticsearch's defaults of every option. */
export const DEFAULT_FIELD_OPTIONS: Readonly<FieldOptions> = {
  preTag: '<em>',
  postTag: '</em>',
  fragmentSize: 100,
  numberOfFragments: 5,
  noMatchSize: 0,
  requireFieldMatch: true,
  scoreOrdered: false,
  encoder: 'default',
  boundaryScanner: 'sentence',
  maxAnalyzedOffset: null,
  highlightQuery: null,
};

/** Options as given (unset ones absent), with where they were given for messages. */
type Given = { -readonly [K in keyof FieldOptions]?: FieldOptions[K] } & { preTags?: string[]; postTags?: string[] };

const COMMON = [
  'pre_tags',
  'post_tags',
  'tags_schema',
  'fragment_size',
  'number_of_fragments',
  'no_match_size',
  'require_field_match',
  'order',
  'encoder',
  'boundary_scanner',
  'boundary_scanner_locale',
  'boundary_chars',
  'boundary_max_scan',
  'fragmenter',
  'type',
  'highlight_query',
  'max_analyzed_offset',
  'phrase_limit',
  'highlight_filter',
  'force_source',
  'options',
];
const TOP_LEVEL = [...COMMON, 'fields'];
const PER_FIELD = [...COMMON, 'fragment_offset', 'matched_fields'];

function invalid(where: string, message: string): InvalidQueryError {
  return new InvalidQueryError(`[${where}] ${message}`);
}

function readInt(where: string, name: string, value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647) throw invalid(where, `${quote(name)} must be an integer, got ${describe(value)}`);
  return n;
}

function readBool(where: string, name: string, value: unknown): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalid(where, `${quote(name)} must be a boolean, got ${describe(value)}`);
}

function readString(where: string, name: string, value: unknown): string {
  if (typeof value !== 'string') throw invalid(where, `${quote(name)} must be a string, got ${describe(value)}`);
  return value;
}

/** A string array, or a single string (Elasticsearch's parser takes either). */
function readStrings(where: string, name: string, value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw invalid(where, `${quote(name)} must be an array of strings, got ${describe(value)}`);
  return value as string[];
}

/** The options an object gives (top level or one field), in the order given, as Elasticsearch applies them. */
function readOptions(obj: Record<string, unknown>, where: string, allowed: readonly string[], path: string, limits: QueryLimits): Given {
  const given: Given = {};
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) throw invalid(where, `unknown field [${key}] (at ${path})`);
    const value = obj[key];
    switch (key) {
      case 'pre_tags':
        given.preTags = readStrings(where, key, value);
        break;
      case 'post_tags':
        given.postTags = readStrings(where, key, value);
        break;
      case 'tags_schema': {
        const schema = readString(where, key, value);
        if (schema === 'styled') given.preTags = STYLED_PRE_TAGS;
        else if (schema === 'default') given.preTags = [DEFAULT_FIELD_OPTIONS.preTag];
        else throw invalid(where, `Unknown tag schema [${schema}]`);
        given.postTags = [DEFAULT_FIELD_OPTIONS.postTag];
        break;
      }
      case 'fragment_size':
        given.fragmentSize = readInt(where, key, value);
        break;
      case 'number_of_fragments': {
        const n = readInt(where, key, value);
        if (n < 0) throw invalid(where, `"number_of_fragments" must be 0 (the whole field) or more, got ${n}`);
        given.numberOfFragments = n;
        break;
      }
      case 'no_match_size':
        given.noMatchSize = readInt(where, key, value);
        break;
      case 'require_field_match':
        given.requireFieldMatch = readBool(where, key, value);
        break;
      case 'order':
        given.scoreOrdered = readString(where, key, value).toUpperCase() === 'SCORE';
        break;
      case 'encoder':
        given.encoder = readString(where, key, value) === 'html' ? 'html' : 'default';
        break;
      case 'boundary_scanner': {
        const scanner = readString(where, key, value).toLowerCase();
        if (scanner === 'chars') throw invalid(where, 'boundary_scanner [chars] is not supported by the unified highlighter (use sentence or word)');
        if (scanner !== 'sentence' && scanner !== 'word') throw invalid(where, `"boundary_scanner" must be one of chars, word, sentence, got ${describe(value)}`);
        given.boundaryScanner = scanner;
        break;
      }
      case 'type': {
        const type = readString(where, key, value);
        if (type === 'plain' || type === 'fvh') throw invalid(where, `highlighter type [${type}] is not supported: only the unified highlighter is (its default type)`);
        if (type !== 'unified') throw invalid(where, `unknown highlighter type [${type}] (at ${path})`);
        break;
      }
      case 'highlight_query':
        if (!isPlainObject(value)) throw invalid(where, `"highlight_query" must be an object, got ${describe(value)}`);
        given.highlightQuery = parseQuery(value, `${path}.highlight_query`, limits);
        break;
      case 'max_analyzed_offset': {
        const n = readInt(where, key, value);
        if (n <= 0 && n !== -1) throw invalid(where, '[max_analyzed_offset] must be a positive integer, or -1');
        given.maxAnalyzedOffset = n;
        break;
      }
      case 'matched_fields':
        throw invalid(where, `"matched_fields" is not supported (at ${path})`);
      case 'boundary_scanner_locale':
      case 'boundary_chars':
      case 'fragmenter':
        readString(where, key, value);
        break;
      case 'boundary_max_scan':
      case 'phrase_limit':
      case 'fragment_offset':
        readInt(where, key, value);
        break;
      case 'highlight_filter':
      case 'force_source':
        readBool(where, key, value);
        break;
      case 'options':
        if (!isPlainObject(value)) throw invalid(where, `"options" must be an object, got ${describe(value)}`);
        break;
    }
  }
  if (given.preTags !== undefined && given.postTags === undefined) throw invalid(where, 'pre_tags are set but post_tags are not set');
  if ((given.preTags !== undefined && given.preTags.length === 0) || (given.postTags !== undefined && given.postTags.length === 0)) {
    throw invalid(where, 'pre_tags or post_tags must not be empty');
  }
  return given;
}

/** The options of `given` over those of `base` (the unified highlighter uses the first tag of each list). */
function merge(base: FieldOptions, given: Given): FieldOptions {
  const { preTags, postTags, ...rest } = given;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(rest)) if (value !== undefined) merged[key] = value;
  if (preTags !== undefined) merged.preTag = preTags[0];
  if (postTags !== undefined) merged.postTag = postTags[0];
  return merged as unknown as FieldOptions;
}

/** The `fields` entries as [name, options object] pairs, in order. */
function fieldEntries(value: unknown): [string, unknown][] {
  if (isPlainObject(value)) return Object.keys(value).map((name) => [name, value[name]]);
  if (Array.isArray(value)) {
    return value.map((entry, i) => {
      if (!isPlainObject(entry) || Object.keys(entry).length !== 1) {
        throw invalid('highlight', `each entry of the "fields" array must be an object with exactly one field name, got ${describe(entry)} at highlight.fields[${i}]`);
      }
      const name = Object.keys(entry)[0];
      return [name, entry[name]];
    });
  }
  throw invalid('highlight', `"fields" must be an object or an array of one-field objects, got ${describe(value)}`);
}

/** Parse (and validate) a search's `highlight`; throws InvalidQueryError naming what is wrong. */
export function parseHighlight(json: unknown, limits: QueryLimits): Highlight {
  if (!isPlainObject(json)) throw invalid('highlight', `must be an object, got ${describe(json)}`);
  const global = merge(DEFAULT_FIELD_OPTIONS, readOptions(json, 'highlight', TOP_LEVEL, 'highlight', limits));
  const fields: HighlightField[] = [];
  if (hasOwn(json, 'fields')) {
    for (const [pattern, value] of fieldEntries(json.fields)) {
      const path = `highlight.fields[${JSON.stringify(pattern)}]`;
      if (pattern === '') throw invalid('highlight_field', `a field name must not be empty (at ${path})`);
      if (!isPlainObject(value)) throw invalid('highlight_field', `the options of ${quote(pattern)} must be an object, got ${describe(value)}`);
      fields.push({ pattern, options: merge(global, readOptions(value, 'highlight_field', PER_FIELD, path, limits)) });
    }
  }
  return { fields };
}
