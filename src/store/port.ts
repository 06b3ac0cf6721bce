/**
 * The storage port: what the core asks of a store. One implementation per backend
 * (src/store/embedded, src/store/elasticsearch), all held to test/conformance.
 *
 * A store knows nothing of JWTs or principals: the core hands it a visibility filter, a query DSL
 * clause that the store applies as a non-scoring filter inside the query itself.
 */

import type { MappingUpdate, TypeMapping } from './mapping/typeMapping';
import type { MappingError } from './mapping/mappingError';

export type Doc = Record<string, unknown>;

/** A query DSL clause (Elasticsearch 8 syntax), validated by the store that runs it. */
export type QueryDsl = Record<string, unknown>;

export interface SearchRequest {
  query?: QueryDsl;
  sort?: unknown;
  search_after?: unknown[];
  _source?: unknown;
  from: number;
  size: number;
  /**
   * Identifies the request when its text is known (the JSON body as sent, with the page it asks
   * for): requests with equal keys are equal. A store may use it as a cache key instead of
   * serializing the request.
   */
  key?: string;
  /** Time budget in ms (the body's `timeout`); absent: the store's default (SEARCH_TIMEOUT). */
  timeout?: number;
  /** The body's `aggs` (or `aggregations`), Elasticsearch's, validated by the store that runs it. */
  aggs?: Record<string, unknown>;
  /** The body's `highlight` (Elasticsearch's), validated by the store that runs it. */
  highlight?: Record<string, unknown>;
  /** true (the default here): `total` exact; false: not counted (`total` -1); a number: counted up to it (Elasticsearch's `track_total_hits`). */
  track_total_hits?: boolean | number;
  /** Stop collecting after this many hits (after `post_filter` and `min_score`); 0: never. */
  terminate_after?: number;
  /** Hits scoring less are left out of the hits, the total and the aggregations. */
  min_score?: number;
  /** A query DSL clause filtering the hits and the total, not the aggregations. */
  post_filter?: QueryDsl;
  /** Each hit with its `_explanation` (Elasticsearch's explanation tree of its score). */
  explain?: boolean;
  /** Elasticsearch's `collapse` ({field, inner_hits?}), validated by the store that runs it. */
  collapse?: Record<string, unknown>;
  /** Elasticsearch's `fields`, `docvalue_fields` and `stored_fields`, validated by the store that runs them. */
  fields?: unknown[];
  docvalue_fields?: unknown[];
  stored_fields?: string | string[];
}

/**
 * On a hit whose `_source` nobody has read yet: the UTF-8 JSON text `_source` parses from. A
 * transport may copy these bytes into its answer instead of serializing `_source` again (see
 * src/transport/envelopeJson.ts). Reading `_source` parses them and removes this key, since the object read
 * may then be changed.
 */
export const SOURCE_JSON: unique symbol = Symbol('sourceJson');

/**
 * On a written entity of an answer (document:mCreate's `successes`): the JSON text of its
 * `_source` (JSON.stringify of it, as stored), which a transport copies into its answer instead of
 * serializing `_source` again (src/transport/envelopeJson.ts).
 */
export const SOURCE_TEXT: unique symbol = Symbol('sourceText');

/**
 * On a hit, for readers that never change what they read (GraphQL answers): its source as a frozen
 * object that answers from the request cache share, parsed once rather than once per answer.
 * Use readOnlySource(hit).
 */
export const READ_ONLY_SOURCE: unique symbol = Symbol('readOnlySource');

/** Lucene's explanation of a score, as Elasticsearch answers it (`_explanation`). */
export interface Explanation {
  value: number;
  description: string;
  details: Explanation[];
}

/** The inner hits of a collapsed hit, by name (Elasticsearch's shape, `total` an integer). */
/** Where an inner hit's object is in its parent (Elasticsearch's SearchHit.NestedIdentity). */
export interface NestedIdentity {
  field: string;
  offset: number;
  _nested?: NestedIdentity;
}

export interface InnerHits {
  hits: { total: number; max_score: number | null; hits: Hit[] };
}

export interface Hit {
  _id: string;
  /** null when the hits are sorted without `_score`, as Elasticsearch does. */
  _score: number | null;
  /** Absent when the search asked for none (`_source: false`, `stored_fields`), as Elasticsearch answers. */
  _source?: Doc;
  /** `fields`, `docvalue_fields` and the collapse value: each field's values, as Elasticsearch answers them. */
  fields?: Record<string, unknown[]>;
  /** The highlighted fragments of each field with some (a search with `highlight`), as Elasticsearch answers them. */
  highlight?: Record<string, string[]>;
  sort?: unknown[];
  /** `collapse` with `inner_hits`: each group's hits; a `nested` query's `inner_hits`: the hit's matching nested objects. */
  inner_hits?: Record<string, InnerHits>;
  /** An inner hit of a `nested` query: the nested field and the object's offset in the parent's array, as Elasticsearch answers. */
  _nested?: NestedIdentity;
  /** `explain: true`: how the score was computed. */
  _explanation?: Explanation;
  [SOURCE_JSON]?: Buffer;
  readonly [READ_ONLY_SOURCE]?: Readonly<Doc>;
}

