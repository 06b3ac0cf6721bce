/**
 * Field types of one index: explicit fields (keyword, date, text, long, float, boolean), the rest
 * mapped dynamically the way Elasticsearch 8's dynamic mapping does on first sight of a field:
 * - string: `date` when it is not numeric and parses as strict_date_optional_time or yyyy/MM/dd
 *   (date_detection), else `text` (standard analyzer) with a `<field>.keyword` sub-field of type
 *   keyword (ignore_above 256);
 * - integer number: `long`; other number: `float`; boolean: `boolean`;
 * - object: its properties become dotted fields (`a.b`); arrays are indexed element by element
 *   (multi-valued fields), the first non-null element fixing the type of a new field.
 *
 * A field's type never changes afterwards (like a mapping, it outlives the documents that created
 * it). A later value of another type is coerced when Elasticsearch would coerce it (a number into
 * a text or keyword field, a numeric string into a number field, "true"/"false" into a boolean, an
 * ISO string or epoch millis into a date); otherwise it is left out of that field, where
 * Elasticsearch would reject the whole document with a mapper_parsing_exception. The document is
 * still stored and its other fields indexed. Likewise for an object where a value was mapped, a
 * value where an object was mapped, and fields nested in more than 20 objects (Elasticsearch's
 * index.mapping.depth.limit). JavaScript cannot tell 1.0 from 1: both map to long.
 *
 * With `dynamic: false` (Elasticsearch's `"dynamic": false`), fields that are not declared are not
 * mapped and not indexed: they stay in the stored `_source` only (queries on them match nothing, as
 * on any unmapped field). An explicit `text` field has no `.keyword` sub-field, as in Elasticsearch.
 */
import { Analyzer, STANDARD, analyzerByName } from './analysis/analyzers';
import { lowerCase } from './analysis/lowerCase';
import { isDateString } from './dates';
import { FieldType, isFloating, toBoolean, toDate, toDouble, toFloat, toHalfFloat, toKeyword, toLong, toScaled, toText } from './fieldValues';
import { forInIsOwn, isPlainObject } from './json';
import { compileDateFormat } from './dateFormat';
import { StateError, type StateReader, type StateWriter } from './persist/state';

export type { FieldType } from './fieldValues';

/** Explicit field types; every other field is mapped dynamically, unless `dynamic` is false. */
export interface Mapping {
  keyword?: string[];
  date?: string[];
  /** Text (standard analyzer) without a `.keyword` sub-field. */
  text?: string[];
  long?: string[];
  float?: string[];
  boolean?: string[];
  /** false: fields not declared above stay in `_source` but are not indexed (Elasticsearch's `"dynamic": false`); default true. */
  dynamic?: boolean;
}

/** The explicit field lists of a Mapping, by type. */
export const EXPLICIT_TYPES = ['keyword', 'date', 'text', 'long', 'float', 'boolean'] as const;

export const KEYWORD_SUBFIELD = 'keyword';
export const IGNORE_ABOVE = 256;
/** index.mapping.depth.limit: fields inside more than 20 levels of objects are not indexed. */
export const MAX_OBJECT_DEPTH = 20;
/** Arrays nested deeper than this are not indexed either (JSON.parse accepts any depth). */
const MAX_ARRAY_DEPTH = 100;
/** Paths newFieldCount remembers (IndexMapping.countedPath). */
const MAX_COUNTED_PATHS = 10_000;

/** Elasticsearch metadata fields: not allowed in a document source, ignored here. */
const METADATA_FIELDS = new Set(['_id', '_index', '_source', '_routing', '_ignored', '_seq_no', '_primary_term', '_version', '_field_names', '_doc_count', '_tier']);

/** Values of one field of one document, already coerced to the field's type, in document order. */
export interface FieldValues {
  type: FieldType;
  /** text/keyword: strings; long/float/date: numbers; boolean: booleans. */
  values: (string | number | boolean)[];
}

/** A document broken into indexed fields. */
export type ParsedDoc = Map<string, FieldValues>;

/** Receives the indexed values of a document one by one (already coerced to the field's type). */
export type ValueSink = (field: string, type: FieldType, value: string | number | boolean) => void;

type Slot = FieldType | 'object';

/** A declared multi-field (`fields`): the same value indexed again under `path` with its own type. */
export interface MultiField {
  path: string;
  type: FieldType;
  ignoreAbove?: number;
}

