/**
 * `filters`: a bucket per query clause (Elasticsearch's FiltersAggregator). Named filters
 * (`{"filters": {"europe": {...}, "asia": {...}}}`) answer buckets keyed by name, in name order
 * (Elasticsearch sorts them), or an array with `key` when `keyed` is false; anonymous filters (an
 * array) answer an array in the given order. `other_bucket` (or `other_bucket_key`, default
 * `_other_`) adds a bucket of the documents matching none of them. A document is counted in every
 * filter it matches.
 */
import { Steps } from '../budget/budget';
import { describe, hasOwn, isPlainObject, setOwn } from '../json';
import { ParsedQuery } from '../query/context';
import { intersect, notInAny } from './docSets';
import { aggBody, at, invalid, readBool, readString } from './params';
import { withSubs } from './run';
import { AggContext, AggNode, AggParseContext, AggResult, Aggregator, DocSet } from './types';

interface Config {
  named: boolean;
  filters: { key: string; query: ParsedQuery }[];
  keyed: boolean;
  otherKey: string | null;
}

export function parseFilters(body: unknown, where: string, ctx: AggParseContext): Aggregator {
  const obj = aggBody('filters', body, where, ['filters', 'other_bucket', 'other_bucket_key', 'keyed']);
  const list = obj.filters;
  const fwhere = at(where, 'filters');
  let filters: Config['filters'];
  let named: boolean;
  if (Array.isArray(list)) {
    named = false;
    filters = list.map((q, i) => {
      if (!isPlainObject(q)) throw invalid(`[filters] filter at ${fwhere}[${i}] must be a query clause object, got ${describe(q)}`);
      return { key: String(i), query: ctx.parseQuery(q, `${fwhere}[${i}]`) };
    });
  } else if (isPlainObject(list)) {
    named = true;
    filters = Object.keys(list)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((key) => {
        const q = list[key];
        if (!isPlainObject(q)) throw invalid(`[filters] filter at ${at(fwhere, key)} must be a query clause object, got ${describe(q)}`);
        return { key, query: ctx.parseQuery(q, at(fwhere, key)) };
      });
  } else {
    throw invalid(`[filters] aggregation at ${where} requires "filters": an object of named query clauses or an array of them, got ${describe(list)}`);
  }
  if (filters.length === 0) throw invalid(`[filters] cannot be empty (at ${fwhere})`);
  const otherKey = hasOwn(obj, 'other_bucket_key') ? readString('filters', obj, 'other_bucket_key', where) : readBool('filters', obj, 'other_bucket', where, false) ? '_other_' : null;
  const config: Config = { named, filters, keyed: named && readBool('filters', obj, 'keyed', where, true), otherKey };
  if (!named) readBool('filters', obj, 'keyed', where, true);
  return { type: 'filters', run: (docs, actx, subs) => runFilters(config, docs, actx, subs) };
}

function* runFilters(config: Config, docs: DocSet, ctx: AggContext, subs: readonly AggNode[]): Steps<AggResult> {
  ctx.buckets.add(config.filters.length + (config.otherKey === null ? 0 : 1));
  const sets: DocSet[] = [];
  for (const filter of config.filters) sets.push(yield* intersect(docs, yield* ctx.queryMatches(filter.query), ctx));
  const entries: { key: string; docs: DocSet }[] = config.filters.map((f, i) => ({ key: f.key, docs: sets[i] }));
  if (config.otherKey !== null) entries.push({ key: config.otherKey, docs: yield* notInAny(docs, sets, ctx) });
  const keyed: AggResult = {};
  const list: AggResult[] = [];
  for (const entry of entries) {
    const head: AggResult = config.named && !config.keyed ? { key: entry.key, doc_count: entry.docs.length } : { doc_count: entry.docs.length };
    const bucket = yield* withSubs(head, subs, entry.docs, ctx);
    if (config.keyed) setOwn(keyed, entry.key, bucket);
    else list.push(bucket);
  }
  return { buckets: config.keyed ? keyed : list };
}
