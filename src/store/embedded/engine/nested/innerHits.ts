/**
 * The `inner_hits` of `nested` queries (Elasticsearch's NestedQueryBuilder.NestedInnerHitContextBuilder
 * and NestedInnerHitSubContext): for each hit of the page, the objects of the nested field that
 * match the nested query's own query, scored as they are in the join (without the nested query's
 * boost, which applies to the parent), best first (or in the definition's `sort`), the
 * definition's `from`/`size` (3 by default); each with its root document's `_id`, its `_nested`
 * identity (SearchHit.NestedIdentity: the field relative to the nested object it is in, its offset
 * in that object's array, and the outer level's identity around it, from the root down) and the
 * object as its `_source` (`_source` filtering takes full paths, `parts.name`, as Elasticsearch
 * filters the parent's source before taking the object out of it). `total` is how many match.
 *
 * As in Elasticsearch (extractInnerHitBuilders), the `inner_hits` of a `nested` query inside
 * another are answered inside each inner hit of the outer one, and only when the outer one has
 * `inner_hits` too; a name is given once per level.
 *
 * Only the hits of the page are looked at, and only their own objects: a hit is a document the
 * caller may see (the caller's filter applies to parents), so an inner hit is always part of one.
 */
import type { Doc, Hit, InnerHits, NestedIdentity } from '../../../port';
import { InvalidQueryError } from '../../../port';
import { Budget, Steps } from '../budget/budget';
import { PageHighlighter } from '../highlight/pageHighlighter';
import type { QueryLimits } from '../limits';
import type { InnerHitsRequest } from '../collapse';
import { floatToJson } from '../fieldValues';
import type { InvertedIndex } from '../invertedIndex';
import { setOwn } from '../json';
import { childrenOfParent, nestedLevels } from '../lucene/blockJoin';
import { evaluateSteps } from '../lucene/evaluate';
import { Matches } from '../lucene/matches';
import type { LQuery, NestedQuery } from '../lucene/query';
import type { IndexMapping } from '../mapping';
import { Ranked, ResolvedSort, compareRanked, hitSortValues, ranked, resolveSort } from '../sort';
import { filterSource } from '../source';
import type { NestedDocs } from './nestedDocs';
import { nestedObjects } from './nestedDocs';

/**
 * The `nested` queries with `inner_hits` in a query, in order, not looking inside `nested` queries
 * (their own inner hits are theirs); two definitions of one name are refused as Elasticsearch does.
 */
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
        return;
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
  /** Made at the first hit that needs them (null: the field has no documents). */
  prepared: Prepared | null | undefined;
}

/** The nested documents of each field of a definition's chain, the matching ones of the last with their scores, its sort, and the inner definitions of its query. */
interface Prepared {
  readonly levels: NestedDocs[];
  readonly children: Matches;
  readonly sorts: ResolvedSort[] | null;
  readonly inner: NestedInnerHits;
  /** The definition's `highlight` over the objects' fields, null without. */
  readonly highlighter: PageHighlighter | null;
}

/** The inner hits of the `nested` queries of one level: the root's (the search's index), or a nested field's. */
export class NestedInnerHits {
  private readonly definitions: Definition[];

  /**
   * @param index the level's index (the search's, or a nested field's documents)
   * @param search what the search's queries are built with (`now`, the limits)
   */
  constructor(
    queries: readonly NestedQuery[],
    private readonly index: InvertedIndex,
    private readonly mapping: IndexMapping,
    private readonly search: { readonly now: number; readonly limits: QueryLimits },
  ) {
    this.definitions = queries.map((query) => ({ query, request: query.innerHits as InnerHitsRequest, prepared: undefined }));
  }

  get isEmpty(): boolean {
    return this.definitions.length === 0;
  }

