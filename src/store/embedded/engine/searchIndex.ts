/**
 * One index, answering like a one-shard Elasticsearch 8 index: documents in, hits out with
 * Elasticsearch's matching, order and scores (see the modules it assembles: mapping, analyzer,
 * fieldIndex, similarity, lucene/*, query/*, sort, source).
 */
import { Doc, InvalidQueryError, QueryDsl, SearchRequest, SearchResult, Hit } from '../../port';
import { floatToJson } from './fieldValues';
import { InvertedIndex } from './invertedIndex';
import { cloneJson, describe, isPlainObject } from './json';
import { IndexMapping, Mapping } from './mapping';
import { parseSearchQuery, runQuery } from './search';
import { ResolvedSort, SortKey, compareKeys, parseSort, resolveSort, searchAfterKey, sortKey, sortValue } from './sort';
import { filterSource, parseSourceFilter } from './source';

interface Match {
  doc: number;
  score: number;
  keys: SortKey[];
}

function checkWindow(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new InvalidQueryError(`${name} must be a non-negative integer, got ${describe(value)}`);
  return value;
}

export class SearchIndex {
  private readonly mapping: IndexMapping;
  private readonly index = new InvertedIndex();

  constructor(mapping?: Mapping) {
    this.mapping = new IndexMapping(mapping);
  }

  /** Add, or replace (a replaced document moves to the end of index order, as Lucene's delete+add does). */
  put(id: string, source: Doc): void {
    if (typeof id !== 'string') throw new TypeError('SearchIndex.put: the id must be a string');
    if (!isPlainObject(source)) throw new TypeError('SearchIndex.put: the source must be an object');
    const copy = cloneJson(source);
    this.index.add(id, copy, this.mapping.parse(copy));
  }

  remove(id: string): boolean {
    return this.index.remove(id);
  }

  get(id: string): Doc | undefined {
    const doc = this.index.ids.get(id);
    return doc === undefined ? undefined : cloneJson(this.index.record(doc)?.source);
  }

  get size(): number {
    return this.index.size;
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

    const sorts: ResolvedSort[] | null = sortClauses === null ? null : resolveSort(sortClauses, this.mapping, (field) => this.index.field(field));
    const needsScores = sorts === null || sorts.some((s) => s.kind === 'score');
    const scores = runQuery(parsed, this.mapping, this.index, needsScores);
    const total = scores.size;

    let matches: Match[] = [];
    for (const [doc, score] of scores) matches.push({ doc, score, keys: sorts === null ? [] : sorts.map((s) => sortKey(s, doc, score)) });
    if (sorts === null) {
      matches.sort((a, b) => b.score - a.score || a.doc - b.doc);
    } else {
      matches.sort((a, b) => {
        for (let i = 0; i < sorts.length; i++) {
          const c = compareKeys(sorts[i], a.keys[i], b.keys[i]);
          if (c !== 0) return c;
        }
        return a.doc - b.doc;
      });
      if (Array.isArray(after)) {
        const afterKeys = sorts.map((s, i) => searchAfterKey(s, after[i], `search_after[${i}]`));
        matches = matches.filter((m) => {
          for (let i = 0; i < sorts.length; i++) {
            const c = compareKeys(sorts[i], m.keys[i], afterKeys[i]);
            if (c !== 0) return c > 0;
          }
          return false; // equal to the search_after values: already returned
        });
      }
    }

    const hits: Hit[] = matches.slice(from, from + size).map((m) => {
      const record = this.index.record(m.doc);
      if (record === undefined) throw new Error(`internal: document ${m.doc} is not in the index`);
      const hit: Hit = { _id: record.id, _score: needsScores ? floatToJson(m.score) : null, _source: filterSource(record.source, sourceFilter) };
      if (sorts !== null) hit.sort = sorts.map((s, i) => (s.kind === 'score' ? floatToJson(m.keys[i] as number) : sortValue(s, m.keys[i])));
      return hit;
    });
    return { hits, total };
  }

  count(query: QueryDsl | undefined, filter?: QueryDsl | null): number {
    return runQuery(parseSearchQuery(query, filter), this.mapping, this.index, false).size;
  }
}
