/**
 * `cardinality`: how many distinct values the bucket's documents hold (`{"value": n}`).
 *
 * Elasticsearch counts with HyperLogLog++ (HyperLogLogPlusPlus): below `precision_threshold`
 * (default 3000, at most 40000) it keeps the set of the values' 32-bit hashes (linear counting),
 * which is exact short of a hash collision; above, it switches to HyperLogLog registers, whose
 * estimate is typically within a few percent. Here the count is exact at every size: a set of the
 * distinct term ids (keywords) or numbers, whose memory is bounded by the distinct values of the
 * matching documents. So answers equal Elasticsearch's below the threshold and are the exact count
 * above it, where Elasticsearch's are an estimate. `precision_threshold` is validated and otherwise
 * has no effect; `missing` counts as one more value for documents without any.
 */
import { Steps } from '../budget/budget';
import { aggBody, at, readField, readInt, readMissing } from './params';
import { checkpoint } from './run';
import { AggResult, Aggregator } from './types';
import { fieldValues, missingValue } from './values';

export function parseCardinality(body: unknown, where: string): Aggregator {
  const obj = aggBody('cardinality', body, where, ['field', 'missing', 'precision_threshold', 'execution_hint']);
  const field = readField('cardinality', obj, where);
  const rawMissing = readMissing('cardinality', obj, where);
  readInt('cardinality', obj, 'precision_threshold', where, 0, 3000);
  return {
    type: 'cardinality',
    *run(docs, ctx): Steps<AggResult> {
      const values = fieldValues(ctx, field, 'cardinality', ['keyword', 'numeric', 'date', 'boolean']);
      const missing = rawMissing === undefined ? undefined : missingValue(values, rawMissing, at(where, 'missing'));
      const seen = new Set<number | string>();
      if (values.kind === 'none') return { value: missing !== undefined && docs.length > 0 ? 1 : 0 };
      const forward = values.forward;
      const entries = forward.entries;
      const dict = values.kind === 'keyword' ? values.dict : null;
      for (let i = 0; i < docs.length; i++) {
        if (checkpoint(i) && ctx.budget.due()) yield;
        const from = forward.from(docs[i]);
        const to = forward.to(docs[i]);
        if (from === to && missing !== undefined) seen.add(dict !== null ? `\u0000${missing}` : missing);
        for (let j = from; j < to; j++) seen.add(entries[j]);
      }
      // a missing term equal to a term of the dictionary is one value, not two
      if (dict !== null && missing !== undefined && seen.has(`\u0000${missing}`)) {
        const id = dict.get(String(missing));
        if (id >= 0 && seen.has(id)) seen.delete(`\u0000${missing}`);
      }
      return { value: seen.size };
    },
  };
}
