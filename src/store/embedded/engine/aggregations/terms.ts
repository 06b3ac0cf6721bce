/**
 * `terms`: a bucket per distinct value of a field (Elasticsearch's TermsAggregator, as one shard
 * answers it): `size` (10) buckets in `order` (default `_count` desc, then `_key` asc), `min_doc_count`
 * (1), `missing` (documents without a value counted under that value), `include`/`exclude`, `format`
 * (dates), `show_term_doc_count_error`; `shard_size`, `shard_min_doc_count`, `collect_mode` and
 * `execution_hint` are accepted and have no effect (one shard: counts are exact). Answers
 * `{doc_count_error_upper_bound: 0, sum_other_doc_count, buckets: [{key, key_as_string?, doc_count, ...}]}`,
 * `sum_other_doc_count` being the documents of the terms not returned (each document once per term).
 * Keys: keyword terms as strings, longs and floats as numbers (a float as the double of the stored
 * float), dates as epoch millis with `key_as_string`, booleans as 1/0 with "true"/"false".
 *
 * `min_doc_count: 0` is refused: Elasticsearch then lists the terms of every document of the index,
 * whatever the query and the tenant filter, which would show one tenant the values of another's.
 */
import { Steps } from '../budget/budget';
import { hasOwn } from '../json';
import { compareUtf8 } from '../strings';
import { DateFormats } from './dateFormat';
import { TermFilter, parseIncludeExclude } from './includeExclude';
import { javaDouble } from './numbers';
import { OrderKey, OrderedBucket, bucketComparator, needsSubs, parseOrder } from './order';
import { aggBody, at, invalid, readBool, readField, readFormat, readInt, readMissing } from './params';
import { checkpoint, runAggregations, splitDocs } from './run';
import { selectTop } from './select';
import { AggContext, AggNode, AggParseContext, AggResult, Aggregator, DocSet } from './types';
import { KeywordValues, Values, fieldValues, missingValue, valuePrinter } from './values';

const PARAMS = ['field', 'size', 'shard_size', 'min_doc_count', 'shard_min_doc_count', 'order', 'missing', 'include', 'exclude', 'format', 'show_term_doc_count_error', 'collect_mode', 'execution_hint'];

interface TermBucket extends OrderedBucket {
  /** keyword: the term id (-1 for a missing value not in the dictionary); numbers: unused. */
  readonly termId: number;
}

interface Config {
  field: string;
  size: number;
  minDocCount: number;
  orders: OrderKey[];
  missing: string | number | boolean | undefined;
  filter: TermFilter | null;
  format: DateFormats | null;
  showError: boolean;
}

export function parseTerms(body: unknown, where: string, ctx: AggParseContext): Aggregator {
  const obj = aggBody('terms', body, where, PARAMS);
  const config: Config = {
    field: readField('terms', obj, where),
    size: readInt('terms', obj, 'size', where, 1, 10),
    minDocCount: readInt('terms', obj, 'min_doc_count', where, 0, 1),
    orders: hasOwn(obj, 'order') ? parseOrder(obj.order, ctx.subs, at(where, 'order')) : [{ kind: 'count', asc: false }, { kind: 'key', asc: true }],
    missing: readMissing('terms', obj, where),
    filter: parseIncludeExclude(obj, where),
    format: readFormat('terms', obj, where),
    showError: readBool('terms', obj, 'show_term_doc_count_error', where, false),
  };
  readInt('terms', obj, 'shard_size', where, 1, 0);
  readInt('terms', obj, 'shard_min_doc_count', where, 0, 0);
  if (config.minDocCount === 0) {
    throw invalid(`[terms] "min_doc_count": 0 at ${at(where, 'min_doc_count')} is not supported: Elasticsearch then lists the terms of every entity of the index, including those the caller may not see. To show zero counts, compare with the same aggregation over every visible entity (a search with no query)`);
  }
  return { type: 'terms', run: (docs, actx, subs) => runTerms(config, docs, actx, subs) };
}

/** Documents counted between two looks at the clock (a few microseconds of work). */
const COUNT_RUN = 2048;

/** Counts per distinct value (keyword: per term id; numbers: per value); the documents without any value counted apart. */
function* count(values: Values, docs: DocSet, ctx: AggContext): Steps<{ keyword: Int32Array | null; numbers: Map<number, number> | null; missing: number }> {
  if (values.kind === 'none') return { keyword: null, numbers: null, missing: docs.length };
  if (values.kind === 'keyword') {
    // term ids counted a run of documents at a time, the clock read between runs
    const keyword = new Int32Array(values.dict.size);
    let missing = 0;
    for (let at = 0; at < docs.length; at += COUNT_RUN) {
      if (ctx.budget.due()) yield;
      missing += values.forward.countEntries(docs, at, Math.min(at + COUNT_RUN, docs.length), keyword);
    }
    return { keyword, numbers: null, missing };
  }
  const numbers = new Map<number, number>();
  const forward = values.forward;
  const entries = forward.entries;
  let missing = 0;
  for (let i = 0; i < docs.length; i++) {
    if (checkpoint(i) && ctx.budget.due()) yield;
    const from = forward.from(docs[i]);
    const to = forward.to(docs[i]);
    if (from === to) missing++;
    for (let j = from; j < to; j++) {
      if (j === from || entries[j] !== entries[j - 1]) numbers.set(entries[j], (numbers.get(entries[j]) ?? 0) + 1); // once per document
    }
  }
  return { keyword: null, numbers, missing };
}