/**
 * A text field's analyzers, as Elasticsearch's TextFieldMapper has them: `analyzer` (index time),
 * `search_analyzer` (queries; defaults to `analyzer`), `search_quote_analyzer` (phrases; defaults
 * to `search_analyzer`).
 */
export interface FieldAnalyzers {
  readonly index: Analyzer;
  readonly search: Analyzer;
  readonly searchQuote: Analyzer;
}

/** How a declared half_float or scaled_float keeps its numbers (Elasticsearch's HALF_FLOAT, ScaledFloatFieldMapper). */
export type NumberKind = { readonly kind: 'half_float' } | { readonly kind: 'scaled_float'; readonly scalingFactor: number };

export const STANDARD_ANALYZERS: FieldAnalyzers = Object.freeze({ index: STANDARD, search: STANDARD, searchQuote: STANDARD });

/** A built-in analyzer by its name, as an index file names it (persist/). */
export function analyzerNamed(name: string): Analyzer {
  const analyzer = analyzerByName(name);
  if (analyzer === undefined) throw new StateError(`index file: no analyzer named ${name}`);
  return analyzer;
}

/**
 * The mapping's tables that `copy`, `writeState` and `readState` take as they are (the date parsers
 * and analyzers are functions: the index file keeps their formats and names, read back through
 * declareValueRules and analyzerNamed). A new table goes here, or into all three by hand.
 */
const PLAIN_TABLES = ['slots', 'subfields', 'multiFields', 'ignoreAbove', 'sourceOnly', 'nullValues', 'copyTo', 'lowercased', 'numberKinds', 'nested'] as const;
type PlainTable = (typeof PLAIN_TABLES)[number];

export class IndexMapping {
  private readonly slots = new Map<string, Slot>();
  /** text field -> its keyword sub-field. */
  private readonly subfields = new Map<string, string>();
  /** Whether fields not declared are mapped on first sight (Elasticsearch's `dynamic`). */
  dynamic: boolean;
  /** Declared multi-fields of any field (declared mappings: engine/declaredMapping.ts). */
  private readonly multiFields = new Map<string, MultiField[]>();
  /** Declared keyword fields' ignore_above. */
  private readonly ignoreAbove = new Map<string, number>();
  /** Declared fields that are kept in `_source` only (a type the engine does not index, `index: false`): never mapped dynamically either. */
  private readonly sourceOnly = new Set<string>();
  /** Declared date fields' `format` parsers (engine/dateFormat.ts), and the formats' text. */
  private readonly dateParsers = new Map<string, (value: unknown) => number | null>();
  /** Declared half_float and scaled_float fields: how their numbers are kept (16 bits; a long times 1 / scaling_factor). */
  private readonly numberKinds = new Map<string, NumberKind>();
  private readonly dateFormats = new Map<string, string>();
  /** Declared fields' `null_value`: what a null indexes as. */
  private readonly nullValues = new Map<string, unknown>();
  /** Declared fields' `copy_to`: the fields their values are also indexed in. */
  private readonly copyTo = new Map<string, string[]>();
  /** Declared text fields' analyzers other than the standard ones. */
  private readonly analyzers = new Map<string, FieldAnalyzers>();
  /** Declared keyword fields with `normalizer: lowercase`. */
  private readonly lowercased = new Set<string>();
  /**
   * Declared `nested` fields and whether they are also indexed in their parent (`include_in_parent`
   * or `include_in_root`): each object of their values is its own hidden document (nested/nestedDocs.ts),
   * indexed apart from the root document, whose walk skips it.
   */
  private readonly nested = new Map<string, boolean>();

  constructor(mapping: Mapping = {}) {
    for (const type of EXPLICIT_TYPES) for (const field of mapping[type] ?? []) this.declare(field, type);
    this.dynamic = mapping.dynamic !== false;
  }

  /** A copy, from now on independent of this mapping (what a single-document matcher maps a document with). */
  copy(): IndexMapping {
    const copy = new IndexMapping({ dynamic: this.dynamic });
    for (const table of PLAIN_TABLES) {
      const from = this[table];
      const to = copy[table];
      if (from instanceof Set) for (const field of from) (to as Set<string>).add(field);
      else for (const [field, value] of from) (to as Map<string, unknown>).set(field, value);
    }
    for (const [field, parse] of this.dateParsers) copy.dateParsers.set(field, parse);
    for (const [field, format] of this.dateFormats) copy.dateFormats.set(field, format);
    for (const [field, analyzers] of this.analyzers) copy.analyzers.set(field, analyzers);
    return copy;
  }