  /**
   * The inner hits of document `doc` of this level, by definition name, within the search's budget
   * (evaluating a definition's query, highlighting): `id` is its root document's, `source` its object
   * (the root document's source at the root), `identity` where it is (null at the root).
   */
  *hitsSteps(doc: number, id: string, source: Doc, identity: NestedIdentity | null, budget: Budget): Steps<Record<string, InnerHits>> {
    const out: Record<string, InnerHits> = {};
    for (const def of this.definitions) {
      const { request } = def;
      const prepared = yield* this.prepare(def, budget);
      if (prepared === null) {
        setOwn(out, request.name, { hits: { total: 0, max_score: null, hits: [] } });
        continue;
      }
      const { levels, children, sorts, inner, highlighter } = prepared;
      const { from, to } = childrenOfParent(children, levels, doc);
      const docs = children.docs as Int32Array;
      const members: Ranked[] = [];
      for (let i = from; i < to; i++) members.push(ranked(sorts, docs[i], children.scoreAt(i)));
      members.sort(compareRanked(sorts));
      const scored = sorts === null || sorts.some((s) => s.kind === 'score');
      const hits: Hit[] = [];
      for (const m of members.slice(request.from, request.from + request.size)) {
        const { object, nested } = locate(levels, m.doc, source, identity);
        const hit: Hit = { _id: id, _nested: nested, _score: scored ? floatToJson(m.score) : null };
        if (request.source !== null) hit._source = objectSource(object, def.query.path, request);
        if (highlighter !== null && !highlighter.isEmpty) {
          const fragments = yield* highlighter.hit(m.doc, id, object, budget);
          if (fragments !== undefined) hit.highlight = fragments;
        }
        if (sorts !== null) hit.sort = hitSortValues(sorts, m.keys);
        if (!inner.isEmpty) hit.inner_hits = yield* inner.hitsSteps(m.doc, id, object, nested, budget);
        hits.push(hit);
      }
      const maxScore = scored && members.length > 0 ? floatToJson(Math.max(...members.map((m) => m.score))) : null;
      setOwn(out, request.name, { hits: { total: members.length, max_score: maxScore, hits } });
    }
    return out;
  }

  /** A definition's levels, matching objects, sort, inner definitions and highlighter, made once. */
  private *prepare(def: Definition, budget: Budget): Steps<Prepared | null> {
    if (def.prepared !== undefined) return def.prepared;
    const levels = nestedLevels(this.index, def.query.chain);
    if (levels === null) return (def.prepared = null);
    const last = levels[levels.length - 1].index;
    const children = ((yield* evaluateSteps(def.query.query, last, 1, true, budget)) ?? Matches.EMPTY).toList();
    const sorts = def.request.sort === null ? null : resolveSort(def.request.sort, this.mapping, (field) => last.field(field), last);
    const { now, limits } = this.search;
    const highlight = def.request.highlight;
    const highlighter = highlight === undefined ? null : yield* PageHighlighter.create(highlight, def.query.parsed ?? null, this.mapping, now, limits, last, budget, def.query.path);
    return (def.prepared = { levels, children, sorts, highlighter, inner: new NestedInnerHits(nestedInnerHitQueries(def.query.query), last, this.mapping, this.search) });
  }
}

/** A document of the last level: its object (from the level's `source` down) and its identity (inside `outer`). */
function locate(levels: readonly NestedDocs[], child: number, source: Doc, outer: NestedIdentity | null): { object: Doc; nested: NestedIdentity } {
  const docs: number[] = [child];
  for (let l = levels.length - 1; l > 0; l--) docs.unshift(levels[l].parentOf(docs[0]));
  let object: Doc = source;
  const steps: NestedIdentity[] = [];
  levels.forEach((level, l) => {
    const offset = level.offsetOf(docs[l]);
    object = nestedObjects(object, level.relative)[offset] ?? {};
    steps.push({ field: level.relative, offset });
  });
  // NestedIdentity: the outermost level first, each inner one as its `_nested`
  let nested: NestedIdentity = steps[steps.length - 1];
  for (let i = steps.length - 2; i >= 0; i--) nested = { ...steps[i], _nested: nested };
  return { object, nested: outer === null ? nested : withInnermost(outer, nested) };
}

/** `outer` with `inner` as the `_nested` of its innermost level. */
function withInnermost(outer: NestedIdentity, inner: NestedIdentity): NestedIdentity {
  return { field: outer.field, offset: outer.offset, _nested: outer._nested === undefined ? inner : withInnermost(outer._nested, inner) };
}

/** An object's `_source` under a definition's `_source` filter (full paths: the object is filtered where it is in its parent, then taken out). */
function objectSource(object: Doc, path: string, request: InnerHitsRequest): Doc {
  const filter = request.source!;
  if (filter.includes.length === 0 && filter.excludes.length === 0) return filterSource(object, filter);
  let wrapped: Doc = object;
  const keys = path.split('.');
  for (let i = keys.length - 1; i >= 0; i--) wrapped = { [keys[i]]: wrapped };
  let out: unknown = filterSource(wrapped, filter, true);
  for (const key of keys) out = out !== null && typeof out === 'object' ? (out as Record<string, unknown>)[key] : undefined;
  return out !== null && typeof out === 'object' && !Array.isArray(out) ? (out as Doc) : {};
}
