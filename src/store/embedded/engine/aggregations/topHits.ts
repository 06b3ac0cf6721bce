/**
 * `top_hits`: the best documents of a bucket, shaped as search hits (Elasticsearch's
 * InternalTopHits): `{"hits": {"total": {"value": n, "relation": "eq"}, "max_score": s, "hits":
 * [{"_id", "_score", "_source", "sort"?}]}}`. `size` (3), `from` (0; from + size at most 100,
 * index.max_inner_result_window), `sort` (as the search's; default `_score` descending, ties in
 * index order) and `_source` (as the search's). Scores are the search query's; sorted on fields
 * without `_score`, hits have `_score` null and `max_score` is null.
 */
import { Steps } from '../budget/budget';
import { floatToJson } from '../fieldValues';
import { hasOwn } from '../json';
import { Ranked, ResolvedSort, compareRanked, hitSortValues, parseSort, ranked, resolveSort } from '../sort';
import { filterSource, parseSourceFilter } from '../source';
import { aggBody, invalid, readInt } from './params';
import { checkpoint } from './run';
import { selectTop } from './select';
import { AggContext, AggResult, Aggregator } from './types';

export const MAX_INNER_RESULT_WINDOW = 100;

export function parseTopHits(body: unknown, where: string, name: string): Aggregator {
  const obj = aggBody('top_hits', body, where, ['size', 'from', 'sort', '_source']);
  const size = readInt('top_hits', obj, 'size', where, 0, 3);
  const from = readInt('top_hits', obj, 'from', where, 0, 0);
  if (from + size > MAX_INNER_RESULT_WINDOW) {
    throw invalid(`Top hits result window is too large, the top hits aggregator [${name}]'s from + size must be less than or equal to: [${MAX_INNER_RESULT_WINDOW}] but was [${from + size}]. This limit can be set by changing the [index.max_inner_result_window] index level setting.`);
  }
  const clauses = parseSort(hasOwn(obj, 'sort') ? obj.sort : undefined);
  const source = parseSourceFilter(obj._source);
  if (clauses !== null) clauses.forEach((c) => (c.where = `${where}.${c.where}`));
  return {
    type: 'top_hits',
    *run(docs, ctx): Steps<AggResult> {
      const sorts: ResolvedSort[] | null = clauses === null ? null : resolveSort(clauses, ctx.mapping, (f) => ctx.index.field(f), ctx.index);
      const scored = sorts === null || sorts.some((s) => s.kind === 'score');
      const list: Ranked[] = [];
      let maxScore = -Infinity;
      for (let i = 0; i < docs.length; i++) {
        if (checkpoint(i) && ctx.budget.due()) yield;
        const doc = docs[i];
        const score = scored ? ctx.scoreOf(doc) : NaN;
        if (score > maxScore) maxScore = score;
        list.push(ranked(sorts, doc, score));
      }
      const top = yield* selectTop(list, from + size, compareRanked(sorts), ctx);
      const hits = top.slice(from).map((r) => hit(r, sorts, scored, source, ctx));
      return { hits: { total: { value: docs.length, relation: 'eq' }, max_score: scored && docs.length > 0 ? floatToJson(maxScore) : null, hits } };
    },
  };
}

function hit(r: Ranked, sorts: ResolvedSort[] | null, scored: boolean, source: ReturnType<typeof parseSourceFilter>, ctx: AggContext): AggResult {
  const stored = source.enabled ? ctx.index.sourceOf(r.doc) : {};
  const out: AggResult = { _id: ctx.index.idOfDoc(r.doc), _score: scored ? floatToJson(r.score) : null, _source: filterSource(stored ?? {}, source) };
  if (sorts !== null) out.sort = hitSortValues(sorts, r.keys);
  return out;
}