  /**
   * A field another source knows the type of (an Elasticsearch index's mapping), with its keyword
   * sub-field when it has one; fields already mapped keep their type.
   */
  learn(field: string, type: FieldType, keywordSubfield?: string): void {
    if (this.slots.has(field)) return;
    this.declare(field, type);
    if (type === 'text' && keywordSubfield !== undefined) {
      this.slots.set(keywordSubfield, 'keyword');
      this.subfields.set(field, keywordSubfield);
      this.shapeVersion++;
    }
  }

  /**
   * A field a declared mapping gives (engine/declaredMapping.ts): its type ('object' for objects,
   * null for a field kept in `_source` only), multi-fields and ignore_above. The merge rules were
   * checked before (a mapped field's type never changes); documents already indexed stay as they are.
   */
  declareField(field: string, type: FieldType | 'object' | null, multi: MultiField[] = [], ignoreAbove?: number): void {
    if (type === null) {
      this.sourceOnly.add(field);
    } else if (type === 'object') {
      if (!this.slots.has(field)) this.declare(field, 'object');
    } else {
      this.declare(field, type);
    }
    for (const m of multi) this.declare(m.path, m.type);
    if (multi.length > 0) this.multiFields.set(field, multi);
    if (ignoreAbove !== undefined) this.ignoreAbove.set(field, ignoreAbove);
    this.forgetWalkPaths();
  }

  /** A declared field's value rules: its date `format` (one the engine reads: dateFormat.ts isReadableDateFormat), its `null_value`, its `copy_to`, how a half_float or scaled_float keeps its numbers. */
  declareValueRules(field: string, rules: { dateFormat?: string; nullValue?: unknown; copyTo?: string[]; numberKind?: NumberKind }): void {
    if (rules.dateFormat !== undefined) {
      this.dateParsers.set(field, compileDateFormat(rules.dateFormat));
      this.dateFormats.set(field, rules.dateFormat);
    }
    if (rules.numberKind !== undefined) this.numberKinds.set(field, rules.numberKind);
    if (rules.copyTo !== undefined && rules.copyTo.length > 0) this.copyTo.set(field, rules.copyTo);
    if (rules.nullValue !== undefined) this.nullValues.set(field, rules.nullValue);
  }

  /**
   * A declared field's analysis: a text field's analyzers, a keyword field's `normalizer`
   * (`lowercase`: values indexed lower-cased, query terms too). The index analyzer of a field that
   * holds documents never changes (the mapping rules refuse it); the search analyzers may.
   */
  declareAnalysis(field: string, analysis: { analyzers?: FieldAnalyzers; lowercase?: boolean }): void {
    if (analysis.analyzers !== undefined) {
      if (analysis.analyzers.index === STANDARD && analysis.analyzers.search === STANDARD && analysis.analyzers.searchQuote === STANDARD) this.analyzers.delete(field);
      else this.analyzers.set(field, analysis.analyzers);
    }
    if (analysis.lowercase === true) this.lowercased.add(field);
    else if (analysis.lowercase === false) this.lowercased.delete(field);
  }

  /** A declared `nested` field (Elasticsearch's `type: nested`), also indexed in its parent with `include_in_parent`/`include_in_root`. */
  declareNested(field: string, includeInParent: boolean): void {
    if (!this.slots.has(field)) this.declare(field, 'object');
    this.nested.set(field, includeInParent);
    this.nestedChildList.clear();
    this.forgetWalkPaths();
  }

  /** Whether a field is declared `nested`. */
  isNested(field: string): boolean {
    return this.nested.size > 0 && this.nested.has(field);
  }

  /** Whether a field's values are in nested objects' documents only: inside a nested field that is not also indexed in its parent (include_in_parent), at any depth. */
  isInsideNested(path: string): boolean {
    for (let parent = this.nestedParent(path); parent !== undefined; parent = this.nestedParent(parent)) if (this.nested.get(parent) === false) return true;
    return false;
  }

