/**
 * `field_value_factor` (Elasticsearch's FieldValueFactorFunction): `modifier(value * factor)` of a
 * numeric, date or boolean field's first (smallest) value, `missing` when the document has none:
 * `{"field_value_factor": {"field": "likes", "factor": 1.2, "modifier": "log1p", "missing": 1}}`.
 * A document without a value and no `missing`, or a negative result, is refused (400), as
 * Elasticsearch refuses it.
 */
import { InvalidQueryError } from '../../../port';
import { hasOwn } from '../json';
import { InvertedIndex } from '../invertedIndex';
import { boundSlack } from '../lucene/functionScore';
import { ScoreFunction } from '../lucene/query';
import { BuildContext } from './context';
import { at, checkParams, invalid, objectBody, readEnum, readNumber, readString } from './params';

export const MODIFIERS = ['none', 'log', 'log1p', 'log2p', 'ln', 'ln1p', 'ln2p', 'square', 'sqrt', 'reciprocal'] as const;
export type Modifier = (typeof MODIFIERS)[number];

/** FieldValueFactorFunction.Modifier.apply. */
export function applyModifier(modifier: Modifier, n: number): number {
  switch (modifier) {
    case 'none':
      return n;
    case 'log':
      return Math.log10(n);
    case 'log1p':
      return Math.log10(n + 1);
    case 'log2p':
      return Math.log10(n + 2);
    case 'ln':
      return Math.log(n);
    case 'ln1p':
      return Math.log1p(n);
    case 'ln2p':
      return Math.log1p(n + 1);
    case 'square':
      return Math.pow(n, 2);
    case 'sqrt':
      return Math.sqrt(n);
    case 'reciprocal':
      return 1.0 / n;
  }
}

/** Types whose values are numbers per document (doc values Elasticsearch reads as doubles). */
const NUMERIC = new Set(['long', 'float', 'double', 'date', 'boolean']);

export interface FieldValueFactorSpec {
  readonly field: string;
  /** A float. */
  readonly factor: number;
  readonly modifier: Modifier;
  readonly missing: number | null;
}

export function parseFieldValueFactor(body: unknown, path: string): FieldValueFactorSpec {
  const obj = objectBody('field_value_factor', body, path);
  checkParams('field_value_factor', obj, ['field', 'factor', 'modifier', 'missing'], path);
  if (!hasOwn(obj, 'field')) throw invalid(`[field_value_factor] at ${path} requires a "field"`);
  return {
    field: readString('field_value_factor', 'field', obj.field, at(path, 'field')),
    factor: hasOwn(obj, 'factor') ? Math.fround(readNumber('field_value_factor', 'factor', obj.factor, at(path, 'factor'))) : 1,
    modifier: hasOwn(obj, 'modifier') ? readEnum('field_value_factor', 'modifier', obj.modifier, MODIFIERS, at(path, 'modifier')) : 'none',
    missing: hasOwn(obj, 'missing') ? readNumber('field_value_factor', 'missing', obj.missing, at(path, 'missing')) : null,
  };
}

/** FieldValueFactorFunctionBuilder.doToFunction: the function against the mapping. */
export function fieldValueFactor(spec: FieldValueFactorSpec, ctx: BuildContext, path: string): Omit<ScoreFunction, 'filter' | 'weight'> {
  const type = ctx.mapping.type(spec.field);
  if (type === undefined && spec.missing === null) throw invalid(`[field_value_factor] at ${path}: unable to find a field mapper for field [${spec.field}], and no "missing" value defined`);
  if (type !== undefined && !NUMERIC.has(type)) throw invalid(`[field_value_factor] at ${path}: field [${spec.field}] of type [${type}] is not numeric`);
  const { field, factor, modifier, missing } = spec;
  const key = `fvf${JSON.stringify([field, factor, modifier, missing])}`;
  const text = `field value function: ${modifier === 'none' ? '' : modifier}(doc['${field}'].value${missing === null ? '' : `?:${missing}`} * factor=${factor})`;
  return {
    key,
    text,
    bind(index: InvertedIndex) {
      const values = type === undefined ? null : (index.field(field)?.values ?? null);
      return (doc) => {
        let value: number;
        if (values !== null && values.count(doc) > 0) value = values.entries[values.from(doc)];
        else if (missing !== null) value = missing;
        else throw new InvalidQueryError(`[field_value_factor] missing value for field [${field}] in document ${JSON.stringify(index.idOfDoc(doc))} (give "missing")`);
        const result = applyModifier(modifier, value * factor);
        if (result < 0) {
          const hint = modifier === 'ln' ? '; consider using ln1p or ln2p instead of ln to avoid negative scores' : modifier === 'log' ? '; consider using log1p or log2p instead of log to avoid negative scores' : '';
          throw new InvalidQueryError(`field value function must not produce negative scores, but got: [${result}] for field value: [${value}]${hint}`);
        }
        return result;
      };
    },
    maxFactor(index: InvertedIndex) {
      // the modifiers are monotonic on each side of 0 (square: its largest at an end): the largest
      // factor is at an end of the values' range, or is the missing value's
      const fieldIndex = type === undefined ? undefined : index.field(field);
      const range = fieldIndex?.valueRange() ?? null;
      const ends: number[] = range === null ? [] : [range[0], range[1]];
      if (fieldIndex === undefined || fieldIndex.docCount < index.size) {
        if (missing === null) return null; // a document without a value is refused
        ends.push(missing);
      }
      if (modifier === 'reciprocal' && range !== null && range[0] * factor <= 0 && range[1] * factor >= 0) return null; // 1/0 within the range
      let max = 0;
      for (const value of ends) {
        const result = applyModifier(modifier, value * factor);
        if (!(result >= 0) || !Number.isFinite(result)) return null; // refused, or NaN
        max = Math.max(max, result);
      }
      return boundSlack(max);
    },
  };
}
