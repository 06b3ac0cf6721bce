/**
 * The single-value metrics (Elasticsearch's InternalMin, InternalMax, InternalAvg, InternalSum,
 * InternalValueCount): `{"value": ...}`, with `value_as_string` for dates (in `format`, else the
 * field's) and booleans. `min`, `max` and `avg` answer null over no values; `sum` answers 0 (Kahan
 * summation, as Elasticsearch's CompensatedSum); `value_count` counts values (a keyword's distinct
 * terms per document, every number of a multi-valued numeric field). Parameters: `field`, `missing`,
 * `format` (dates). min, max, avg and sum read numeric, date and boolean fields; value_count reads
 * keywords too.
 */
import { Steps } from '../budget/budget';
import { moments } from './metricValues';
import { aggBody, at, readField, readFormat, readMissing } from './params';
import { checkpoint } from './run';
import { AggContext, AggResult, Aggregator, DocSet } from './types';
import { Accepts, fieldValues, missingValue, valuePrinter } from './values';

export type ValueMetric = 'min' | 'max' | 'avg' | 'sum' | 'value_count';

const NUMERIC: readonly Accepts[] = ['numeric', 'date', 'boolean'];

export function parseValueMetric(type: ValueMetric, body: unknown, where: string): Aggregator {
  const obj = aggBody(type, body, where, ['field', 'missing', 'format']);
  const field = readField(type, obj, where);
  const rawMissing = readMissing(type, obj, where);
  const format = readFormat(type, obj, where);
  return {
    type,
    *run(docs, ctx): Steps<AggResult> {
      const values = fieldValues(ctx, field, type, type === 'value_count' ? ['keyword', ...NUMERIC] : NUMERIC);
      const missing = rawMissing === undefined ? undefined : missingValue(values, rawMissing, at(where, 'missing'));
      if (type === 'value_count') return { value: yield* valueCount(values, docs, missing !== undefined, ctx) };
      const numericMissing = missing === undefined ? undefined : Number(missing);
      const { count, min, max, sum } = yield* moments(values, docs, numericMissing, ctx);
      const printer = valuePrinter(values, format);
      let value: number | null;
      if (type === 'sum') value = sum.value;
      else if (count === 0) value = null;
      else value = type === 'min' ? min : type === 'max' ? max : sum.value / count;
      const out: AggResult = { value };
      if (printer !== null && value !== null) out.value_as_string = printer(value);
      return out;
    },
  };
}

function* valueCount(values: ReturnType<typeof fieldValues>, docs: DocSet, withMissing: boolean, ctx: AggContext): Steps<number> {
  if (values.kind === 'none') return withMissing ? docs.length : 0;
  let count = 0;
  for (let i = 0; i < docs.length; i++) {
    if (checkpoint(i) && ctx.budget.due()) yield;
    const n = values.forward.count(docs[i]);
    count += n === 0 && withMissing ? 1 : n;
  }
  return count;
}