  /** The nested field a path is inside of (its nearest ancestor declared `nested`, not the path itself), or undefined. */
  nestedParent(path: string): string | undefined {
    if (this.nested.size === 0) return undefined;
    for (let at = path.lastIndexOf('.'); at > 0; at = path.lastIndexOf('.', at - 1)) {
      const parent = path.slice(0, at);
      if (this.nested.has(parent)) return parent;
    }
    return undefined;
  }

  /**
   * The nested fields whose objects are documents of their own at the level of `path` (a nested
   * field; null: the root document): those whose nearest nested ancestor it is.
   */
  nestedChildren(path: string | null): readonly string[] {
    if (this.nested.size === 0) return NONE;
    let children = this.nestedChildList.get(path ?? '');
    if (children === undefined) {
      children = [];
      for (const field of this.nested.keys()) if ((this.nestedParent(field) ?? null) === path) children.push(field);
      this.nestedChildList.set(path ?? '', children);
    }
    return children;
  }
  private readonly nestedChildList = new Map<string, string[]>();

  /** A declared half_float's or scaled_float's kind (undefined for the others). */
  numberKind(field: string): NumberKind | undefined {
    return this.numberKinds.size === 0 ? undefined : this.numberKinds.get(field);
  }

  /** A number of a float or double field as the field keeps it (half_float: 16 bits; scaled_float: its long times 1 / factor); the others as they are. */
  keepNumber(field: string, value: number): number {
    const kind = this.numberKind(field);
    if (kind === undefined) return value;
    return kind.kind === 'half_float' ? toHalfFloat(value) : toScaled(value, kind.scalingFactor);
  }

  /** A text field's analyzers (the standard analyzer's unless declared otherwise). */
  analyzersOf(field: string): FieldAnalyzers {
    return this.analyzers.size === 0 ? STANDARD_ANALYZERS : (this.analyzers.get(field) ?? STANDARD_ANALYZERS);
  }

  /** Whether a keyword field's values and query terms are lower-cased (`normalizer: lowercase`). */
  isLowercased(field: string): boolean {
    return this.lowercased.size > 0 && this.lowercased.has(field);
  }

  /** A keyword term as the field's normalizer makes it (KeywordFieldMapper: values and term-level query terms alike). */
  normalizeKeyword(field: string, term: string): string {
    return this.isLowercased(field) ? lowerCase(term) : term;
  }

  /** The mapping's state for the index file (persist/): every map in its order. */
  writeState(w: StateWriter): void {
    const state: Record<string, unknown> = { dynamic: this.dynamic };
    for (const table of PLAIN_TABLES) state[table] = [...this[table]];
    state.dateFormats = [...this.dateFormats];
    state.analyzers = [...this.analyzers].map(([field, a]) => [field, [a.index.name, a.search.name, a.searchQuote.name]]);
    w.json(state);
  }

  /** A mapping as `writeState` wrote it. */
  static readState(r: StateReader): IndexMapping {
    const state = r.json<Record<PlainTable, unknown[]> & { dynamic: boolean; dateFormats: [string, string][]; analyzers: [string, [string, string, string]][] }>();
    const mapping = new IndexMapping({ dynamic: state.dynamic });
    for (const table of PLAIN_TABLES) {
      const to = mapping[table];
      if (to instanceof Set) for (const field of state[table] as string[]) to.add(field);
      else for (const [field, value] of state[table] as [string, never][]) to.set(field, value);
    }
    for (const [field, format] of state.dateFormats) mapping.declareValueRules(field, { dateFormat: format });
    for (const [field, [index, search, searchQuote]] of state.analyzers) mapping.analyzers.set(field, { index: analyzerNamed(index), search: analyzerNamed(search), searchQuote: analyzerNamed(searchQuote) });
    return mapping;
  }

  /** Elasticsearch's `dynamic` of the whole type: true maps new fields, false and strict leave them in `_source`. */
  setDynamic(dynamic: boolean): void {
    this.dynamic = dynamic;
    this.forgetWalkPaths();
  }

  /** The mapping changed: paths remembered as skipped may not be now. */
  private forgetWalkPaths(): void {
    this.shapeVersion++;
    this.walkPaths.clear();
    this.walkPathCount = 0;
  }

