/**
 * One index, answering like a one-shard Elasticsearch 8 index: documents in, hits out with
 * Elasticsearch's matching, order and scores (see the modules it assembles: mapping, analyzer,
 * fieldIndex, similarity, lucene/*, query/*, sort, source).
 */
import { CountResult, Doc, InvalidDocumentError, InvalidQueryError, QueryDsl, SearchRejectedError, SearchRequest, SearchResult, Hit, InnerHits } from '../../port';
import { floatToJson } from './fieldValues';
import { InvertedIndex } from './invertedIndex';
import { describe, isPlainObject, setOwn } from './json';
import { Collector, TopHit, TopScoreCollector, TopSortedCollector, collectSteps, firstDocs } from './lucene/topDocs';
import { IndexMapping, Mapping } from './mapping';
import { copyGeoPoints, declareGeoPoint, geoPointFields } from './geo/geoColumn';
import type { StateReader, StateWriter } from './persist/state';
import { evaluateSteps } from './lucene/evaluate';
import { Budget, Steps, TimeExceeded, UNLIMITED, runToEnd } from './budget/budget';
import { searchAggregations } from './aggregations/aggregate';
import { hasTopHits, parseAggregations } from './aggregations/parse';
import { runSliced } from '../../../scheduler/scheduler';
import { DEFAULT_LIMITS, QueryLimits } from './limits';
import { Matches } from './lucene/matches';
import { disjunctionShape, runDisjunction } from './lucene/termDisjunction';
import { rangeSortPlan, rangeSortSteps } from './lucene/rangeSort';
import { buildQuery, buildQuerySteps, parseSearchQuery, parseSearchQuerySteps } from './search';
import { SortOrdinals } from './sortOrdinals';
import { ResolvedSort, SortKey, compareKeys, compareRanked, hitSortValues, parseSort, ranked, resolveSort, searchAfterKey, sortKey } from './sort';
import { SourceFilter, filterSource } from './source';
import { parseRequestOptions } from './collect/requestOptions';
import { withMinScore, withPostFilter, terminateAfter } from './collect/hitFilters';
import { TRACK_ALL, countNeeded, totalHits } from './collect/totalHits';
import { firstDocsSteps } from './lucene/firstDocs';
import { CollapseRequest, Group, checkCollapseField, collapseKeyReader, collapseSteps, collapseValue } from './collapse';
import { FetchOptions, plainFetch } from './fetch/fetchOptions';
import { checkFieldRequests, hitFields } from './fetch/hitFields';
import { Explainer } from './explain/explainHit';
import { parseHighlight } from './highlight/options';
import { PageHighlighter } from './highlight/pageHighlighter';
import { storedSourceHit } from './storedSourceHit';
import { PageText, TEXT_PAGE_HITS, pageTextResult } from './pageText';
import { applyDeclaredMapping } from './declaredMapping';
import type { TypeMapping } from '../../mapping/typeMapping';
import { NestedInnerHits, nestedInnerHitQueries } from './nested/innerHits';
import { CheckEvery } from './budget/checkEvery';

function checkWindow(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new InvalidQueryError(`${name} must be a non-negative integer, got ${describe(value)}`);
  return value;
}

/**
 * Hits built between two looks at the clock (a page may hold 10,000 of them), at most: each hit may
 * read its source, its id and its keyword sort values from disk (spilled), so the clock is also
 * looked at after READS_PER_CHECK reads (CheckEvery): 256 hits of bench:abuse's sorted pages held
 * the event loop 9-10 ms.
 */
const HITS_PER_CHECK = 256;

/** A costly search refused by the scheduler's admission (src/scheduler/scheduler.ts). */
const searchRejected = (running: number, queued: number): Error => new SearchRejectedError(running, queued);

/** Compaction happens once removed documents outnumber live ones, and at least `minDead` of them (tests lower it). */
export const COMPACTION = { minDead: 1024 };

