/**
 * `collapse` (Elasticsearch's CollapseBuilder and CollapsingTopDocsCollector): one hit per value of
 * a keyword or numeric field, the best of its group in the search's order (score, or `sort`), the
 * groups in the order of their best hits; the hit carries the value in `fields`. `inner_hits` (one
 * object or a list: `name`, `size` default 3, `from`, `sort`, `_source`) gives each group's hits,
 * as the ExpandSearchPhase's query for the group would find them: the search's matches (query,
 * caller's filter, post_filter) holding that value, with their scores. A document without the
 * field is in the group of null (the ExpandSearchPhase's "must not exist"); one with two values is
 * refused, as Elasticsearch does. `total` stays the number of matching documents.
 */
import { InvalidQueryError } from '../../port';
import { FieldIndex } from './fieldIndex';
import { floatToJson } from './fieldValues';
import { describe, hasOwn, isPlainObject, quote } from './json';
import { IndexMapping } from './mapping';
import { SortClause, parseSort } from './sort';
import { SourceFilter, parseSourceFilter } from './source';
import type { Highlight } from './highlight/options';

export interface InnerHitsRequest {
  name: string;
  from: number;
  size: number;
  sort: SortClause[] | null;
  source: SourceFilter | null;
  /** A nested query's inner hits' `highlight` (nested/innerHits.ts). */
  highlight?: Highlight;
}

export interface CollapseRequest {
  field: string;
  innerHits: InnerHitsRequest[];
}

const INNER_HITS_KEYS = ['name', 'from', 'size', 'sort', '_source'];
/** Elasticsearch's index.max_inner_result_window. */
export const MAX_INNER_RESULT_WINDOW = 100;

function count(value: unknown, where: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new InvalidQueryError(`${where} must be a non-negative integer, got ${describe(value)}`);
  return value;
}

/** One `inner_hits` definition (collapse's, nested's): `name` (default `defaultName`), `from`, `size` (3), `sort`, `_source`. */
export function parseInnerHits(value: unknown, defaultName: string, where: string): InnerHitsRequest {
  const field = defaultName;
  if (!isPlainObject(value)) throw new InvalidQueryError(`${where} must be an object, got ${describe(value)}`);
  for (const key of Object.keys(value)) {
    if (!INNER_HITS_KEYS.includes(key)) throw new InvalidQueryError(`unsupported inner_hits parameter ${quote(key)} at ${where} (supported: ${INNER_HITS_KEYS.join(', ')})`);
  }
  if (value.name !== undefined && (typeof value.name !== 'string' || value.name === '')) throw new InvalidQueryError(`${where}.name must be a non-empty string, got ${describe(value.name)}`);
  const from = count(value.from, `${where}.from`, 0);
  const size = count(value.size, `${where}.size`, 3);
  if (from + size > MAX_INNER_RESULT_WINDOW) {
    throw new InvalidQueryError(`Inner result window is too large, the inner hit definition's [${typeof value.name === 'string' ? value.name : field}]'s from + size must be less than or equal to: [${MAX_INNER_RESULT_WINDOW}] but was [${from + size}]`);
  }
  const source = parseSourceFilter(value._source);
  return { name: typeof value.name === 'string' ? value.name : field, from, size, sort: parseSort(value.sort), source: source.enabled ? source : null };
}

/** The request's `collapse`, checked for its shape (the field's type is checked against the mapping: checkCollapseField). */
export function parseCollapse(value: unknown): CollapseRequest | null {
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) throw new InvalidQueryError(`collapse must be an object {field, inner_hits}, got ${describe(value)}`);
  for (const key of Object.keys(value)) {
    if (key !== 'field' && key !== 'inner_hits') throw new InvalidQueryError(`unsupported collapse parameter ${quote(key)} (supported: field, inner_hits)`);
  }
  if (typeof value.field !== 'string' || value.field === '') throw new InvalidQueryError(`collapse.field must be a field name, got ${describe(value.field)}`);
  const field = value.field;
  const list = !hasOwn(value, 'inner_hits') ? [] : Array.isArray(value.inner_hits) ? value.inner_hits : [value.inner_hits];
  const requests = list.map((item, i) => parseInnerHits(item, field, Array.isArray(value.inner_hits) ? `collapse.inner_hits[${i}]` : 'collapse.inner_hits'));
  const names = new Set<string>();
  for (const r of requests) {
    if (names.has(r.name)) throw new InvalidQueryError(`[inner_hits] already contains an entry for key [${r.name}]`);
    names.add(r.name);
  }
  return { field, innerHits: requests };
}

/** Refuses a field that cannot be collapsed on (unmapped, text, boolean), with Elasticsearch's reasons. */
export function checkCollapseField(request: CollapseRequest, mapping: IndexMapping): void {
  const type = mapping.type(request.field);
  if (type === undefined) throw new InvalidQueryError(`no mapping found for \`${request.field}\` in order to collapse on`);
  if (type !== 'keyword' && type !== 'long' && type !== 'float' && type !== 'double' && type !== 'date') {
    throw new InvalidQueryError(`collapse is not supported for the field [${request.field}] of the type [${type}]`);
  }
}

export type GroupKey = string | number | null;

/** Reads a document's collapse value from the field's index. */
export function collapseKeyReader(field: string, index: FieldIndex | undefined): (doc: number) => GroupKey {
  const single = (n: number) => {
    if (n > 1) throw new InvalidQueryError(`failed to collapse ${field}, the collapse field must be single valued`);
  };
  if (index === undefined) return () => null;
  if (index.type === 'keyword') {
    const tokens = index.tokens;
    return (doc) => {
      if (!index.present.has(doc) || tokens === null) return null;
      single(tokens.count(doc));
      return index.keywordValue(doc, false) ?? null;
    };
  }
  const values = index.values;
  return (doc) => {
    if (!index.present.has(doc) || values === null || values.count(doc) === 0) return null;
    single(values.count(doc));
    return values.entries[values.from(doc)];
  };
}

/** The collapse value as the hit's `fields` give it. */
export function collapseValue(key: GroupKey, type: string | undefined): unknown {
  return typeof key === 'number' && type === 'float' ? floatToJson(key) : key;
}

/** A group: its value, its best hit, and its members (positions in the matches' list, ascending). */
export interface Group<H extends { doc: number }> {
  key: GroupKey;
  best: H;
  members: number[];
}

/**
 * Groups the matches by collapse value (CollapsingTopDocsCollector), each group's best hit the
 * first in `compare` order (ties: the earlier document), the groups in the order of their best.
 * `hitAt` makes the hit of a position (its score and sort keys), null when it is not to be kept
 * (search_after).
 */
export function* collapseSteps<H extends { doc: number }>(
  docs: Int32Array,
  size: number,
  keyOf: (doc: number) => GroupKey,
  hitAt: (position: number) => H | null,
  compare: (a: H, b: H) => number,
  due: () => boolean,
): Generator<void, Group<H>[], void> {
  const groups = new Map<GroupKey, Group<H>>();
  for (let i = 0; i < size; i++) {
    if ((i & 1023) === 1023 && due()) yield;
    const hit = hitAt(i);
    if (hit === null) continue;
    const key = keyOf(docs[i]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { key, best: hit, members: [i] });
    else {
      group.members.push(i);
      if (compare(hit, group.best) < 0) group.best = hit;
    }
  }
  const out = [...groups.values()];
  out.sort((a, b) => compare(a.best, b.best) || a.best.doc - b.best.doc);
  return out;
}
