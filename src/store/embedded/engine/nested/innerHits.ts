/**
 * The `inner_hits` of `nested` queries (Elasticsearch's InnerHitsContext for a nested query,
 * NestedQueryBuilder.NestedInnerHitSubContext): for each hit of the page, the objects of the
 * nested field that match the nested query's own query, scored as they are in the join (without
 * the nested query's boost, which applies to the parent), best first (or in the definition's
 * `sort`), the definition's `from`/`size` (3 by default); each with its parent's `_id`,
 * `_nested: {field, offset}` (the object's place in the parent's array) and the object as its
 * `_source` (`_source` filtering takes full paths, `parts.name`, as Elasticsearch filters the
 * parent's source before taking the object out of it). `total` is how many of its objects match.
 *
 * Only the hits of the page are looked at, and only their own objects: a hit is a document the
 * caller may see (the caller's filter applies to parents), so an inner hit is always part of one.
 */
import type { Doc, Hit, InnerHits } from '../../../port';
import { InvalidQueryError } from '../../../port';
import { UNLIMITED, runToEnd } from '../budget/budget';
import type { InnerHitsRequest } from '../collapse';
import { floatToJson } from '../fieldValues';
import type { InvertedIndex } from '../invertedIndex';
import { setOwn } from '../json';
import { childrenOfParent } from '../lucene/blockJoin';
import { evaluateSteps } from '../lucene/evaluate';
import { Matches } from '../lucene/matches';
import type { LQuery, NestedQuery } from '../lucene/query';
import type { IndexMapping } from '../mapping';
import { ResolvedSort, compareKeys, resolveSort, sortKey, sortValue } from '../sort';
import { filterSource } from '../source';
import { nestedObjects } from './nestedDocs';

/** The `nested` queries with `inner_hits` in a query, in order; two definitions of one name are refused as Elasticsearch does. */
export function nestedInnerHitQueries(query: LQuery): NestedQuery[] {
  const out: NestedQuery[] = [];
  const names = new Set<string>();
  const visit = (q: LQuery): void => {
    switch (q.type) {
      case 'nested':
        if (q.innerHits !== null) {
          if (names.has(q.innerHits.name)) throw new InvalidQueryError(`[inner_hits] already contains an entry for key [${q.innerHits.name}]`);
          names.add(q.innerHits.name);
          out.push(q);
        }
        return visit(q.query);
      case 'boost':
      case 'constantScore':
      case 'functionScore':
        return visit(q.query);
      case 'bool':
        for (const clause of q.clauses) visit(clause.query);
        return;
      case 'disMax':
        for (const disjunct of q.disjuncts) visit(disjunct);
        return;
      default:
        return;
    }
  };
  visit(query);
  return out;
}

interface Definition {
  readonly query: NestedQuery;
  readonly request: InnerHitsRequest;
  /** The matching objects of the whole field with their scores (list form), made at the first hit that needs them. */
  children: Matches | null;
  sorts: ResolvedSort[] | null;
}

export class NestedInnerHits {
  private readonly definitions: Definition[];

  constructor(
    queries: readonly NestedQuery[],
    private readonly index: InvertedIndex,
    private readonly mapping: IndexMapping,
  ) {
    this.definitions = queries.map((query) => ({ query, request: query.innerHits as InnerHitsRequest, children: null, sorts: null }));
  }

  get isEmpty(): boolean {
    return this.definitions.length === 0;
  }

  /** The inner hits of the page's hit `doc` (its id `id`), by definition name. */
  hitsOf(doc: number, id: string): Record<string, InnerHits> {
    const out: Record<string, InnerHits> = {};
    let source: Doc | undefined;
    for (const def of this.definitions) {
      const { request } = def;
      const nested = this.index.nested.get(def.query.path);
      if (nested === undefined) {
        setOwn(out, request.name, { hits: { total: 0, max_score: null, hits: [] } });
        continue;
      }
      if (def.children === null) {
        def.children = (runToEnd(evaluateSteps(def.query.query, nested.index, 1, true, UNLIMITED)) ?? Matches.EMPTY).toList();
        def.sorts = request.sort === null ? null : resolveSort(request.sort, this.mapping, (field) => nested.index.field(field), nested.index);
      }
      const children = def.children;
      const sorts = def.sorts;
      const { from, to } = childrenOfParent(children, nested, doc);
      const docs = children.docs as Int32Array;
      const members: { child: number; score: number; keys: unknown[] }[] = [];
      for (let i = from; i < to; i++) members.push({ child: docs[i], score: children.scoreAt(i), keys: sorts === null ? [] : sorts.map((s) => sortKey(s, docs[i], children.scoreAt(i))) });
      members.sort((a, b) => {
        if (sorts !== null) {
          for (let j = 0; j < sorts.length; j++) {
            const c = compareKeys(sorts[j], a.keys[j] as never, b.keys[j] as never);
            if (c !== 0) return c;
          }
        } else if (a.score !== b.score) return b.score - a.score;
        return a.child - b.child;
      });
      const scored = sorts === null || sorts.some((s) => s.kind === 'score');
      source ??= this.index.sourceOf(doc) ?? {};
      const objects = nestedObjects(source, def.query.path);
      const hits = members.slice(request.from, request.from + request.size).map((m): Hit => {
        const offset = nested.offsetOf(m.child);
        const hit: Hit = { _id: id, _nested: { field: def.query.path, offset }, _score: scored ? floatToJson(m.score) : null };
        if (request.source !== null) hit._source = objectSource(objects[offset] ?? {}, def.query.path, request);
        if (sorts !== null) hit.sort = sorts.map((s, j) => (s.kind === 'score' ? floatToJson(m.keys[j] as number) : sortValue(s, m.keys[j] as never)));
        return hit;
      });
      const maxScore = scored && members.length > 0 ? floatToJson(Math.max(...members.map((m) => m.score))) : null;
      setOwn(out, request.name, { hits: { total: members.length, max_score: maxScore, hits } });
    }
    return out;
  }
}

/** An object's `_source` under a definition's `_source` filter (full paths: the object is filtered where it is in its parent, then taken out). */
function objectSource(object: Record<string, unknown>, path: string, request: InnerHitsRequest): Doc {
  const filter = request.source!;
  if (filter.includes.length === 0 && filter.excludes.length === 0) return filterSource(object, filter);
  let wrapped: Doc = object;
  const keys = path.split('.');
  for (let i = keys.length - 1; i >= 0; i--) wrapped = { [keys[i]]: wrapped };
  let out: unknown = filterSource(wrapped, filter, true);
  for (const key of keys) out = out !== null && typeof out === 'object' ? (out as Record<string, unknown>)[key] : undefined;
  return out !== null && typeof out === 'object' && !Array.isArray(out) ? (out as Doc) : {};
}
