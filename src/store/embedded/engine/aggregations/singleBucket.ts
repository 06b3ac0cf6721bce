/**
 * The single-bucket aggregations, each answering `{doc_count, ...sub-aggregations}`:
 *
 * - `filter`: the documents matching a query clause (any clause the search accepts);
 * - `missing`: the documents without a value in `field` (all of them for a field no entity has);
 * - `global`: every document the caller may see, whatever the search's query. Elasticsearch's
 *   `global` ignores the query and runs over the whole index; here it never escapes the tenant
 *   filter: it runs over the entities a search with no query would find for the same caller. Like
 *   Elasticsearch's, it may only be a top-level aggregation.
 */
import { Steps } from '../budget/budget';
import { isPlainObject, describe } from '../json';
import { ParsedQuery } from '../query/context';
import { intersect } from './docSets';
import { aggBody, invalid, readField } from './params';
import { checkpoint, withSubs } from './run';
import { AggContext, AggNode, AggParseContext, AggResult, Aggregator, DocSet } from './types';
import { hasValues, textFieldError } from './values';

function* bucket(docs: DocSet, ctx: AggContext, subs: readonly AggNode[]): Steps<AggResult> {
  return yield* withSubs({ doc_count: docs.length }, subs, docs, ctx);
}

export function parseFilter(body: unknown, where: string, ctx: AggParseContext): Aggregator {
  if (!isPlainObject(body)) throw invalid(`[filter] aggregation at ${where} must be a query clause object, got ${describe(body)}`);
  const query: ParsedQuery = ctx.parseQuery(body, where);
  return {
    type: 'filter',
    *run(docs, actx, subs) {
      const matches = yield* actx.queryMatches(query);
      return yield* bucket(yield* intersect(docs, matches, actx), actx, subs);
    },
  };
}

export function parseMissing(body: unknown, where: string): Aggregator {
  const field = readField('missing', aggBody('missing', body, where, ['field']), where);
  return {
    type: 'missing',
    *run(docs, ctx, subs) {
      const type = ctx.mapping.type(field);
      if (type === 'text') throw textFieldError(field);
      const index = type === undefined ? undefined : ctx.index.field(field);
      const without: number[] = [];
      for (let i = 0; i < docs.length; i++) {
        if (checkpoint(i) && ctx.budget.due()) yield;
        const doc = docs[i];
        const has = index !== undefined && (index.values !== null ? index.values.count(doc) > 0 : hasValues({ kind: 'keyword', forward: index.tokens as never, dict: index.terms?.dict as never }, doc));
        if (!has) without.push(doc);
      }
      return yield* bucket(Int32Array.from(without), ctx, subs);
    },
  };
}

export function parseGlobal(body: unknown, where: string, ctx: AggParseContext): Aggregator {
  aggBody('global', body, where, []);
  if (ctx.parent !== null) throw invalid(`Aggregation [${ctx.name}] of type [global] at ${where} cannot be a sub-aggregation of [${ctx.parent}]: global aggregations can only be top level`);
  return {
    type: 'global',
    *run(_docs, actx, subs) {
      return yield* bucket(yield* actx.visibleDocs(), actx, subs);
    },
  };
}