  private declare(field: string, type: Slot): void {
    const parts = field.split('.');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('.');
      if (!this.slots.has(parent)) this.slots.set(parent, 'object');
    }
    // (a path remembered as skipped, when new fields are not mapped dynamically, is not any more)
    if (!this.slots.has(field) && !this.dynamic) this.forgetWalkPaths();
    this.slots.set(field, type);
    this.shapeVersion++;
  }

  /** Type of an indexed field (a leaf), or undefined when unmapped or an object. */
  type(field: string): FieldType | undefined {
    const slot = this.slots.get(field);
    return slot === undefined || slot === 'object' ? undefined : slot;
  }

  isObject(field: string): boolean {
    return this.slots.get(field) === 'object';
  }

  /** Every mapped leaf field (text fields, their keyword sub-fields, ...). */
  fieldNames(): string[] {
    const names: string[] = [];
    for (const [name, slot] of this.slots) if (slot !== 'object') names.push(name);
    return names;
  }

  /** Mapped fields: objects, leaves and keyword sub-fields (what index.mapping.total_fields.limit counts). */
  get fieldCount(): number {
    return this.slots.size;
  }

  /**
   * How many fields mapping these documents would add (objects, leaves and their keyword
   * sub-fields), without mapping them: an iterative walk, stopping once past `stopAt`.
   */
  newFieldCount(sources: readonly Record<string, unknown>[], stopAt = Infinity): number {
    if (!this.dynamic) return 0;
    // (a stack in three arrays, reused from document to document: this runs before every write)
    const walk: CountWalk = { added: new Set<string>(), objects: [], prefixes: [], depths: [] };
    const { added, objects, prefixes, depths } = walk;
    for (const source of sources) {
      objects.push(source);
      prefixes.push('');
      depths.push(1);
      while (objects.length > 0 && added.size <= stopAt) {
        const obj = objects.pop() as Record<string, unknown>;
        const prefix = prefixes.pop() as string;
        const depth = depths.pop() as number;
        const shape = this.shapeAt(this.countShapes, prefix);
        let i = 0;
        // (for-in allocates nothing where it visits the own keys: forInIsOwn)
        if (forInIsOwn(obj)) for (const key in obj) this.countKey(walk, shape, i++, key, obj[key], prefix, depth);
        else for (const key of Object.keys(obj)) this.countKey(walk, shape, i++, key, obj[key], prefix, depth);
      }
      objects.length = prefixes.length = depths.length = 0;
    }
    return added.size;
  }

  /** newFieldCount's look at the `at`-th key of an object at `prefix`: the fields it would add, and its object pushed to be walked. */
  private countKey(walk: CountWalk, shape: KeyShape | undefined, at: number, key: string, value: unknown, prefix: string, depth: number): void {
    let path: string;
    let mapped: boolean;
    if (shape !== undefined && shape.has(at, key, this.shapeVersion)) {
      path = shape.paths[at];
      mapped = shape.slots[at] !== undefined;
    } else {
      path = this.countedPath(key, prefix, depth);
      const slot = path === '' ? undefined : this.slots.get(path);
      mapped = slot !== undefined;
      shape?.keep(at, key, this.shapeVersion, path, slot, undefined);
    }
    if (path === '') return;
    for (let d = 0; Array.isArray(value) && d < MAX_ARRAY_DEPTH; d++) value = firstPresent(value);
    if (value === null || value === undefined || Array.isArray(value)) return;
    const known = mapped || walk.added.has(path);
    if (isPlainObject(value)) {
      if (depth >= MAX_OBJECT_DEPTH) return;
      if (!known) walk.added.add(path);
      walk.objects.push(value);
      walk.prefixes.push(path);
      walk.depths.push(depth + 1);
    } else if (!known) {
      const type = dynamicType(value);
      if (type === null) return;
      walk.added.add(path);
      if (type === 'text') walk.added.add(`${path}.${KEYWORD_SUBFIELD}`);
    }
  }

  /** pathOf, remembered per (prefix, key) for newFieldCount (at most MAX_COUNTED_PATHS): documents repeat their keys. */
  private countedPath(key: string, prefix: string, depth: number): string {
    let paths = this.countedPaths.get(prefix);
    let path = paths?.get(key);
    if (path !== undefined) return path;
    path = pathOf(key, prefix, depth);
    if (this.countedPathCount < MAX_COUNTED_PATHS) {
      if (paths === undefined) this.countedPaths.set(prefix, (paths = new Map()));
      paths.set(key, path);
      this.countedPathCount++;
    }
    return path;
  }
  private readonly countedPaths = new Map<string, Map<string, string>>();
  private countedPathCount = 0;

  /**
   * The keys of the last object seen at each path, newFieldCount's and walk's apart, in order, with
   * their paths and slots (KeyShape): the documents of a bulk write mostly have the same keys in the
   * same order, so that the i-th key is the last object's i-th key (the same string: JSON.parse
   * interns keys) and its path, slot and keyword sub-field need no lookup in the tables above.
   * `shapeVersion` changes with every change of the slots, sub-fields or remembered paths: what a
   * shape kept under another version is looked up again.
   */
  private readonly countShapes = new Map<string, KeyShape>();
  private readonly walkShapes = new Map<string, KeyShape>();
  private shapeVersion = 0;

  /** The shape kept for objects at `prefix` (at most MAX_SHAPES of them; undefined past that). */
  private shapeAt(shapes: Map<string, KeyShape>, prefix: string): KeyShape | undefined {
    let shape = shapes.get(prefix);
    if (shape === undefined && shapes.size < MAX_SHAPES) shapes.set(prefix, (shape = new KeyShape()));
    return shape;
  }

  /** Break a document into fields, mapping new fields on the way. */
  parse(source: Record<string, unknown>): ParsedDoc {
    const out: ParsedDoc = new Map();
    this.walk(source, (field, type, value) => add(out, field, type, value));
    return out;
  }

  /** Visit the indexed values of a document in document order (what `parse` groups by field), mapping new fields on the way. */
  walk(source: Record<string, unknown>, sink: ValueSink): void {
    this.walkObject(source, '', sink, 1);
  }

  /**
   * Visit the indexed values of one object of a nested field (`path`): its fields named under the
   * path (`parts.name`), as a document of their own (nested/nestedDocs.ts).
   */
  walkNested(object: Record<string, unknown>, path: string, sink: ValueSink): void {
    this.walkObject(object, path, sink, path.split('.').length + 1);
  }

  /**
   * Per object path ('' for the top level), key -> its field path ('' for keys that are skipped): the
   * same keys come with every document, and a path remembered is the same string object each time
   * (no concatenation, its hash kept for the lookups that follow). At most MAX_COUNTED_PATHS.
   */
  private readonly walkPaths = new Map<string, Map<string, string>>();
  private walkPathCount = 0;

  private walkObject(obj: Record<string, unknown>, prefix: string, out: ValueSink, depth: number): void {
    const shape = this.shapeAt(this.walkShapes, prefix);
    let i = 0;
    // (for-in allocates nothing where it visits the own keys: forInIsOwn)
    if (forInIsOwn(obj)) for (const key in obj) this.walkKey(shape, i++, key, obj[key], prefix, out, depth);
    else for (const key of Object.keys(obj)) this.walkKey(shape, i++, key, obj[key], prefix, out, depth);
  }

  /** walkObject's visit of the `at`-th key's value: its path, slot and sub-field from `shape` when it is the key there, else looked up (and kept there). */
  private walkKey(shape: KeyShape | undefined, at: number, key: string, value: unknown, prefix: string, out: ValueSink, depth: number): void {
    if (shape !== undefined && shape.has(at, key, this.shapeVersion)) {
      const path = shape.paths[at];
      if (path !== '') this.visit(path, value, out, depth, 0, shape.slots[at], shape.subfields[at]);
      return;
    }
    const path = this.walkPath(key, prefix, depth);
    const slot = path === '' ? undefined : this.slots.get(path);
    const sub = slot === 'text' ? (this.subfields.get(path) ?? null) : undefined;
    shape?.keep(at, key, this.shapeVersion, path, slot, sub);
    if (path !== '') this.visit(path, value, out, depth, 0, slot, sub);
  }

  /** The path of a key under `prefix` for walk ('' for a key skipped), remembered per prefix (at most MAX_COUNTED_PATHS). */
  private walkPath(key: string, prefix: string, depth: number): string {
    let paths = this.walkPaths.get(prefix);
    if (paths === undefined && this.walkPathCount < MAX_COUNTED_PATHS) this.walkPaths.set(prefix, (paths = new Map()));
    let path = paths?.get(key);
    if (path === undefined) {
      path = pathOf(key, prefix, depth);
      // without dynamic mapping, a key that is not mapped now never will be: skipped from now on
      if (!this.dynamic && path !== '' && !this.slots.has(path)) path = '';
      if (paths !== undefined && this.walkPathCount < MAX_COUNTED_PATHS) {
        paths.set(key, path);
        this.walkPathCount++;
      }
    }
    return path;
  }

  /**
   * One value at `path`: its values to `out`, its objects walked. `slot` and `sub` (a text field's
   * keyword sub-field, null for none), when the caller knows them; else looked up.
   */
  private visit(path: string, value: unknown, out: ValueSink, depth: number, arrayDepth: number, slot: Slot | undefined = this.slots.get(path), sub?: string | null): void {
    if (value === null && this.nullValues.size > 0 && this.nullValues.has(path)) value = this.nullValues.get(path);
    if (value === null || value === undefined) return;
    if (this.sourceOnly.size > 0 && this.sourceOnly.has(path)) return;
    // a nested field's objects are documents of their own (walkNested), not its parent's (unless include_in_parent)
    if (this.nested.size > 0 && this.nested.get(path) === false) return;
    if (Array.isArray(value)) {
      if (arrayDepth >= MAX_ARRAY_DEPTH) return;
      // (an element that maps the field leaves `slot` undefined for the next: looked up again)
      for (const element of value) this.visit(path, element, out, depth, arrayDepth + 1, slot, sub);
      return;
    }
    if (isPlainObject(value)) {
      if (depth >= MAX_OBJECT_DEPTH) return; // Elasticsearch would reject the document
      if (slot !== undefined && slot !== 'object') return; // an object where a value was mapped
      if (slot === undefined) {
        if (!this.dynamic) return; // an unmapped object: in _source only
        this.slots.set(path, 'object'); // its parents are objects already
        this.shapeVersion++;
      }
      this.walkObject(value, path, out, depth + 1);
      return;
    }
    if (slot === 'object') return; // a value where an object was mapped
    if (slot === undefined) {
      if (!this.dynamic) return; // an unmapped field: in _source only
      const type = dynamicType(value);
      if (type === null) return;
      this.declare(path, type);
      if (type === 'text') {
        const sub = `${path}.${KEYWORD_SUBFIELD}`;
        this.slots.set(sub, 'keyword');
        this.subfields.set(path, sub);
      }
      slot = type;
    }
    const parseDate = slot === 'date' && this.dateParsers.size > 0 ? this.dateParsers.get(path) : undefined;
    let coerced = parseDate !== undefined ? parseDate(value) : coerce(slot, value);
    if (coerced === null) return;
    if (this.numberKinds.size > 0 && isFloating(slot)) coerced = this.keepNumber(path, coerced as number);
    if (slot === 'keyword' && this.lowercased.size > 0 && this.lowercased.has(path)) coerced = lowerCase(coerced as string);
    if (this.multiFields.size > 0 || this.ignoreAbove.size > 0) this.declaredExtras(path, slot, value, coerced, out);
    else out(path, slot, coerced);
    if (this.copyTo.size > 0 && this.copyTo.has(path)) this.copyValue(path, value, out);
    if (slot !== 'text') return;
    const keyword = sub === undefined ? this.subfields.get(path) : sub;
    if (typeof keyword === 'string' && typeof coerced === 'string' && coerced.length <= IGNORE_ABOVE) out(keyword, 'keyword', coerced);
  }

  /** copy_to: the value indexed again in each target field, as that field's type takes it (a target not mapped yet is mapped as dynamic mapping would). */
  private copyValue(path: string, value: unknown, out: ValueSink): void {
    for (const target of this.copyTo.get(path) ?? []) {
      let slot = this.slots.get(target);
      if (slot === undefined) {
        const type = dynamicType(value);
        if (type === null || !this.dynamic) continue;
        this.declare(target, type);
        slot = type;
      }
      if (slot === 'object') continue;
      const c = coerce(slot, value);
      if (c !== null) out(target, slot, slot === 'keyword' ? this.normalizeKeyword(target, c as string) : isFloating(slot) ? this.keepNumber(target, c as number) : c);
    }
  }

  /** A value of a field with declared extras: ignore_above, then its multi-fields. */
  private declaredExtras(path: string, slot: FieldType, value: unknown, coerced: string | number | boolean, out: ValueSink): void {
    const limit = this.ignoreAbove.get(path);
    if (!(limit !== undefined && typeof coerced === 'string' && coerced.length > limit)) out(path, slot, coerced);
    for (const m of this.multiFields.get(path) ?? []) {
      const c = coerce(m.type, value);
      if (c === null || (m.ignoreAbove !== undefined && typeof c === 'string' && c.length > m.ignoreAbove)) continue;
      out(m.path, m.type, m.type === 'keyword' ? this.normalizeKeyword(m.path, c as string) : isFloating(m.type) ? this.keepNumber(m.path, c as number) : c);
    }
  }
}

