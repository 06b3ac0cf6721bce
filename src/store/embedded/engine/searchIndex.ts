/**
 * One index, answering like a one-shard Elasticsearch 8 index: documents in, hits out with
 * Elasticsearch's matching, order and scores (see the modules it assembles: mapping, analyzer,
 * fieldIndex, similarity, lucene/*, query/*, sort, source).
 */
import { Doc, InvalidQueryError, QueryDsl, SearchRequest, SearchResult, Hit } from '../../port';
import { floatToJson } from './fieldValues';
import { InvertedIndex } from './invertedIndex';
import { describe, isPlainObject } from './json';
import { TopHit, topByScore, topSorted } from './lucene/topDocs';
import { IndexMapping, Mapping } from './mapping';
import { evaluate } from './lucene/evaluate';
import { Matches } from './lucene/matches';
import { disjunctionShape, runDisjunction } from './lucene/termDisjunction';
import { buildQuery, parseSearchQuery } from './search';
import { ResolvedSort, SortKey, compareKeys, parseSort, resolveSort, searchAfterKey, sortKey, sortValue } from './sort';
import { filterSource, parseSourceFilter } from './source';
import { storedSourceHit } from './storedSourceHit';

function checkWindow(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new InvalidQueryError(`${name} must be a non-negative integer, got ${describe(value)}`);
  return value;
}

/** Compaction happens once removed documents outnumber live ones, and at least `minDead` of them (tests lower it). */
export const COMPACTION = { minDead: 1024 };

export class SearchIndex {
  private readonly mapping: IndexMapping;
  private index = new InvertedIndex();

  constructor(mapping?: Mapping) {
    this.mapping = new IndexMapping(mapping);
  }

  /** Add, or replace (a replaced document moves to the end of index order, as Lucene's delete+add does). */
  put(id: string, source: Doc): void {
    if (typeof id !== 'string') throw new TypeError('SearchIndex.put: the id must be a string');
    if (!isPlainObject(source)) throw new TypeError('SearchIndex.put: the source must be an object');
    this.index.addSource(id, source, this.mapping);
    this.compactIfWorthIt();
  }

  remove(id: string): boolean {
    const removed = this.index.remove(id);
    if (removed) this.compactIfWorthIt();
    return removed;
  }

  get(id: string): Doc | undefined {
    const doc = this.index.docOf(id);
    return doc === undefined ? undefined : this.index.sourceOf(doc);
  }

  get size(): number {
    return this.index.size;
  }

  /**
   * Rebuild the index from its live documents, in the same order, when tombstones outnumber them:
   * postings, per-document arrays and caches then only hold live documents (renumbered).
   */
  private compactIfWorthIt(): void {
    const old = this.index;
    if (old.dead < COMPACTION.minDead || old.dead <= old.size) return;
    const fresh = new InvertedIndex();
    for (const doc of old.live) {
      const source = old.sourceOf(doc) as Doc;
      fresh.addSource(old.idOfDoc(doc) as string, source, this.mapping);
    }
    this.index = fresh;
  }

  /** from/size are already validated by the caller (non-negative integers). `filter`, when given, is a non-scoring filter:
   *  the search behaves exactly as Elasticsearch does for {bool: {must: [query ?? {match_all: {}}], filter: [filter]}}. */
  search(request: SearchRequest, filter?: QueryDsl | null): SearchResult {
    const from = checkWindow('from', request.from);
    const size = checkWindow('size', request.size);
    const sortClauses = parseSort(request.sort);
    const sourceFilter = parseSourceFilter(request._source);
    const parsed = parseSearchQuery(request.query, filter);
    const after = request.search_after;
    if (after !== undefined && after !== null) {
      if (!Array.isArray(after)) throw new InvalidQueryError(`search_after must be an array, got ${describe(after)}`);
      if (sortClauses === null) throw new InvalidQueryError('search_after requires a sort (and a sort on _score descending alone is no sort)');
      if (after.length !== sortClauses.length) throw new InvalidQueryError(`search_after has ${after.length} value(s) but sort has ${sortClauses.length}`);
      if (from > 0) throw new InvalidQueryError('from must be 0 when search_after is used');
    }

    const index = this.index;
    const sorts: ResolvedSort[] | null = sortClauses === null ? null : resolveSort(sortClauses, this.mapping, (field) => index.field(field));
    const needsScores = sorts === null || sorts.some((s) => s.kind === 'score');
    const afterKeys = sorts !== null && Array.isArray(after) ? sorts.map((s, i) => searchAfterKey(s, after[i], `search_after[${i}]`)) : null;
    const query = buildQuery(parsed, this.mapping, Date.now());
    const shape = sorts === null ? disjunctionShape(query) : null;
    let total: number;
    let top: TopHit<SortKey>[];
    if (shape !== null) {
      // term disjunction: counted and ranked in one pass, scoring only what can make the page
      const result = runDisjunction(shape, index, from + size);
      total = result?.total ?? 0;
      top = result?.top ?? [];
    } else if (sorts === null) {
      const matches = evaluate(query, index, 1, true) ?? Matches.EMPTY;
      total = matches.size;
      top = topByScore(matches, from + size);
    } else {
      const matches = evaluate(query, index, 1, needsScores) ?? Matches.EMPTY;
      total = matches.size;
      const compare = (a: SortKey[], b: SortKey[]) => {
        for (let i = 0; i < sorts.length; i++) {
          const c = compareKeys(sorts[i], a[i], b[i]);
          if (c !== 0) return c;
        }
        return 0;
      };
      const keysOf = (doc: number, score: number, out: SortKey[]) => {
        for (let i = 0; i < sorts.length; i++) out[i] = sortKey(sorts[i], doc, score);
      };
      // search_after: only hits after the given values (equal ones were already returned)
      const accept = afterKeys === null ? null : (keys: SortKey[]) => compare(keys, afterKeys) > 0;
      top = topSorted(matches, from + size, sorts.length, keysOf, compare, accept);
    }

    const hits: Hit[] = [];
    const wholeSource = sourceFilter.enabled && sourceFilter.includes.length === 0 && sourceFilter.excludes.length === 0;
    for (let i = from; i < top.length; i++) {
      const m = top[i];
      const id = index.idOfDoc(m.doc);
      if (id === undefined) throw new Error(`internal: document ${m.doc} is not in the index`);
      const score = needsScores ? floatToJson(m.score) : null;
      // the whole source, still as stored text: parsed only if someone reads it (storedSourceHit.ts)
      const json = wholeSource ? index.sourceJsonOf(m.doc) : undefined;
      let hit: Hit;
      if (json !== undefined) {
        hit = storedSourceHit(id, score, json);
      } else {
        const source = sourceFilter.enabled ? index.sourceOf(m.doc) : {};
        if (source === undefined) throw new Error(`internal: document ${m.doc} is not in the index`);
        hit = { _id: id, _score: score, _source: filterSource(source, sourceFilter, true) };
      }
      if (sorts !== null) hit.sort = sorts.map((s, j) => (s.kind === 'score' ? floatToJson(m.keys[j] as number) : sortValue(s, m.keys[j])));
      hits.push(hit);
    }
    return { hits, total };
  }

  count(query: QueryDsl | undefined, filter?: QueryDsl | null): number {
    const built = buildQuery(parseSearchQuery(query, filter), this.mapping, Date.now());
    const shape = disjunctionShape(built);
    if (shape !== null) return runDisjunction(shape, this.index, 0)?.total ?? 0;
    return evaluate(built, this.index, 1, false)?.size ?? 0;
  }
}