export interface SearchIndexOptions {
  limits?: QueryLimits;
  /** Budget of a search that sets no `timeout`, in ms (default: none). */
  timeoutMs?: number;
  /** Longest a search runs before giving the event loop back, in ms (default: never pauses). */
  sliceMs?: number;
  /** The budget's clock (tests): milliseconds from some origin. */
  clock?: () => number;
  /**
   * Where stored sources go once a chunk of them (4 MB) is full: a spill file in this directory,
   * read back a source at a time (sourceStore.ts; the store's DATA_DIR). None: all in memory.
   */
  spillDir?: string;
  /**
   * A keyword field every document's source holds its id in (the store's entities: `id`): the ids
   * are that field's dictionary instead of a copy of it (InvertedIndex.keyTerms). Kept in the index
   * file with the index.
   */
  idField?: string;
}

export class SearchIndex {
  private readonly mapping: IndexMapping;
  private index: InvertedIndex;
  /** Changes so far (documents, mapping): a snapshot being written checks it did not change (persist/). */
  changes = 0;
  private readonly limits: QueryLimits;
  private readonly timeoutMs: number;
  private readonly sliceMs: number;
  private readonly clock: (() => number) | undefined;
  /**
   * Searches of this index paused between two slices. They read the index as it was when they
   * started, so writes wait for them (`deferred`, applied in order when the last one ends), and so
   * does every search that comes after such a write (it must see it): read-your-writes holds, and a
   * write waits at most for the longest paused search's time budget.
   */
  private paused = 0;
  private deferred: { id: string; source: Doc | null }[] = [];
  private readonly deferredById = new Map<string, Doc | null>();
  private flushWaiters: (() => void)[] = [];

  /** @param restored the mapping and documents read from an index file (readState) */
  constructor(mapping?: Mapping, options: SearchIndexOptions = {}, restored?: { mapping: IndexMapping; index: InvertedIndex }) {
    this.mapping = restored?.mapping ?? new IndexMapping(mapping);
    this.index = restored?.index ?? new InvertedIndex(true, options.spillDir, options.idField);
    this.limits = options.limits ?? DEFAULT_LIMITS;
    this.timeoutMs = options.timeoutMs ?? Infinity;
    this.sliceMs = options.sliceMs ?? Infinity;
    this.clock = options.clock;
    this.spillDir = options.spillDir;
  }

  private readonly spillDir: string | undefined;

  /**
   * Add, or replace (a replaced document moves to the end of index order, as Lucene's delete+add does).
   * `json`: JSON.stringify(source), when the caller has made it already (the store, for SQLite): the
   * source is then kept as that text instead of being serialized again (SourceStore.put).
   */
  put(id: string, source: Doc, json?: string): void {
    if (typeof id !== 'string') throw new TypeError('SearchIndex.put: the id must be a string');
    if (!isPlainObject(source)) throw new TypeError('SearchIndex.put: the source must be an object');
    if (this.paused > 0) return this.defer(id, source);
    this.changes++;
    this.index.addSource(id, source, this.mapping, json);
    this.compactIfWorthIt();
  }

  remove(id: string): boolean {
    if (this.paused > 0) {
      const present = this.get(id) !== undefined;
      if (present) this.defer(id, null);
      return present;
    }
    const removed = this.index.remove(id);
    this.changes++;
    if (removed) this.compactIfWorthIt();
    return removed;
  }

  get(id: string): Doc | undefined {
    if (this.deferredById.has(id)) return this.deferredById.get(id) ?? undefined;
    const doc = this.index.docOf(id);
    return doc === undefined ? undefined : this.index.sourceOf(doc);
  }

  get size(): number {
    return this.index.size;
  }

  /** A copy of the index's mapping as it is now (what single-document matchers map with: matcher.ts). */
  mappingCopy(): IndexMapping {
    const copy = this.mapping.copy();
    copyGeoPoints(this.mapping, copy);
    return copy;
  }

  /** Applies a declared mapping (README "Mappings") to the field types; documents already indexed stay as they are, as in Elasticsearch. */
  declareMapping(mapping: TypeMapping): void {
    this.changes++;
    applyDeclaredMapping(this.mapping, mapping);
  }

