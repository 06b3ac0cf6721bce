/**
 * The constant-score leaf queries (what Elasticsearch builds for numeric and date terms and ranges,
 * `terms`, `ids`, `prefix`, `wildcard`, `exists`, term ranges and case-insensitive terms). Each reads
 * the field's index: points for numbers, the term dictionary for strings (never every document).
 */
import { InvertedIndex } from '../invertedIndex';
import { LQuery, leaf, matchNone } from '../lucene/query';
import { compareUtf8 } from '../strings';

/** Numbers within [lower, upper] (each bound inclusive or not; null: unbounded). */
export interface NumericRange {
  lower: number | null;
  includeLower: boolean;
  upper: number | null;
  includeUpper: boolean;
}

export function inRange(value: number, range: NumericRange): boolean {
  if (range.lower !== null && (range.includeLower ? value < range.lower : value <= range.lower)) return false;
  if (range.upper !== null && (range.includeUpper ? value > range.upper : value >= range.upper)) return false;
  return true;
}

function* union(sets: Iterable<Iterable<number> | undefined>): Iterable<number> {
  const seen = new Set<number>();
  for (const set of sets) {
    if (set === undefined) continue;
    for (const doc of set) {
      if (!seen.has(doc)) {
        seen.add(doc);
        yield doc;
      }
    }
  }
}

/** Documents with a numeric value equal to `value` (LongPoint/FloatPoint exact query). */
export function pointEquals(field: string, value: number): LQuery {
  return leaf(`point:${JSON.stringify([field, value])}`, (index) => index.field(field)?.pointDocs(value) ?? []);
}

/** Documents with a numeric value in a range (point range query). */
export function pointRange(field: string, range: NumericRange): LQuery {
  if (range.lower !== null && range.upper !== null && (range.lower > range.upper || (range.lower === range.upper && !(range.includeLower && range.includeUpper)))) {
    return matchNone('empty range');
  }
  const key = `range:${JSON.stringify([field, range.lower, range.includeLower, range.upper, range.includeUpper])}`;
  return leaf(key, (index) => {
    const points = index.field(field)?.points;
    if (points === undefined) return [];
    const matching: Set<number>[] = [];
    for (const [value, docs] of points) if (inRange(value, range)) matching.push(docs);
    return union(matching);
  });
}

/** Documents having any of the terms (TermInSetQuery). */
export function termsIn(field: string, terms: readonly string[]): LQuery {
  const distinct = [...new Set(terms)].sort(compareUtf8);
  if (distinct.length === 0) return matchNone('no terms');
  return leaf(`terms:${JSON.stringify([field, distinct])}`, (index) => {
    const f = index.field(field);
    if (f === undefined) return [];
    return union(distinct.map((t) => f.postings(t)?.keys()));
  });
}

/** Documents having a term accepted by a predicate (prefix, wildcard, term range, case-insensitive term). */
export function termsMatching(field: string, key: string, accept: (term: string) => boolean): LQuery {
  return leaf(`${key}:${JSON.stringify(field)}`, (index) => {
    const f = index.field(field);
    if (f === undefined) return [];
    const lists = [];
    for (const [term, postings] of f.terms) if (accept(term)) lists.push(postings.keys());
    return union(lists);
  });
}

/** Term range over strings in UTF-8 order (TermRangeQuery). */
export function termRange(field: string, lower: string | null, includeLower: boolean, upper: string | null, includeUpper: boolean): LQuery {
  const key = `termRange:${JSON.stringify([lower, includeLower, upper, includeUpper])}`;
  return termsMatching(field, key, (term) => {
    if (lower !== null) {
      const c = compareUtf8(term, lower);
      if (includeLower ? c < 0 : c <= 0) return false;
    }
    if (upper !== null) {
      const c = compareUtf8(term, upper);
      if (includeUpper ? c > 0 : c >= 0) return false;
    }
    return true;
  });
}

/** Documents by `_id`. */
export function idsIn(ids: readonly string[]): LQuery {
  const distinct = [...new Set(ids)].sort(compareUtf8);
  if (distinct.length === 0) return matchNone('no ids');
  return leaf(`ids:${JSON.stringify(distinct)}`, (index: InvertedIndex) => {
    const docs: number[] = [];
    for (const id of distinct) {
      const doc = index.ids.get(id);
      if (doc !== undefined) docs.push(doc);
    }
    return docs;
  });
}

/** Documents where a field has a value (FieldExistsQuery). */
export function fieldExists(field: string): LQuery {
  return leaf(`exists:${JSON.stringify(field)}`, (index) => index.field(field)?.present ?? []);
}
