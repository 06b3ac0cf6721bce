/**
 * The embedded store's request cache: the answer of a search or count, kept until the next write to
 * its collection (like Elasticsearch's shard request cache, which is also dropped on refresh, but
 * for hits too). A page of hits is kept as ids, scores, highlights, sort values and the stored source text, and
 * each answer gets fresh hit objects, so no caller can change what the next one receives.
 *
 * Not cached: queries with date math on `now` (their answer changes without any write), hits whose
 * source is not the stored text (`_source` filtering), pages of more than MAX_CACHED_HITS hits,
 * answers that timed out, and very long requests.
 */
import { HITS_BYTES, HITS_JSON, SOURCE_JSON, type CountResult, type Hit, type JsonText, type QueryDsl, type SearchRequest, type SearchResult } from '../port';
import { SharedJsonText, hitsJson } from '../hitsJson';
import { storedSourceHit, type SharedSource } from './engine/storedSourceHit';

/** The request members beyond the query and page that change an answer (a search without a key text is keyed by each). */
const SEARCH_MEMBERS = ['track_total_hits', 'terminate_after', 'min_score', 'post_filter', 'explain', 'collapse', 'fields', 'docvalue_fields', 'stored_fields'] as const;

const MAX_KEY_LENGTH = 4096;
/**
 * Pages of more hits are not kept: a thousand cached pages of 10,000 hits held gigabytes (what a
 * client varying big sorted searches makes of the cache), where frontends page by tens.
 */
export const MAX_CACHED_HITS = 100;
/** A string value starting with "now": date math relative to the current time. */
const NOW = /"now[^"]*"/;

interface CachedHit extends SharedSource {
  id: string;
  score: number | null;
  highlight: Record<string, string[]> | undefined;
  sort: unknown[] | undefined;
}

interface SearchEntry {
  kind: 'search';
  total: number;
  hits: CachedHit[];
  /** The answers of the search's aggregations (each cached answer gets its own copy). */
  aggregations?: Record<string, unknown>;
  /** The JSON text of the page of hits, written when first answered from the cache (a search never repeated does not pay for it). */
  json?: JsonText;
}

type Entry = SearchEntry | { kind: 'count'; total: number };

/** Own `hits` accessor, shared by every cached result (made in the class body, where it sees the private fields). */
let hitsDescriptor: PropertyDescriptor;

/**
 * A result answered from the cache: its hits are built only when read, so that an answer that only
 * passes them on (REST, raw WebSocket) copies the page's text (HITS_JSON) instead.
 */
class CachedResult {
  declare hits: Hit[];
  declare total: number;
  declare aggregations?: Record<string, unknown>;
  #entry: SearchEntry;
  #hits: Hit[] | undefined;