/** The hit's source, not to be changed: shared and frozen when the store has it so, else `_source`. */
export function readOnlySource(hit: Hit): Readonly<Doc> {
  return hit[READ_ONLY_SOURCE] ?? hit._source ?? EMPTY_SOURCE;
}

const EMPTY_SOURCE: Readonly<Doc> = Object.freeze({});

/**
 * JSON text that is answered many times (a cached page of hits): the text, and the same text as
 * UTF-8 bytes, encoded once when first asked for, which an HTTP answer can write as they are.
 */
export interface JsonText {
  readonly text: string;
  readonly utf8: Buffer;
}

/**
 * On a search result whose `hits` nobody has read yet: the JSON text of the whole `hits` array
 * (see src/store/hitsJson.ts), shared by every answer of the same cached page. Reading `hits`
 * removes it, since the hits read may then be changed.
 */
export const HITS_JSON: unique symbol = Symbol('hitsJson');

/**
 * On a search result of a large page whose `hits` nobody has read yet: the UTF-8 JSON text of the
 * whole `hits` array, in order, as the store wrote it while fetching the page (src/store/embedded/engine/pageText.ts).
 * Reading `hits` makes the hit objects and removes it.
 */
export const HITS_BYTES: unique symbol = Symbol('hitsBytes');

export interface SearchResult {
  hits: Hit[];
  [HITS_JSON]?: JsonText;
  readonly [HITS_BYTES]?: readonly Buffer[];
  /**
   * Number of matching documents: exact unless `total_relation` is "gte" (then the
   * `track_total_hits` bound, reached) or the request set `track_total_hits: false` (then -1); when
   * timed_out, those collected.
   */
  total: number;
  /** With `track_total_hits` a number: "eq" when `total` is exact, "gte" when it is the bound, reached. */
  total_relation?: 'eq' | 'gte';
  /** With `terminate_after`: whether the collection stopped there. */
  terminated_early?: boolean;
  /** Set when the search stopped at its time budget: `hits` and `total` are what it had collected by then (Elasticsearch's `timed_out`). */
  timed_out?: true;
  /** The answers of the request's `aggs`, keyed by name, as Elasticsearch writes them. */
  aggregations?: Record<string, unknown>;
}

/** What a count answers. */
export interface CountResult {
  count: number;
  /** Set when the count stopped at its time budget (`count` is then what it had counted: a lower bound). */
  timed_out?: true;
}

/** Thrown by a store for a query it cannot run; the core answers 400 services.storage.invalid_search_query. */
export class InvalidQueryError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidQueryError';
  }
}

/** The query limits a store enforces (README "Limits"); each is its own catalogue error, services.storage.<limit>. */
export type QueryLimit = 'too_many_clauses' | 'too_many_terms' | 'regex_too_long' | 'too_complex_to_determinize' | 'query_too_deep' | 'max_analyzed_offset' | 'too_many_buckets';

/** Thrown by a store for a query over one of its limits; the core answers 400 services.storage.<limit> with these props. */
export class QueryLimitError extends InvalidQueryError {
  constructor(
    readonly limit: QueryLimit,
    readonly props: Record<string, string | number>,
    reason: string,
  ) {
    super(reason);
    this.name = 'QueryLimitError';
  }
}

/**
 * Thrown by a store that runs as many costly searches as it takes and has as many more waiting
 * (SEARCH_CONCURRENCY, SEARCH_QUEUE_SIZE); the core answers 429 services.storage.search_rejected.
 */
export class SearchRejectedError extends Error {
  constructor(
    readonly running: number,
    readonly queued: number,
  ) {
    super(`rejected execution of a search: ${running} searches running and ${queued} waiting`);
    this.name = 'SearchRejectedError';
  }
}

/** Thrown by a store whose backend cannot be reached; the core answers 503 services.storage.not_connected. */
export class StoreUnavailableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'StoreUnavailableError';
  }
}

/** Thrown by a store for a document its backend refuses (e.g. a field mapped with another type); the core answers 400. */
export class InvalidDocumentError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidDocumentError';
  }
}

/** Outcome of a write, returned as a value: the failures a client can cause. */
export type WriteOutcome = 'ok' | 'id_taken' | 'slug_taken' | 'not_found';