function* runTerms(config: Config, docs: DocSet, ctx: AggContext, subs: readonly AggNode[]): Steps<AggResult> {
  const values = fieldValues(ctx, config.field, 'terms', ['keyword', 'numeric', 'date', 'boolean']);
  const filter = config.filter;
  if (filter?.regex === true && values.kind === 'numeric') {
    throw invalid(`Aggregation on field [${config.field}] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of values for include/exclude clauses`);
  }
  const printer = valuePrinter(values, config.format);
  const asString = (key: number) => (printer === null ? (values.kind === 'numeric' && values.type === 'long' ? String(key) : javaDouble(key)) : printer(key));
  const accept = (key: string | number) => filter === null || (typeof key === 'string' ? filter.acceptString(key) : filter.acceptNumber(key, asString(key)));

  const counted = yield* count(values, docs, ctx);
  const candidates: TermBucket[] = [];
  if (counted.keyword !== null) {
    const dict = (values as KeywordValues).dict;
    counted.keyword.forEach((c, termId) => {
      if (c === 0) return;
      const key = dict.term(termId);
      if (accept(key)) candidates.push({ key, count: c, termId, subs: null });
    });
  } else if (counted.numbers !== null) {
    for (const [key, c] of counted.numbers) if (accept(key)) candidates.push({ key, count: c, termId: -1, subs: null });
  }
  // documents without a value, under the `missing` value (with its term when the term exists)
  let missingAt = -1;
  if (config.missing !== undefined && counted.missing > 0) {
    const key = missingValue(values, config.missing, 'terms.missing');
    if (accept(key)) {
      missingAt = candidates.findIndex((b) => b.key === key);
      if (missingAt >= 0) candidates[missingAt] = { ...candidates[missingAt], count: candidates[missingAt].count + counted.missing };
      else {
        missingAt = candidates.length;
        candidates.push({ key, count: counted.missing, termId: -1, subs: null });
      }
    }
  }
  const eligible = candidates.filter((b) => b.count >= config.minDocCount);
  const byPath = needsSubs(config.orders);
  if (byPath) yield* bucketSubs(eligible, values, missingAt >= 0 ? candidates[missingAt] : null, docs, ctx, subs);
  const compare = bucketComparator(config.orders, compareUtf8);
  const top = yield* selectTop(eligible, config.size, compare, ctx);
  ctx.buckets.add(top.length);
  if (!byPath) yield* bucketSubs(top, values, missingAt >= 0 ? candidates[missingAt] : null, docs, ctx, subs);

  let returned = 0;
  const buckets = top.map((b) => {
    returned += b.count;
    const bucket: AggResult = { key: b.key };
    if (typeof b.key === 'number' && printer !== null) bucket.key_as_string = printer(b.key);
    bucket.doc_count = b.count;
    if (config.showError) bucket.doc_count_error_upper_bound = 0;
    return b.subs === null ? bucket : Object.assign(bucket, b.subs);
  });
  let total = 0;
  for (const b of candidates) total += b.count;
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: total - returned, buckets };
}

/** Runs the sub-aggregations of each bucket over its documents (bucket.subs). */
function* bucketSubs(buckets: TermBucket[], values: Values, missingBucket: TermBucket | null, docs: DocSet, ctx: AggContext, subs: readonly AggNode[]): Steps<void> {
  if (subs.length === 0 || buckets.length === 0) {
    for (const b of buckets) b.subs = {};
    return;
  }
  const index = new Map<string | number, number>();
  buckets.forEach((b, i) => index.set(b.key, i));
  const missingIndex = missingBucket === null ? -1 : (index.get(missingBucket.key) ?? -1);
  const byTerm = values.kind === 'keyword' ? new Int32Array(values.dict.size).fill(-1) : null;
  if (byTerm !== null) buckets.forEach((b, i) => b.termId >= 0 && (byTerm[b.termId] = i));
  const forward = values.kind === 'none' ? null : values.forward;
  const lists = yield* splitDocs(
    docs,
    buckets.length,
    (doc, emit) => {
      const from = forward === null ? 0 : forward.from(doc);
      const to = forward === null ? 0 : forward.to(doc);
      if (from === to) {
        if (missingIndex >= 0) emit(missingIndex);
        return;
      }
      const entries = (forward as { entries: Int32Array | Float64Array }).entries;
      for (let j = from; j < to; j++) {
        if (byTerm !== null) {
          if (byTerm[entries[j]] >= 0) emit(byTerm[entries[j]]);
        } else if (j === from || entries[j] !== entries[j - 1]) {
          const b = index.get(entries[j]);
          if (b !== undefined) emit(b);
        }
      }
    },
    ctx,
  );
  for (let i = 0; i < buckets.length; i++) buckets[i].subs = yield* runAggregations(subs, lists[i], ctx);
}