  /**
   * Whether the state can be written now: false while writes wait for paused searches (they are
   * committed and counted as applied by the store, but not in the index yet).
   */
  get settled(): boolean {
    return this.deferred.length === 0;
  }

  /** For the index file (persist/): the mapping (with its geo_point fields) and the documents, as they are. */
  writeState(w: StateWriter): void {
    if (!this.settled) throw new Error('internal: an index with deferred writes cannot be written');
    this.mapping.writeState(w);
    w.json(geoPointFields(this.mapping));
    this.index.writeState(w);
  }

  /** An index as `writeState` wrote it, with these options (not written: they are the process's). */
  static readState(r: StateReader, options: SearchIndexOptions = {}): SearchIndex {
    const mapping = IndexMapping.readState(r);
    for (const field of r.json<string[]>()) declareGeoPoint(mapping, field);
    return new SearchIndex(undefined, options, { mapping, index: InvertedIndex.readState(r, options.spillDir) });
  }

  /** The type a field is mapped with now, as Elasticsearch names it ('object' for objects), or undefined. */
  mappedType(path: string): string | undefined {
    return this.mapping.isObject(path) ? 'object' : this.mapping.type(path);
  }

  /** The query's limits (single-document matchers parse with the same). */
  get queryLimits(): QueryLimits {
    return this.limits;
  }

  /**
   * Throws InvalidDocumentError when mapping these documents would take the index past its field
   * limit (Elasticsearch's index.mapping.total_fields.limit, MAX_FIELDS): checked before a write is
   * committed, since an entity of 20,000 fields took seconds to index. Else answers how many fields
   * they would add (0: indexing them leaves the mapping as it is).
   */
  checkFields(sources: readonly Doc[]): number {
    const limit = this.limits.maxFields;
    const room = limit - this.mapping.fieldCount;
    const added = this.mapping.newFieldCount(sources, room);
    if (added > room) throw new InvalidDocumentError(`Limit of total fields [${limit}] has been exceeded while adding new fields [${added}] (MAX_FIELDS, index.mapping.total_fields.limit in Elasticsearch)`);
    return added;
  }

  private defer(id: string, source: Doc | null): void {
    this.deferred.push({ id, source });
    this.deferredById.set(id, source);
  }