/** Entities, addressed by collection (the hyphenated plural path segment, e.g. `business-units`). */
export interface EntityStore {
  /** The result, at once when the store has it (the embedded store), or its promise; a failure is always a rejected promise. */
  search(collection: string, request: SearchRequest, filter: QueryDsl | null): SearchResult | Promise<SearchResult>;
  count(collection: string, query: QueryDsl | undefined, filter: QueryDsl | null): Promise<CountResult>;
  get(collection: string, id: string): Promise<Doc | null>;
  /** 'ok' | 'id_taken' | 'slug_taken' */
  create(collection: string, id: string, source: Doc): Promise<WriteOutcome>;
  /**
   * Many creates in one commit; one outcome per item, in order ('ok' | 'id_taken' | 'slug_taken').
   * An item's `json`, when the caller has made it, is JSON.stringify(source): a store that keeps
   * the source as JSON text may keep that text.
   */
  createMany(collection: string, items: { id: string; source: Doc; json?: string }[]): Promise<WriteOutcome[]>;
  /** 'ok' | 'not_found' | 'slug_taken'. `action`: what the caller does (a whole new body, or a merged update), for the stores that record it. */
  replace(collection: string, id: string, source: Doc, action?: 'update' | 'replace'): Promise<WriteOutcome>;
  /** true when a document was deleted. */
  delete(collection: string, id: string): Promise<boolean>;
  /**
   * Compiles a query once into a test of single entities (live subscription filters): whether the
   * entity `id` with this source would be found by a search of the collection with that query, now
   * (the collection's field types, date math on `now` at each call). Throws InvalidQueryError.
   */
  matcher(collection: string, query: QueryDsl): (id: string, source: Doc) => boolean;
  /** The collection's declared mapping (README "Mappings"): what put mappings declared, `dynamic` "true" and no field when none did. */
  getMapping(collection: string): Promise<TypeMapping>;
  /**
   * Merges a mapping into the collection's (mapping/typeMapping.ts mergeTypeMapping) and answers the
   * result; throws MappingError (a field's type changed, also one mapped dynamically).
   */
  putMapping(collection: string, mapping: MappingUpdate): Promise<TypeMapping>;
  /**
   * Whether each document fits the collection's declared mapping (mapping/documentCheck.ts): its
   * refusal, or null. Writes check it too (and throw the refusal): this lets a batch refuse items one by one.
   */
  checkDocuments(collection: string, items: { id: string; source: Doc }[]): Promise<(MappingError | null)[]>;
}

export interface ServiceInfo {
  author: string | null;
  createdAt: number;
  updatedAt: number | null;
  updater: string | null;
}

/** What is kept of an API key: never its token, only the token's fingerprint. */
export interface ApiKeyRecord {
  _id: string;
  userId: string;
  tenantId: string | null;
  roles: string[];
  description: string;
  expiresAt: number;
  ttl: number;
  fingerprint: string;
  _service_info: ServiceInfo;
}

export interface ApiKeyStore {
  /** 'ok' | 'id_taken' */
  createKey(record: ApiKeyRecord): Promise<WriteOutcome>;
  getKey(id: string): Promise<ApiKeyRecord | null>;
  searchKeys(request: SearchRequest, filter: QueryDsl | null): Promise<SearchResult>;
  deleteKey(id: string): Promise<boolean>;
}

/**
 * A change committed through another process sharing this store (another worker, another gateway
 * on the same DATA_DIR), as the store applied it, in commit order: an entity (`source` null once
 * deleted, `previous` null when it was new) or an API key deleted.
 */
export type RemoteChange =
  | { kind: 'entity'; action: 'create' | 'update' | 'replace' | 'delete'; collection: string; _id: string; source: Doc | null; previous: Doc | null }
  | { kind: 'apiKeyDeleted'; _id: string };

export interface Store {
  readonly name: string;
  readonly entities: EntityStore;
  readonly apiKeys: ApiKeyStore;
  /** true when the backend answers. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
  /**
   * Hear of the changes made through other processes (live subscriptions, revocations); absent
   * when the store cannot tell (Elasticsearch: see the Redis bus). Returns the unsubscribe.
   */
  onRemoteChange?(listener: (change: RemoteChange) => void): () => void;
  /**
   * With onRemoteChange: what the instances that hear of each other's changes through this store
   * share (the embedded store: the machine and DATA_DIR). The fleet bus leaves those changes to it.
   */
  readonly changesScope?: string;
  /** What this store holds and how its request cache did, cheap enough for every /metrics scrape; absent when it cannot tell cheaply. */
  stats?(): StoreStats;
}

/** A store's sizes (in this process's view), and its request cache's counts when it has one. */
export interface StoreStats {
  /** Entities per collection (the hyphenated plural). */
  entities: Map<string, number>;
  apiKeys: number;
  searchCache?: { searchHits: number; searchMisses: number; countHits: number; countMisses: number; entries: number };
}
