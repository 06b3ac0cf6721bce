/**
 * What a query value means for a field of each type: MappedFieldType.termQuery and friends.
 *
 * - text, keyword: a BM25-scored TermQuery on the value as given (not analyzed: `term` on a text
 *   field must name the lowercased token), a keyword field's `normalizer` applied to it
 *   (KeywordFieldType.indexedValueForSearch);
 * - boolean: a scored TermQuery on the indexed "T" or "F";
 * - long, float: a constant-score point query (a long with a decimal part matches nothing);
 * - date: a constant-score range over the value's date math, the upper bound rounded up
 *   (`"2024-01-05"` matches the whole day, as Elasticsearch's DateFieldType.termQuery does);
 * - `_id`: an ids query; an unmapped field (or an object): matches nothing.
 */
import { InvalidQueryError } from '../../../port';
import { parseDateMath } from '../dates';
import { booleanTerm, toBoolean, toDouble, toFloat, toText, LONG_LIMIT } from '../fieldValues';
import { describe } from '../json';
import { disjunction } from '../lucene/combine';
import { fromIterable } from '../lucene/docSets';
import { LQuery, LeafQuery, matchNone, setLeaf, termQuery } from '../lucene/query';
import { FieldType } from '../mapping';
import { BuildContext } from './context';
import { compileCaseInsensitiveTerm } from '../automaton';
import { atOnce, lazyAutomaton } from './patternCache';
import { idsIn, pointEquals, pointRange, termsAccepted, termsIn } from './leaves';
import { invalid } from './params';

export const ID_FIELD = '_id';

export type ResolvedType = FieldType | 'id' | undefined;

export function fieldType(ctx: BuildContext, field: string): ResolvedType {
  return field === ID_FIELD ? 'id' : ctx.mapping.type(field);
}

function typeError(field: string, type: string, value: unknown, where: string): InvalidQueryError {
  return invalid(`failed to create query: ${describe(value)} is not a valid ${type} value for field ${JSON.stringify(field)} at ${where}`);
}

/** A long term: null when it has a decimal part (matches nothing). */
export function longTerm(field: string, value: unknown, where: string): number | null {
  const d = toDouble(value);
  if (d === null) throw typeError(field, 'long', value, where);
  if (d < -LONG_LIMIT || d > LONG_LIMIT) throw invalid(`value ${describe(value)} is out of range for a long at ${where}`);
  return Number.isInteger(d) ? d + 0 : null;
}

export function floatTerm(field: string, value: unknown, where: string): number {
  const v = toFloat(value);
  if (v === null) throw typeError(field, 'float', value, where);
  return v;
}

export function booleanValue(field: string, value: unknown, where: string): boolean {
  const b = toBoolean(value);
  if (b === null) throw invalid(`failed to create query: can't parse boolean value ${describe(value)} for field ${JSON.stringify(field)}, expected true or false, at ${where}`);
  return b;
}

/** Epoch millis of a date value (a number is epoch millis), with date math and optional rounding up. */
export function dateBound(ctx: BuildContext, value: unknown, roundUp: boolean, where: string): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(`failed to create query: ${describe(value)} is not a date at ${where}`);
    return Math.trunc(value);
  }
  if (typeof value !== 'string') throw invalid(`failed to create query: ${describe(value)} is not a date at ${where}`);
  return parseDateMath(value, { now: ctx.now, roundUp, where });
}

function stringTerm(value: unknown, where: string): string {
  const text = toText(value);
  if (text === null) throw invalid(`a term at ${where} must be a string, a number or a boolean, got ${describe(value)}`);
  return text;
}