/** newFieldCount's state: the paths it would add, and its stack of objects still to walk (three arrays). */
interface CountWalk {
  added: Set<string>;
  objects: Record<string, unknown>[];
  prefixes: string[];
  depths: number[];
}

const NONE: readonly string[] = [];

/** Paths whose objects' key shapes are kept (IndexMapping.shapeAt), and keys kept per shape. */
const MAX_SHAPES = 1_000;
const MAX_SHAPE_KEYS = 256;

/**
 * The keys of the last object a walk saw at one path, in order, each with its path ('' for a key
 * skipped), slot and, for a text field, keyword sub-field (null: none), as of one version of the
 * mapping (IndexMapping.walkShapes).
 */
class KeyShape {
  readonly keys: string[] = [];
  readonly paths: string[] = [];
  readonly slots: (Slot | undefined)[] = [];
  readonly subfields: (string | null | undefined)[] = [];
  private version = -1;

  /** Whether the `at`-th key kept is `key`, under this version of the mapping. */
  has(at: number, key: string, version: number): boolean {
    return at < this.keys.length && this.keys[at] === key && this.version === version;
  }

  /** Keeps the `at`-th key (what was kept under another version is dropped; keys are kept from the first on, without gaps). */
  keep(at: number, key: string, version: number, path: string, slot: Slot | undefined, sub: string | null | undefined): void {
    if (version !== this.version) {
      this.keys.length = this.paths.length = this.slots.length = this.subfields.length = 0;
      this.version = version;
    }
    if (at > this.keys.length || at >= MAX_SHAPE_KEYS) return;
    this.keys[at] = key;
    this.paths[at] = path;
    this.slots[at] = slot;
    this.subfields[at] = sub;
  }
}