  /** The last paused search ended: apply the writes that waited for it, then let waiting searches run. */
  private flush(): void {
    const writes = this.deferred;
    this.deferred = [];
    this.deferredById.clear();
    for (const { id, source } of writes) {
      if (source === null) this.remove(id);
      else this.put(id, source);
    }
    const waiters = this.flushWaiters;
    this.flushWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Runs `run` once the deferred writes are applied. */
  private afterFlush<T>(run: () => T | Promise<T>): Promise<T> {
    return new Promise<void>((resolve) => this.flushWaiters.push(resolve)).then(run);
  }

  /** Runs steps a slice at a time (src/scheduler/scheduler.ts), counting them as paused while they are. */
  private sliced<T>(steps: Steps<T>, budget: Budget): T | Promise<T> {
    // once costly, a search may wait for a place, or be refused (SEARCH_CONCURRENCY, SEARCH_QUEUE_SIZE)
    const out = runSliced(steps, budget, searchRejected);
    if (!(out instanceof Promise)) return out;
    this.paused++;
    const done = () => {
      if (--this.paused === 0 && this.deferred.length + this.flushWaiters.length > 0) this.flush();
    };
    out.then(done, done);
    return out;
  }

  /**
   * Rebuild the index from its live documents, in the same order, when tombstones outnumber them:
   * postings, per-document arrays and caches then only hold live documents (renumbered).
   */
  private compactIfWorthIt(): void {
    const old = this.index;
    if (old.dead < COMPACTION.minDead || old.dead <= old.size) return;
    const fresh = new InvertedIndex(true, this.spillDir, old.idField);
    for (const doc of old.live) {
      const source = old.sourceOf(doc) as Doc;
      fresh.addSource(old.idOfDoc(doc) as string, source, this.mapping);
    }
    this.index = fresh;
  }

  /**
   * A search run to its end at once: no time budget, never pauses (tests, API keys). from/size are
   * already validated by the caller (non-negative integers). `filter`, when given, is a non-scoring
   * filter: the search behaves exactly as Elasticsearch does for
   * {bool: {must: [query ?? {match_all: {}}], filter: [filter]}}.
   */
  search(request: SearchRequest, filter?: QueryDsl | null): SearchResult {
    return runToEnd(this.searchSteps(request, filter, UNLIMITED));
  }

  /**
   * A search within its time budget (`request.timeout`, else the index's), paused every slice: the
   * result at once when it finishes within its first slice, else its promise.
   */
  searchSliced(request: SearchRequest, filter?: QueryDsl | null): SearchResult | Promise<SearchResult> {
    if (this.deferred.length > 0) return this.afterFlush(() => this.searchSliced(request, filter));
    const budget = new Budget(request.timeout ?? this.timeoutMs, this.sliceMs, this.clock);
    return this.sliced(this.searchSteps(request, filter, budget), budget);
  }

  private *searchSteps(request: SearchRequest, filter: QueryDsl | null | undefined, budget: Budget): Steps<SearchResult> {
    const from = checkWindow('from', request.from);
    const size = checkWindow('size', request.size);
    const aggs = request.aggs === undefined ? null : parseAggregations(request.aggs, this.limits);
    const sortClauses = parseSort(request.sort);
    const options = parseRequestOptions(request, this.limits);
    const parsed = yield* parseSearchQuerySteps(request.query, filter, this.limits, budget);
    const highlight = request.highlight === undefined ? null : parseHighlight(request.highlight, this.limits);
    const after = request.search_after;
    if (after !== undefined && after !== null) {
      if (!Array.isArray(after)) throw new InvalidQueryError(`search_after must be an array, got ${describe(after)}`);
      if (sortClauses === null) throw new InvalidQueryError('search_after requires a sort (and a sort on _score descending alone is no sort)');
      if (after.length !== sortClauses.length) throw new InvalidQueryError(`search_after has ${after.length} value(s) but sort has ${sortClauses.length}`);
      if (from > 0) throw new InvalidQueryError('from must be 0 when search_after is used');
    }
    checkFieldRequests(options.fetch.fields, this.mapping, false);
    checkFieldRequests(options.fetch.docvalueFields, this.mapping, true);
    const collapse = options.collapse;
    if (collapse !== null) checkCollapseField(collapse, this.mapping);

    const index = this.index;
    // FieldSortBuilder.validateMissingNestedPath: a nested object's field has no value in the document (the `nested` sort option is not supported)
    for (const clause of sortClauses ?? []) if (clause.geo === undefined && this.mapping.isInsideNested(clause.field)) throw new InvalidQueryError(`it is mandatory to set the [nested] context on the nested sort field: [${clause.field}].`);
    const sorts: ResolvedSort[] | null = sortClauses === null ? null : resolveSort(sortClauses, this.mapping, (field) => index.field(field), index);
    const needsScores = sorts === null || sorts.some((s) => s.kind === 'score') || (aggs !== null && hasTopHits(aggs)) || options.minScore !== null;
    const afterKeys = sorts !== null && Array.isArray(after) ? sorts.map((s, i) => searchAfterKey(s, after[i], `search_after[${i}]`)) : null;
    const now = Date.now();
    const query = yield* buildQuerySteps(parsed, this.mapping, now, this.limits, budget);
    // what filters the matches between the query and the collectors (collect/hitFilters.ts)
    const filtering = options.minScore !== null || options.postFilter !== null || options.terminateAfter > 0 || collapse !== null;
    const shape = sorts === null && !filtering && (aggs === null || !hasTopHits(aggs)) ? disjunctionShape(query, this.index) : null;
    let counted: number;
    let top: TopHit<SortKey>[] = [];
    let groups: Group<TopHit<SortKey>>[] | null = null;
    let pageMatches = Matches.EMPTY;
    let timedOut = false;
    let terminated = false;
    let matched = Matches.EMPTY;
    // keyword keys as term ordinals while collecting (sortOrdinals.ts): the page's keys are made text as its hits are written
    let ordinals: SortOrdinals | null = null;
    const early = shape === null && options.track !== TRACK_ALL && sorts === null && aggs === null && !filtering ? yield* firstDocsSteps(query, index, Math.max(from + size, countNeeded(options.track)), needsScores, budget) : null;
    const rangePlan = early === null && shape === null && sorts !== null && !needsScores && aggs === null && !filtering ? rangeSortPlan(query, sorts, index) : null;
    if (early !== null) {
      // the total need not be exact and every score is equal: the first documents, counted up to the bound (lucene/firstDocs.ts)
      counted = early.size;
      for (let i = 0; i < Math.min(from + size, early.size); i++) top.push({ doc: early.docs[i], score: early.score, keys: [] });
    } else if (shape !== null) {
      // term disjunction (at most 16 terms): counted and ranked in one pass, scoring only what can make the page
      // (the aggregations need every match, not its score: the pass that counts them lists them too)
      const result = runDisjunction(shape, index, from + size, aggs !== null);
      counted = result?.total ?? 0;
      top = result?.top ?? [];
      if (result?.docs !== undefined) matched = Matches.list(result.docs, result.total, null, 0);
    } else if (rangePlan !== null) {
      // sorted on a numeric field the query requires a range of: its values walked in order (lucene/rangeSort.ts)
      const collector = this.sortedCollector(sorts!, afterKeys, from + size);
      try {
        counted = yield* rangeSortSteps(rangePlan, index, collector, from + size, afterKeys?.[0] ?? null, budget);
        top = yield* collector.topSteps(budget);
      } catch (err) {
        if (!(err instanceof TimeExceeded)) throw err;
        timedOut = true;
        top = collector.top();
        counted = collector.collected;
      }
    } else {
      let collector: Collector<SortKey> | null = null;
      try {
        let matches = (yield* evaluateSteps(query, index, 1, needsScores, budget)) ?? Matches.EMPTY;
        if (options.minScore !== null) matches = withMinScore(matches.toList(), options.minScore);
        matched = matches;
        if (options.postFilter !== null) {
          const post = buildQuery({ main: options.postFilter, filter: null }, this.mapping, now, this.limits);
          matches = withPostFilter(matches, yield* evaluateSteps(post, index, 1, false, budget), needsScores);
        }
        if (options.terminateAfter > 0) {
          const cut = terminateAfter(matches, matched, options.terminateAfter);
          ({ hits: matches, aggs: matched, terminated } = cut);
        }
        const k = Math.min(from + size, matches.size);
        if (collapse !== null) {
          pageMatches = matches.toList();
          groups = yield* this.collapseGroups(collapse.field, pageMatches, sorts, afterKeys, budget);
          top = groups.slice(0, from + size).map((g) => g.best);
        } else if (sorts === null && matches.scores === null) {
          top = firstDocs(matches, k); // every score equal: index order
        } else {
          if (sorts !== null) ordinals = yield* SortOrdinals.steps(sorts, matches.size, budget);
          collector = sorts === null ? new TopScoreCollector(k) : this.sortedCollector(sorts, afterKeys, k, ordinals);
          yield* collectSteps(collector, matches, budget);
          top = yield* collector.topSteps(budget);
        }
        counted = matches.size;
      } catch (err) {
        if (!(err instanceof TimeExceeded)) throw err;
        // Elasticsearch's answer past the deadline: what was collected, counted as the total
        timedOut = true;
        top = collector?.top() ?? [];
        counted = collector?.collected ?? 0;
      }
    }

    // highlighting: the returned hits only, within the search's budget (a search past its deadline stops highlighting)
    let highlighter: PageHighlighter | null = null;
    if (highlight !== null && top.length > from && !timedOut) {
      try {
        highlighter = yield* PageHighlighter.create(highlight, parsed.main, this.mapping, now, this.limits, index, budget);
      } catch (err) {
        if (!(err instanceof TimeExceeded)) throw err;
        timedOut = true;
      }
    }
    const fetch = options.fetch;
    const nestedQueries = nestedInnerHitQueries(query);
    // a large page of plain hits: written as JSON text as it is fetched, no hit object made (pageText.ts)
    const textPage = top.length - from > TEXT_PAGE_HITS && collapse === null && highlighter === null && !options.explain && nestedQueries.length === 0 && plainFetch(fetch);
    const sortValues = (keys: SortKey[]) => hitSortValues(sorts!, ordinals === null ? keys : ordinals.text(keys));
    const page = textPage ? yield* this.pageTextSteps(index, top, from, needsScores, sorts === null ? null : sortValues, fetch, budget) : null;
    if (page !== null) top = []; // (its hits are the page's text: what the collector kept can go)
    const hits: Hit[] = [];
    // the caller's query alone: the visibility filter never scores, and is not to be shown (explain/explainHit.ts)
    const explainer = options.explain && top.length > from ? new Explainer(buildQuery({ main: parsed.main, filter: null }, this.mapping, now, this.limits), index) : null;
    // `nested` queries' inner_hits: the page's hits' own matching objects (nested/innerHits.ts)
    const nestedHits = new NestedInnerHits(nestedQueries, index, this.mapping, { now, limits: this.limits });
    const check = new CheckEvery(HITS_PER_CHECK);
    for (let i = from; i < top.length; i++) {
      const m = top[i];
      const hit = this.fetchHit(index, m.doc, needsScores ? floatToJson(m.score) : null, fetch.source, fetch);
      if (collapse !== null && groups !== null) {
        const group = groups[i];
        (hit.fields ??= {})[collapse.field] = [collapseValue(group.key, this.mapping.type(collapse.field))];
        if (collapse.innerHits.length > 0) hit.inner_hits = this.innerHits(index, collapse, group, pageMatches);
      }
      if (!nestedHits.isEmpty && !timedOut) {
        try {
          hit.inner_hits = { ...hit.inner_hits, ...(yield* nestedHits.hitsSteps(m.doc, hit._id, index.sourceOf(m.doc) ?? {}, null, budget)) };
        } catch (err) {
          if (!(err instanceof TimeExceeded)) throw err;
          timedOut = true;
        }
      }
      if (highlighter !== null && !highlighter.isEmpty && !timedOut) {
        try {
          const fragments = yield* highlighter.hit(m.doc, hit._id, index.sourceOf(m.doc) as Doc, budget);
          if (fragments !== undefined) hit.highlight = fragments;
        } catch (err) {
          if (!(err instanceof TimeExceeded)) throw err;
          timedOut = true;
        }
      }
      if (sorts !== null) hit.sort = sortValues(m.keys);
      if (explainer !== null) hit._explanation = explainer.explain(m.doc);
      hits.push(hit);
      if (check.step() && budget.sliceOver()) yield;
    }
    const total = totalHits(counted, timedOut ? TRACK_ALL : options.track);
    const result: SearchResult = page === null ? { hits, total: total.total } : pageTextResult(page, { total: total.total });
    if (total.relation !== undefined) result.total_relation = total.relation;
    if (options.terminateAfter > 0) result.terminated_early = terminated;
    if (timedOut) result.timed_out = true;
    if (aggs !== null) {
      // over what the search matched (its query and the caller's filter); past the deadline, over nothing
      const answered = yield* searchAggregations({ nodes: aggs, index, mapping: this.mapping, limits: this.limits, now: Date.now(), budget, matches: matched, filter: parsed.filter }, timedOut);
      result.aggregations = answered.aggregations;
      if (answered.timedOut) result.timed_out = true;
    }
    return result;
  }

  /**
   * A page of plain hits (no highlight, inner hits, explanation or fields; the whole source or none)
   * as JSON text: each stored source copied into the page's buffers, hits whose source is kept as an
   * object (not JSON text) written from their object.
   */
  private *pageTextSteps(index: InvertedIndex, top: TopHit<SortKey>[], from: number, needsScores: boolean, sortValues: ((keys: SortKey[]) => unknown[]) | null, fetch: FetchOptions, budget: Budget): Steps<PageText> {
    const page = new PageText();
    const check = new CheckEvery(HITS_PER_CHECK);
    for (let i = from; i < top.length; i++) {
      const m = top[i];
      const score = needsScores ? floatToJson(m.score) : null;
      const sort = sortValues === null ? undefined : sortValues(m.keys);
      const bytes = fetch.source === null ? null : index.sourceBytesOf(m.doc);
      if (bytes === undefined) {
        const hit = this.fetchHit(index, m.doc, score, fetch.source, fetch);
        if (sort !== undefined) hit.sort = sort;
        page.addObject(hit);
      } else {
        const id = index.idOfDoc(m.doc);
        if (id === undefined) throw new Error(`internal: document ${m.doc} is not in the index`);
        page.add(id, score, bytes, sort);
      }
      if (check.step() && budget.sliceOver()) yield;
    }
    return page;
  }

  /**
   * One hit: `_id`, `_score`, its `_source` (the whole source still as stored text, parsed only if
   * someone reads it: storedSourceHit.ts; filtered; or none) and its `fields`.
   */
  private fetchHit(index: InvertedIndex, doc: number, score: number | null, source: SourceFilter | null, fetch: FetchOptions): Hit {
    const id = index.idOfDoc(doc);
    if (id === undefined) throw new Error(`internal: document ${doc} is not in the index`);
    const whole = source !== null && source.includes.length === 0 && source.excludes.length === 0;
    const json = whole ? index.sourceJsonOf(doc) : undefined;
    let hit: Hit;
    if (json !== undefined) hit = storedSourceHit(id, score, json);
    else {
      hit = { _id: id, _score: score };
      if (source !== null) {
        const stored = index.sourceOf(doc);
        if (stored === undefined) throw new Error(`internal: document ${doc} is not in the index`);
        hit._source = filterSource(stored, source, true);
      }
    }
    if (fetch.fields.length > 0 || fetch.docvalueFields.length > 0) {
      const fields = hitFields(index.sourceOf(doc) as Doc, this.mapping, fetch.fields, fetch.docvalueFields);
      if (Object.keys(fields).length > 0) hit.fields = fields;
    }
    return hit;
  }

  /** The groups of `collapse` over the matches, best group first (collapse.ts). */
  private *collapseGroups(field: string, list: Matches, sorts: ResolvedSort[] | null, afterKeys: SortKey[] | null, budget: Budget): Steps<Group<TopHit<SortKey>>[]> {
    const keyOf = collapseKeyReader(field, this.index.field(field));
    const docs = list.docs as Int32Array;
    if (sorts === null) {
      const byScore = (a: TopHit<SortKey>, b: TopHit<SortKey>) => b.score - a.score || a.doc - b.doc;
      return yield* collapseSteps(docs, list.size, keyOf, (i) => ({ doc: docs[i], score: list.scoreAt(i), keys: [] }), byScore, () => budget.due());
    }
    const compareKeyLists = (a: SortKey[], b: SortKey[]) => {
      for (let j = 0; j < sorts.length; j++) {
        const c = compareKeys(sorts[j], a[j], b[j]);
        if (c !== 0) return c;
      }
      return 0;
    };
    const hitAt = (i: number): TopHit<SortKey> | null => {
      const keys = sorts.map((s) => sortKey(s, docs[i], list.scoreAt(i)));
      if (afterKeys !== null && compareKeyLists(keys, afterKeys) <= 0) return null;
      return { doc: docs[i], score: list.scoreAt(i), keys };
    };
    return yield* collapseSteps(docs, list.size, keyOf, hitAt, (a, b) => compareKeyLists(a.keys, b.keys) || a.doc - b.doc, () => budget.due());
  }

  /** A group's `inner_hits`: its members in each definition's order, that definition's page. */
  private innerHits(index: InvertedIndex, collapse: CollapseRequest, group: Group<TopHit<SortKey>>, list: Matches): Record<string, InnerHits> {
    const out: Record<string, InnerHits> = {};
    const docs = list.docs as Int32Array;
    const noFields: FetchOptions = { source: null, fields: [], docvalueFields: [] };
    for (const inner of collapse.innerHits) {
      const sorts = inner.sort === null ? null : resolveSort(inner.sort, this.mapping, (field) => index.field(field), index);
      const members = group.members.map((i) => ranked(sorts, docs[i], list.scoreAt(i))).sort(compareRanked(sorts));
      const scored = sorts === null || sorts.some((s) => s.kind === 'score');
      const hits = members.slice(inner.from, inner.from + inner.size).map((m) => {
        const hit = this.fetchHit(index, m.doc, scored ? floatToJson(m.score) : null, inner.source, noFields);
        if (sorts !== null) hit.sort = hitSortValues(sorts, m.keys);
        return hit;
      });
      const maxScore = scored && members.length > 0 ? floatToJson(Math.max(...members.map((m) => m.score))) : null;
      setOwn(out, inner.name, { hits: { total: members.length, max_score: maxScore, hits } });
    }
    return out;
  }

  /** `ordinals`: keyword keys as term ordinals (sortOrdinals.ts); the caller turns the kept hits' keys back into text. */
  private sortedCollector(sorts: ResolvedSort[], afterKeys: SortKey[] | null, k: number, ordinals: SortOrdinals | null = null): TopSortedCollector<SortKey> {
    // the sort key by key; all keys at once are the same, clause after clause
    const key = ordinals === null ? (j: number, doc: number, score: number) => sortKey(sorts[j], doc, score) : (j: number, doc: number, score: number) => ordinals.key(j, doc, score);
    const byKey = { key, compare: (j: number, a: SortKey, b: SortKey) => compareKeys(sorts[j], a, b) };
    if (ordinals !== null && afterKeys !== null) afterKeys = ordinals.afterKeys(afterKeys);
    const compare = (a: SortKey[], b: SortKey[]) => {
      for (let i = 0; i < sorts.length; i++) {
        const c = byKey.compare(i, a[i], b[i]);
        if (c !== 0) return c;
      }
      return 0;
    };
    const keysOf = (doc: number, score: number, out: SortKey[]) => {
      for (let i = 0; i < sorts.length; i++) out[i] = byKey.key(i, doc, score);
    };
    // search_after: only hits after the given values (equal ones were already returned)
    const accept = afterKeys === null ? null : (keys: SortKey[]) => compare(keys, afterKeys) > 0;
    return new TopSortedCollector(k, sorts.length, keysOf, compare, accept, byKey);
  }

  /** A count run to its end at once (tests, API keys). */
  count(query: QueryDsl | undefined, filter?: QueryDsl | null): number {
    return runToEnd(this.countSteps(query, filter, UNLIMITED)).count;
  }

  /** A count within the index's time budget, paused every slice (see searchSliced). */
  countSliced(query: QueryDsl | undefined, filter?: QueryDsl | null): CountResult | Promise<CountResult> {
    if (this.deferred.length > 0) return this.afterFlush(() => this.countSliced(query, filter));
    const budget = new Budget(this.timeoutMs, this.sliceMs, this.clock);
    return this.sliced(this.countSteps(query, filter, budget), budget);
  }

  private *countSteps(query: QueryDsl | undefined, filter: QueryDsl | null | undefined, budget: Budget): Steps<CountResult> {
    const built = buildQuery(parseSearchQuery(query, filter, this.limits), this.mapping, Date.now(), this.limits);
    const shape = disjunctionShape(built);
    if (shape !== null) return { count: runDisjunction(shape, this.index, 0)?.total ?? 0 };
    try {
      return { count: (yield* evaluateSteps(built, this.index, 1, false, budget))?.size ?? 0 };
    } catch (err) {
      if (!(err instanceof TimeExceeded)) throw err;
      return { count: 0, timed_out: true };
    }
  }
}