/** The query for one exact value on a field (term query, and match on non-text fields). */
export function exactQuery(ctx: BuildContext, field: string, value: unknown, where: string, caseInsensitive = false): LQuery {
  const type = fieldType(ctx, field);
  if (caseInsensitive && type !== undefined && type !== 'text' && type !== 'keyword' && type !== 'boolean') {
    throw invalid(`field ${JSON.stringify(field)} of type [${type === 'id' ? '_id' : type}] does not support case insensitive term queries (at ${where})`);
  }
  switch (type) {
    case undefined:
      return matchNone(`unmapped field ${field}`);
    case 'id':
      return idsIn([stringTerm(value, where)]);
    case 'text':
    case 'keyword': {
      const term = type === 'keyword' ? ctx.mapping.normalizeKeyword(field, stringTerm(value, where)) : stringTerm(value, where);
      if (!caseInsensitive) return termQuery(field, term);
      // AutomatonQueries.caseInsensitiveTermQuery: ASCII letters in either case
      const key = `caseInsensitiveTerm:${JSON.stringify(term)}`;
      return termsAccepted(field, key, lazyAutomaton(key, () => atOnce(() => compileCaseInsensitiveTerm(term))));
    }
    case 'boolean': {
      const term = booleanTerm(booleanValue(field, value, where));
      return caseInsensitive ? termsIn(field, [term]) : termQuery(field, term);
    }
    case 'long': {
      const v = longTerm(field, value, where);
      return v === null ? matchNone(`value ${String(value)} has a decimal part`) : pointEquals(field, v);
    }
    case 'float':
      // a half_float's term is rounded as its values are (HalfFloatPoint.newExactQuery)
      return pointEquals(field, ctx.mapping.keepNumber(field, floatTerm(field, value, where)));
    case 'double': {
      // a scaled_float's term is its long, Math.round(value * scaling_factor) (ScaledFloatFieldMapper.termQuery)
      const v = toDouble(value);
      if (v === null) throw typeError(field, 'double', value, where);
      return pointEquals(field, ctx.mapping.keepNumber(field, v));
    }
    case 'date': {
      const lower = dateBound(ctx, value, false, where);
      const upper = dateBound(ctx, value, true, where);
      return pointRange(field, { lower, includeLower: true, upper, includeUpper: true });
    }
  }
}

/** The `terms` query on a field: constant score, any of the values. */
export function anyOfQuery(ctx: BuildContext, field: string, values: readonly unknown[], where: string): LQuery {
  const type = fieldType(ctx, field);
  switch (type) {
    case undefined:
      return matchNone(`unmapped field ${field}`);
    case 'id':
      return idsIn(values.map((v, i) => stringTerm(v, `${where}[${i}]`)));
    case 'text':
    case 'keyword':
      return termsIn(
        field,
        values.map((v, i) => {
          const term = toText(v) ?? stringTerm(v, `${where}[${i}]`);
          return type === 'keyword' ? ctx.mapping.normalizeKeyword(field, term) : term;
        }),
      );
    case 'boolean':
      return termsIn(
        field,
        values.map((v, i) => booleanTerm(booleanValue(field, v, `${where}[${i}]`))),
      );
    default: {
      const parts = values.map((v, i) => exactQuery(ctx, field, v, `${where}[${i}]`));
      const live = parts.filter((p) => p.type !== 'matchNone');
      if (live.length === 0) return matchNone('no values');
      return termsUnion(field, live);
    }
  }
}

/** Numeric `terms`: the union of the exact point queries, as one constant-score leaf. */
function termsUnion(field: string, parts: LQuery[]): LQuery {
  if (parts.length === 1) return parts[0];
  const leaves = parts.filter((p): p is LeafQuery => p.type === 'leaf');
  const key = `pointSet:${JSON.stringify(field)}:${leaves.map((p) => p.key).join('|')}`;
  return setLeaf(key, (index, fromDoc) => {
    const sets = leaves.map((p) => (p.docSet === undefined ? fromIterable(p.docs(index), fromDoc) : p.docSet(index, fromDoc)));
    return sets.length === 1 ? sets[0] : disjunction(sets, 1, false);
  });
}