/** The field path of a key under `prefix`, or '' when the key is skipped. */
/** The first element that is neither null nor undefined (Array.prototype.find without a closure). */
function firstPresent(values: unknown[]): unknown {
  for (let i = 0; i < values.length; i++) if (values[i] !== null && values[i] !== undefined) return values[i];
  return undefined;
}

function pathOf(key: string, prefix: string, depth: number): string {
  if (key === '' || (depth === 1 && METADATA_FIELDS.has(key))) return '';
  // dotted keys are paths ({"a.b": 1} is {"a": {"b": 1}}); empty path components are skipped
  const path = key.includes('.') ? joinPath(prefix, key.split('.').filter((p) => p !== '').join('.')) : joinPath(prefix, key);
  return path === prefix ? '' : path;
}

function joinPath(prefix: string, key: string): string {
  return prefix === '' ? key : key === '' ? prefix : `${prefix}.${key}`;
}

function add(out: ParsedDoc, field: string, type: FieldType, value: string | number | boolean): void {
  const entry = out.get(field);
  if (entry === undefined) out.set(field, { type, values: [value] });
  else entry.values.push(value);
}

/** The type dynamic mapping gives a new field for its first value (null: no mapping, e.g. a function). */
export function dynamicType(value: unknown): FieldType | null {
  switch (typeof value) {
    case 'string':
      return isDateString(value) ? 'date' : 'text';
    case 'number':
      if (!Number.isFinite(value)) return null;
      return Number.isInteger(value) ? 'long' : 'float';
    case 'boolean':
      return 'boolean';
    default:
      return null;
  }
}

/** A document value coerced to a field type, or null when it is not a value of that type. */
export function coerce(type: FieldType, value: unknown): string | number | boolean | null {
  switch (type) {
    case 'text':
      return toText(value);
    case 'keyword':
      return toKeyword(value);
    case 'long':
      return toLong(value);
    case 'float':
      return toFloat(value);
    case 'double':
      return toDouble(value);
    case 'date':
      return toDate(value);
    case 'boolean':
      return toBoolean(value);
  }
}