  static {
    hitsDescriptor = {
      enumerable: true,
      get(this: CachedResult): Hit[] {
        return (this.#hits ??= this.#entry.hits.map(materialize));
      },
      set(this: CachedResult, hits: Hit[]) {
        this.#hits = hits;
      },
    };
  }

  constructor(entry: SearchEntry) {
    this.#entry = entry;
    Object.defineProperty(this, 'hits', hitsDescriptor);
    this.total = entry.total;
    if (entry.aggregations !== undefined) this.aggregations = structuredClone(entry.aggregations);
  }

  /** On the prototype, not the result: copies and deep comparisons see a plain result. */
  get [HITS_JSON](): JsonText | undefined {
    if (this.#hits !== undefined) return undefined;
    const entry = this.#entry;
    return (entry.json ??= new SharedJsonText(hitsJson(entry.hits.map(materialize))));
  }
}

function materialize(h: CachedHit): Hit {
  const hit = storedSourceHit(h.id, h.score, h.json, h);
  if (h.highlight !== undefined) hit.highlight = structuredClone(h.highlight);
  if (h.sort !== undefined) hit.sort = structuredClone(h.sort);
  return hit;
}

/** Lookups of searches and counts the cache could answer (not the uncacheable ones), and the entries it holds. */
export interface SearchCacheStats {
  searchHits: number;
  searchMisses: number;
  countHits: number;
  countMisses: number;
  entries: number;
}

export class SearchCache {
  /** Per collection, least recently used first. */
  private readonly byCollection = new Map<string, Map<string, Entry>>();
  private size = 0;
  /**
   * Per collection, how many times it was invalidated: an answer that was still being computed
   * across a write (a search paused between slices) is not kept, since it may not show that write.
   */
  private readonly generations = new Map<string, number>();
  /** How many times everything was invalidated (invalidateAll). */
  private epoch = 0;

  /** Lookups of cacheable searches and counts since the start, answered from the cache (hits) or not (misses). */
  private readonly counts = { searchHits: 0, searchMisses: 0, countHits: 0, countMisses: 0 };

  /** @param maxEntries entries kept over all collections; 0 turns the cache off */
  constructor(private readonly maxEntries: number) {}

  /** How the cache did (metrics): its lookups since the start, and the entries it holds now. */
  stats(): SearchCacheStats {
    return { ...this.counts, entries: this.size };
  }

  /**
   * The cache key of a search, or null when it must not be cached: the request's own key when it
   * has one (its text, which costs no serialization; measured 5% of the CPU of a cached REST
   * search), else the request as JSON; then the filter. A key text with escapes is not used: an
   * escaped "now" would escape the date math check.
   */
  searchKey(request: SearchRequest, filter: QueryDsl | null): string | null {
    if (this.maxEntries === 0) return null;
    const filterJson = filter === null ? 'null' : JSON.stringify(filter);
    if (request.key !== undefined && !request.key.includes('\\')) return usable(`t${filterJson} ${request.key}`);
    return usable(`j${filterJson} ${JSON.stringify([request.query ?? null, request.from, request.size, request.sort ?? null, request.search_after ?? null, request._source ?? null, request.highlight ?? null, request.aggs ?? null, ...SEARCH_MEMBERS.map((m) => request[m] ?? null)])}`);
  }

  countKey(query: QueryDsl | undefined, filter: QueryDsl | null): string | null {
    if (this.maxEntries === 0) return null;
    return usable(JSON.stringify(['count', query ?? null, filter]));
  }

  /**
   * The answer of a search: from the cache, or from `run` (at once or as a promise), then kept
   * unless it timed out or a write to the collection happened meanwhile.
   */
  search(collection: string, request: SearchRequest, filter: QueryDsl | null, run: () => SearchResult | Promise<SearchResult>): SearchResult | Promise<SearchResult> {
    const key = this.searchKey(request, filter);
    if (key === null) return run();
    const entry = this.take(collection, key);
    if (entry?.kind === 'search') {
      this.counts.searchHits++;
      return new CachedResult(entry);
    }
    this.counts.searchMisses++;
    const unchanged = this.unchangedFrom(collection);
    const keep = (result: SearchResult): SearchResult => {
      if (result.timed_out !== true && unchanged()) this.keepSearch(collection, key, result);
      return result;
    };
    const result = run();
    return result instanceof Promise ? result.then(keep) : keep(result);
  }

  /** The answer of a count: from the cache, or from `run` (then kept, as for searches). */
  count(collection: string, query: QueryDsl | undefined, filter: QueryDsl | null, run: () => CountResult | Promise<CountResult>): CountResult | Promise<CountResult> {
    const key = this.countKey(query, filter);
    if (key === null) return run();
    const entry = this.take(collection, key);
    if (entry?.kind === 'count') {
      this.counts.countHits++;
      return { count: entry.total };
    }
    this.counts.countMisses++;
    const unchanged = this.unchangedFrom(collection);
    const keep = (result: CountResult): CountResult => {
      if (result.timed_out !== true && unchanged()) this.put(collection, key, { kind: 'count', total: result.count });
      return result;
    };
    const result = run();
    return result instanceof Promise ? result.then(keep) : keep(result);
  }

  /** Keeps a result just computed (before anyone read its hits' sources). */
  private keepSearch(collection: string, key: string, result: SearchResult): void {
    // (a large page kept as text is not read as hits: that would make them)
    if (result[HITS_BYTES] !== undefined || result.hits.length > MAX_CACHED_HITS) return;
    const hits: CachedHit[] = [];
    for (const hit of result.hits) {
      const json = hit[SOURCE_JSON];
      if (json === undefined) return; // a filtered or object-kept source: not cached
      const highlight = hit.highlight === undefined ? undefined : structuredClone(hit.highlight);
      hits.push({ id: hit._id, score: hit._score, highlight, sort: hit.sort === undefined ? undefined : structuredClone(hit.sort), json });
    }
    const entry: SearchEntry = { kind: 'search', total: result.total, hits };
    if (result.aggregations !== undefined) entry.aggregations = structuredClone(result.aggregations);
    this.put(collection, key, entry);
  }

  /** Whether, when called, no write to the collection happened since now. */
  private unchangedFrom(collection: string): () => boolean {
    const generation = this.generations.get(collection);
    const epoch = this.epoch;
    return () => this.generations.get(collection) === generation && this.epoch === epoch;
  }

  /** Everything is stale (the store reloaded all its indices). */
  invalidateAll(): void {
    this.epoch++;
    for (const collection of [...this.byCollection.keys()]) this.invalidate(collection);
  }

  /** A write to the collection: everything cached for it is stale. */
  invalidate(collection: string): void {
    this.generations.set(collection, (this.generations.get(collection) ?? 0) + 1);
    const entries = this.byCollection.get(collection);
    if (entries === undefined) return;
    this.size -= entries.size;
    this.byCollection.delete(collection);
  }

  private take(collection: string, key: string): Entry | undefined {
    const entries = this.byCollection.get(collection);
    const entry = entries?.get(key);
    if (entries === undefined || entry === undefined) return undefined;
    entries.delete(key); // most recently used goes last
    entries.set(key, entry);
    return entry;
  }

  private put(collection: string, key: string, entry: Entry): void {
    let entries = this.byCollection.get(collection);
    if (entries === undefined) {
      entries = new Map();
      this.byCollection.set(collection, entries);
    }
    if (!entries.has(key)) this.size++;
    entries.set(key, entry);
    while (this.size > this.maxEntries) this.evictOne();
  }

  /** Drops the least recently used entry of the collection holding the most. */
  private evictOne(): void {
    let largest: Map<string, Entry> | undefined;
    for (const entries of this.byCollection.values()) if (largest === undefined || entries.size > largest.size) largest = entries;
    if (largest === undefined) return;
    const oldest = largest.keys().next().value as string;
    largest.delete(oldest);
    this.size--;
  }
}

function usable(key: string): string | null {
  return key.length > MAX_KEY_LENGTH || (key.includes('"now') && NOW.test(key)) ? null : key;
}
