/**
 * The default store: SQLite for durability, the in-process search engine for queries. Reads are
 * served from memory; each write is committed to SQLite first, then applied to the index.
 *
 * Bulk writes (createMany of at least `commitThreadFrom` entities: `_bulk`, mCreate) are committed
 * by the commit thread (commitThread.ts) while this thread indexes the bulk write committed before
 * them: such a write is acknowledged once committed, and indexed a slice at a time while this
 * process is idle, the rest at the latest before its next read, write or poll (`Sync.defer`),
 * when it adds no field to the mapping (else at once, as every other write is).
 *
 * Several processes may share one DATA_DIR (WORKERS, or gateways started separately): each keeps
 * its own in-memory index and follows the others' writes through SQLite's change log (see
 * database.ts and ChangeFollower below).
 */
import { realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ApiKeyRecord, ApiKeyStore, CountResult, Doc, EntityStore, QueryDsl, RemoteChange, SearchRequest, SearchResult, Store, StoreStats, WriteOutcome } from '../port';
import { SearchIndex, compileMatcher, type Mapping, type SearchIndexOptions } from './engine';
import { CommitThread } from './commitThread';
import { EmbeddedDatabase, entityRow, type EntityRow, type InsertOutcome, type LoggedChange, type StoredRow } from './database';
import { SearchCache, type SearchCacheStats } from './searchCache';
import { EMPTY_MAPPING, mergeTypeMapping, type MappingUpdate, type TypeMapping } from '../mapping/typeMapping';
import { checkDocument } from '../mapping/documentCheck';
import type { MappingError } from '../mapping/mappingError';
import { IndexSnapshots, type IndexFileSettings } from './snapshot/indexSnapshots';
import { pausedSearches } from '../../scheduler/scheduler';
import type { StoreIndices } from './snapshot/indexFile';

export const ENTITY_MAPPING: Mapping = { keyword: ['id', 'entityType', 'slug', 'allowTenantIds'], date: ['modified'] };
export const API_KEY_MAPPING: Mapping = { keyword: ['userId', 'tenantId', 'roles', 'fingerprint'] };

export const DEFAULT_CACHE_ENTRIES = 1000;

const keySource = ({ _id, ...rest }: ApiKeyRecord): Doc => rest as unknown as Doc;

/**
 * A bulk write's indexing, deferred (Sync.defer): indexes the next `limit` of its items (all that
 * are left when not given) and says whether none is left.
 */
type DeferredIndexing = (limit?: number) => boolean;

/** Every change made elsewhere is in this process's index before a read (`sync`) or its own next write (`own`). */
interface Sync {
  /** Apply what other processes committed since the last change applied here (and this process's deferred changes). */
  (): void;
  /** Around this process's own committed changes `seqs`: the others' before them first, then `apply`. */
  own(seqs: readonly number[], apply: () => void): void;
  /** As `own`, later: a slice at a time while the process has nothing else to do, and the rest before the next read, write or `own`, or at the poll once it has waited a while. */
  defer(seqs: readonly number[], apply: DeferredIndexing): void;
  /** Apply the deferred changes now. */
  applyDeferred(): void;
  /** Apply what other processes committed, leaving this process's deferred changes deferred when none came between. */
  others(): void;
}

/** Bulk writes of at least this many entities go through the commit thread (EmbeddedStoreOptions.commitThreadFrom). */
export const COMMIT_THREAD_FROM = 100;
/** The rows of a bulk write go to the commit thread this many at a time (one transaction). */
export const COMMIT_PIECE = 200;

export interface EmbeddedWriteOptions {
  /** Bulk writes of at least this many entities are committed by the commit thread (default COMMIT_THREAD_FROM; Infinity: never). */
  commitThreadFrom?: number;
}

class EmbeddedEntities implements EntityStore {
  private indices = new Map<string, SearchIndex>();
  /** Declared mappings by collection (README "Mappings"), as stored. */
  private declared = new Map<string, TypeMapping>();

  constructor(
    private readonly db: EmbeddedDatabase,
    private readonly cache: SearchCache,
    private readonly options: SearchIndexOptions,
    private readonly sync: Sync,
    /** The commit thread for a bulk write of this many entities (null: commit here). */
    private readonly commitThread: (items: number) => CommitThread | null,
  ) {}

  /** Everything anew from the stored rows (at start, and after missing part of the change log). */
  load(rows: Iterable<StoredRow>, mappings: Map<string, string> = new Map()): void {
    this.indices = new Map();
    this.declared = new Map();
    this.cache.invalidateAll();
    for (const [collection, json] of mappings) this.applyMapping(collection, JSON.parse(json) as TypeMapping);
    for (const row of rows) this.index(row.collection).put(row.id, row.source);
  }

  /** The indexes and declared mappings read from the index file (snapshot/), in place of everything. */
  restore(state: StoreIndices): void {
    this.indices = state.indices;
    this.declared = state.declared;
    this.cache.invalidateAll();
  }

  /** The indexes and declared mappings as of change `seq`, for the index file; null while an index has writes waiting for paused searches. */
  indexState(seq: number): StoreIndices | null {
    for (const index of this.indices.values()) if (!index.settled) return null;
    return { seq, indices: this.indices, declared: this.declared };
  }

  /** A change made by another process; returns the source it replaced (null: none). */
  applyRemote(collection: string, id: string, source: Doc | null): Doc | null {
    const index = this.index(collection);
    const previous = index.get(id) ?? null;
    this.cache.invalidate(collection);
    if (source === null) index.remove(id);
    else index.put(id, source);
    return previous;
  }

  /** A collection's declared mapping, stored (here or by another process): applied to its index; documents indexed before stay as they are, as in Elasticsearch. */
  applyMapping(collection: string, mapping: TypeMapping): void {
    this.declared.set(collection, mapping);
    this.index(collection).declareMapping(mapping);
    this.cache.invalidate(collection);
  }

  async getMapping(collection: string): Promise<TypeMapping> {
    this.sync();
    return this.declared.get(collection) ?? EMPTY_MAPPING;
  }

  async putMapping(collection: string, update: MappingUpdate): Promise<TypeMapping> {
    this.sync();
    const index = this.index(collection);
    const { mapping, seq } = this.db.putMapping<TypeMapping>(collection, (stored) => mergeTypeMapping(stored ?? EMPTY_MAPPING, update, (path) => index.mappedType(path)));
    this.sync.own([seq], () => this.applyMapping(collection, mapping));
    return mapping;
  }

  async checkDocuments(collection: string, items: { id: string; source: Doc }[]): Promise<(MappingError | null)[]> {
    this.sync.others(); // (declared mappings only: a bulk write's indexing may stay deferred)
    const mapping = this.declared.get(collection) ?? EMPTY_MAPPING;
    return items.map((item) => checkDocument(mapping, item.id, item.source));
  }

  /** Throws the first refusal of these documents by the collection's declared mapping. */
  private refuseMisfits(collection: string, items: { id: string; source: Doc }[]): void {
    const mapping = this.declared.get(collection);
    if (mapping === undefined) return;
    for (const item of items) {
      const refused = checkDocument(mapping, item.id, item.source);
      if (refused !== null) throw refused;
    }
  }

  /** Entities per collection holding any (a collection only searched holds none, and is not named). */
  sizes(): Map<string, number> {
    this.sync();
    const sizes = new Map<string, number>();
    for (const [collection, index] of this.indices) if (index.size > 0) sizes.set(collection, index.size);
    return sizes;
  }

  cacheStats(): SearchCacheStats {
    return this.cache.stats();
  }

  private index(collection: string): SearchIndex {
    let index = this.indices.get(collection);
    if (index === undefined) {
      // an entity's source holds its id in `id`: the ids and that field share one dictionary
      index = new SearchIndex(ENTITY_MAPPING, { ...this.options, idField: 'id' });
      this.indices.set(collection, index);
    }
    return index;
  }

  /**
   * At once when the search ends within its first slice (the index is in memory), else a promise
   * (it runs in slices: engine/budget); a failure (a query the engine refuses) is a rejected promise.
   */
  search(collection: string, request: SearchRequest, filter: QueryDsl | null): SearchResult | Promise<SearchResult> {
    try {
      this.sync();
      return this.cache.search(collection, request, filter, () => this.index(collection).searchSliced(request, filter));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  async count(collection: string, query: QueryDsl | undefined, filter: QueryDsl | null): Promise<CountResult> {
    this.sync();
    return this.cache.count(collection, query, filter, () => this.index(collection).countSliced(query, filter));
  }

  async get(collection: string, id: string): Promise<Doc | null> {
    this.sync();
    return this.indices.get(collection)?.get(id) ?? null;
  }

  async create(collection: string, id: string, source: Doc): Promise<WriteOutcome> {
    return (await this.createMany(collection, [{ id, source }]))[0];
  }

  async createMany(collection: string, items: { id: string; source: Doc; json?: string }[]): Promise<WriteOutcome[]> {
    const index = this.index(collection);
    this.refuseMisfits(collection, items);
    // (how many fields the write adds; throws past MAX_FIELDS)
    const newFields = () => index.checkFields(items.map((item) => item.source));
    const thread = this.commitThread(items.length);
    // (each source serialized once, by the caller when it gives `json`: SQLite's row, the index's stored source and the answer's)
    if (thread === null) {
      newFields();
      const rows = items.map(entityRow);
      const { outcomes, seqs } = this.db.insertEntityRows(collection, rows);
      this.sync.own(seqs, this.indexing(collection, index, items, rows, outcomes));
      return outcomes;
    }
    // committed by the commit thread while this one indexes the bulk writes committed before; the
    // rows go COMMIT_PIECE at a time, in one transaction: the thread inserts the first while this
    // one serializes the next (a caller's `json` may be made when read: mCreateEntities)
    const rows: EntityRow[] = new Array(items.length);
    const piece = (from: number): EntityRow[] => {
      const to = Math.min(items.length, from + COMMIT_PIECE);
      for (let i = from; i < to; i++) rows[i] = entityRow(items[i]);
      return rows.slice(from, to);
    };
    const more = items.length > COMMIT_PIECE;
    let added = more ? 0 : newFields();
    const committing = thread.begin(collection, piece(0), more);
    try {
      // (fields checked while the thread inserts the first piece: a write past MAX_FIELDS is given up, rolled back, before its last)
      if (more) added = newFields();
      for (let from = COMMIT_PIECE; from < items.length; from += COMMIT_PIECE) committing.add(piece(from), from + COMMIT_PIECE < items.length);
    } catch (err) {
      committing.abort();
      throw err;
    }
    let committed: InsertOutcome;
    try {
      this.sync.applyDeferred();
    } finally {
      committed = committing.wait();
    }
    const { outcomes, seqs } = committed;
    const indexing = this.indexing(collection, index, items, rows, outcomes);
    // (a write that adds fields changes the mapping, which checks and live subscriptions read: indexed at once)
    if (added === 0) this.sync.defer(seqs, indexing);
    else this.sync.own(seqs, indexing);
    return outcomes;
  }

  /** Indexes the items created (`rows`: their rows, whose JSON the index keeps as their stored sources), `limit` items at a time when asked. */
  private indexing(collection: string, index: SearchIndex, items: { id: string; source: Doc }[], rows: readonly EntityRow[], outcomes: WriteOutcome[]): DeferredIndexing {
    let next = 0;
    return (limit = Infinity) => {
      this.cache.invalidate(collection);
      const end = Math.min(items.length, next + limit);
      for (; next < end; next++) if (outcomes[next] === 'ok') index.put(items[next].id, items[next].source, rows[next].json);
      return next === items.length;
    };
  }

  async replace(collection: string, id: string, source: Doc, action: 'update' | 'replace' = 'replace'): Promise<WriteOutcome> {
    const index = this.index(collection);
    this.refuseMisfits(collection, [{ id, source }]);
    index.checkFields([source]);
    const { outcome, seq } = this.db.replaceEntity(collection, id, source, action);
    if (seq !== undefined) {
      this.sync.own([seq], () => {
        this.cache.invalidate(collection);
        index.put(id, source);
      });
    }
    return outcome;
  }

  matcher(collection: string, query: QueryDsl): (id: string, source: Doc) => boolean {
    const index = this.index(collection);
    const matches = compileMatcher(query, () => index.mappingCopy(), index.queryLimits);
    return (id, source) => matches(source, id);
  }

  async delete(collection: string, id: string): Promise<boolean> {
    const seq = this.db.deleteEntity(collection, id);
    if (seq === null) return false;
    this.sync.own([seq], () => {
      this.cache.invalidate(collection);
      this.indices.get(collection)?.remove(id);
    });
    return true;
  }
}

class EmbeddedApiKeys implements ApiKeyStore {
  private index: SearchIndex;
  private readonly records = new Map<string, ApiKeyRecord>();

  constructor(
    private readonly db: EmbeddedDatabase,
    private readonly options: SearchIndexOptions,
    private readonly sync: Sync,
  ) {
    this.index = new SearchIndex(API_KEY_MAPPING, options);
  }

  get size(): number {
    return this.records.size;
  }

  /** Everything anew (see EmbeddedEntities.load). */
  load(records: Iterable<ApiKeyRecord>): void {
    this.index = new SearchIndex(API_KEY_MAPPING, this.options);
    this.records.clear();
    for (const record of records) this.remember(record);
  }

  private remember(record: ApiKeyRecord): void {
    this.records.set(record._id, record);
    this.index.put(record._id, keySource(record));
  }

  private forget(id: string): void {
    this.records.delete(id);
    this.index.remove(id);
  }

  /** A key created (record) or deleted (null) by another process. */
  applyRemote(id: string, record: ApiKeyRecord | null): void {
    if (record === null) this.forget(id);
    else this.remember(record);
  }

  async createKey(record: ApiKeyRecord): Promise<WriteOutcome> {
    const { outcome, seq } = this.db.insertKey(record);
    if (seq !== undefined) this.sync.own([seq], () => this.remember(record));
    return outcome;
  }

  async getKey(id: string): Promise<ApiKeyRecord | null> {
    this.sync();
    return this.records.get(id) ?? null;
  }

  async searchKeys(request: SearchRequest, filter: QueryDsl | null): Promise<SearchResult> {
    this.sync();
    return this.index.searchSliced(request, filter);
  }

  async deleteKey(id: string): Promise<boolean> {
    const seq = this.db.deleteKey(id);
    if (seq === null) return false;
    this.sync.own([seq], () => this.forget(id));
    return true;
  }
}

/**
 * Keeps this process's indices current with the change log (database.ts): before every read, when
 * SQLite says another connection committed (data_version: a few microseconds, so a write
 * acknowledged by any process is seen by the next read here), and every `pollMs` so that live
 * subscriptions and revocations hear of those changes without waiting for a read. Changes are
 * applied in their commit order; this process's own are applied as it commits them, after the
 * others' that came before them.
 */
class ChangeFollower {
  private last = 0;
  /** This process's committed bulk writes not indexed yet (the first maybe in part: `begun`), in commit order (Sync.defer), and how many changes they hold. */
  private readonly deferred: { seqs: readonly number[]; apply: DeferredIndexing; at: number; begun: boolean }[] = [];
  private deferredSeqs = 0;
  /** The next slice of idle indexing (indexIdle), when one is due. */
  private idle: NodeJS.Immediate | null = null;
  private readonly listeners = new Set<(change: RemoteChange) => void>();
  private readonly timer: NodeJS.Timeout;
  private polls = 0;
  /** Started from the index file: API keys were read from SQLite as of this change, the log's key changes up to it are in already. */
  private keysAt = 0;
  /** The number of the last change applied here. */
  get applied(): number {
    return this.last;
  }
  /** Reloads after missing part of the log (a process away longer than the log keeps changes). */
  reloads = 0;
  readonly sync: Sync;

  constructor(
    private readonly db: EmbeddedDatabase,
    private readonly entities: EmbeddedEntities,
    private readonly keys: EmbeddedApiKeys,
    pollMs: number,
    private readonly snapshots: IndexSnapshots,
    options: SearchIndexOptions,
  ) {
    this.start(options);
    const own = (seqs: readonly number[], apply: () => void) => {
      if (seqs.length === 0) return;
      this.catchUp(seqs[0] - 1);
      apply();
      this.ownApplied(seqs);
    };
    const applyDeferred = () => {
      while (this.deferred.length > 0) {
        const { seqs, apply } = this.deferred.shift()!;
        this.deferredSeqs -= seqs.length;
        // (one begun is already caught up to its first change: own's catchUp has nothing to do)
        own(seqs, apply);
      }
    };
    const sync = (() => {
      applyDeferred();
      if (this.db.changedElsewhere()) this.catchUp(Infinity);
    }) as Sync;
    sync.own = (seqs, apply) => {
      applyDeferred();
      own(seqs, apply);
    };
    sync.defer = (seqs, apply) => {
      if (seqs.length === 0) return;
      this.deferred.push({ seqs, apply, at: Date.now(), begun: false });
      this.deferredSeqs += seqs.length;
      // (from the next turn's check phase: the write's answer, queued in this one's (answerSoon), leaves first)
      this.idle ??= setImmediate(() => (this.idle = setImmediate(() => this.indexIdle())));
    };
    sync.applyDeferred = applyDeferred;
    sync.others = () => {
      if (!this.db.changedElsewhere()) return;
      // every change after the last applied is a deferred one of this process (its commit thread's): nothing else to apply
      if (this.deferred.length > 0 && this.db.lastSeq() - this.last === this.deferredSeqs) return;
      applyDeferred();
      this.catchUp(Infinity);
    };
    this.sync = sync;
    this.timer = setInterval(() => {
      if (this.deferred.length > 0 && Date.now() - this.deferred[0].at >= DEFER_AT_MOST_MS) applyDeferred();
      sync.others();
      // the log's old changes, now and then (every process does it: whichever runs first)
      if (++this.polls % PRUNE_EVERY === 0) this.db.pruneChanges();
    }, pollMs);
    this.timer.unref();
  }

  /** This process's own changes `seqs` are in its index. */
  private ownApplied(seqs: readonly number[]): void {
    this.last = Math.max(this.last, seqs[seqs.length - 1]);
    this.snapshots.changed();
  }

  /**
   * A slice (IDLE_SLICE_MS) of the deferred indexing, IDLE_ITEMS items at a time, then the next
   * slice from the next turn of the event loop, while the process has no paused work (a search, a
   * large body being parsed: they go first, and the write, read or poll that comes next applies
   * the rest). A bulk load's batch is thus indexed, in part, while its answer travels and the
   * next batch is on its way, rather than all of it while the next batch is being committed.
   */
  private indexIdle(): void {
    this.idle = null;
    if (this.deferred.length === 0 || pausedSearches() > 0) return;
    const until = performance.now() + IDLE_SLICE_MS;
    do {
      const first = this.deferred[0];
      if (!first.begun) {
        this.catchUp(first.seqs[0] - 1);
        // (a reload while catching up takes in the deferred changes too)
        if (this.deferred[0] !== first) return;
        first.begun = true;
      }
      if (first.apply(IDLE_ITEMS)) {
        this.deferred.shift();
        this.deferredSeqs -= first.seqs.length;
        this.ownApplied(first.seqs);
      }
    } while (this.deferred.length > 0 && performance.now() < until);
    if (this.deferred.length > 0) this.idle = setImmediate(() => this.indexIdle());
  }

  /** From the index file and the changes after it when it can be used (snapshot/), else everything from SQLite. */
  private start(options: SearchIndexOptions): void {
    const restored = this.snapshots.load(options);
    if (restored === null) return this.reload();
    this.entities.restore(restored);
    const { seq } = this.db.snapshot((_rows, records) => this.keys.load(records));
    this.keysAt = seq;
    this.last = restored.seq;
    this.db.changedElsewhere();
    this.catchUp(Infinity);
  }

  private reload(): void {
    // (deferred changes are committed: the snapshot holds them)
    this.deferred.length = 0;
    this.deferredSeqs = 0;
    // (the version is taken before the snapshot: a commit landing after the snapshot's read changes
    // it, and the next read catches up with that commit; taken after, it was missed until another came)
    this.db.changedElsewhere();
    const { seq } = this.db.snapshot((rows, records, mappings) => {
      this.entities.load(rows, mappings);
      this.keys.load(records);
    });
    this.last = seq;
    this.keysAt = 0;
    this.snapshots.changed();
  }

  /** Applies the changes after the last applied, up to `until`, in order. */
  private catchUp(until: number): void {
    while (this.last < until) {
      const { changes, gap } = this.db.changesAfter(this.last, CATCH_UP_BATCH);
      if (gap) {
        this.reloads++;
        return this.reload();
      }
      if (changes.length === 0) return;
      for (const change of changes) {
        if (change.seq > until) return;
        if (change.kind !== 'key' || change.seq > this.keysAt) this.apply(change);
        this.last = change.seq;
        if (change.kind !== 'key') this.snapshots.changed();
      }
    }
  }

  private apply(change: LoggedChange): void {
    const source = change.source === null || change.kind === 'mapping' ? null : (JSON.parse(change.source) as Doc);
    if (change.kind === 'mapping') {
      this.entities.applyMapping(change.collection, JSON.parse(change.source as string) as TypeMapping);
    } else if (change.kind === 'entity') {
      const previous = this.entities.applyRemote(change.collection, change.id, source);
      this.emit({ kind: 'entity', action: change.action, collection: change.collection, _id: change.id, source, previous });
    } else {
      this.keys.applyRemote(change.id, source as unknown as ApiKeyRecord | null);
      if (source === null) this.emit({ kind: 'apiKeyDeleted', _id: change.id });
    }
  }

  private emit(change: RemoteChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // a listener's failure is its own: the change is applied, the others hear of it
      }
    }
  }

  listen(listener: (change: RemoteChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether a deferred bulk write is indexed in part (its index is not one of the log's states). */
  get midway(): boolean {
    return this.deferred.length > 0 && this.deferred[0].begun;
  }

  /** Stops following; the deferred bulk writes are indexed first (the index file written at close holds them). */
  close(): void {
    clearInterval(this.timer);
    if (this.idle !== null) clearImmediate(this.idle);
    this.idle = null;
    this.sync.applyDeferred();
  }
}

/** How long the poll lets a bulk write wait for its indexing (reads, writes and the next bulk write apply it sooner). */
const DEFER_AT_MOST_MS = 100;
/** A slice of idle indexing (ChangeFollower.indexIdle), in ms, and the items indexed between two looks at the clock. */
const IDLE_SLICE_MS = 1;
const IDLE_ITEMS = 32;
/** Changes read from the log at once while catching up. */
const CATCH_UP_BATCH = 1000;
/** Polls between two prunings of the change log. */
const PRUNE_EVERY = 200;
/** How often a process looks for changes made elsewhere when no read asks (live subscriptions, revocations). */
export const DEFAULT_SYNC_MS = 20;

export class EmbeddedStore implements Store {
  readonly name = 'embedded';
  readonly entities: EntityStore;
  readonly apiKeys: ApiKeyStore;
  private readonly db: EmbeddedDatabase;

  /** The index file (snapshot/): read at start, written after quiet periods and at close. */
  readonly indexFile: IndexSnapshots;

  /**
   * @param cacheEntries searches and counts kept by the request cache (searchCache.ts); 0 turns it off
   * @param options query limits, default time budget and slice of every index (engine/searchIndex.ts);
   *   the stored sources are spilled to `dataDir` unless `spillDir` says elsewhere
   * @param indexFile when the index file is written, and where the store says what it did with it
   */
  constructor(
    dataDir: string,
    cacheEntries = DEFAULT_CACHE_ENTRIES,
    options: SearchIndexOptions = {},
    syncMs = DEFAULT_SYNC_MS,
    writes: EmbeddedWriteOptions = {},
    indexFile: IndexFileSettings = {},
  ) {
    this.db = new EmbeddedDatabase(dataDir);
    options = { ...options, spillDir: options.spillDir ?? dataDir };
    this.changesScope = `embedded:${hostname()}:${realpathSync(dataDir)}`;
    // the follower is made last (it loads everything); the stores reach it through this forwarder
    const sync = (() => follower.sync()) as Sync;
    sync.own = (seqs, apply) => follower.sync.own(seqs, apply);
    sync.defer = (seqs, apply) => follower.sync.defer(seqs, apply);
    sync.applyDeferred = () => follower.sync.applyDeferred();
    sync.others = () => follower.sync.others();
    const threadFrom = writes.commitThreadFrom ?? COMMIT_THREAD_FROM;
    const commitThread = (items: number) => (items < threadFrom ? null : (this.commitThread ??= new CommitThread(dataDir)));
    const entities = new EmbeddedEntities(this.db, new SearchCache(cacheEntries), options, sync, commitThread);
    const apiKeys = new EmbeddedApiKeys(this.db, options, sync);
    const snapshots: IndexSnapshots = new IndexSnapshots(dataDir, this.db, (): StoreIndices | null => (follower.midway ? null : entities.indexState(follower.applied)), indexFile);
    const follower: ChangeFollower = new ChangeFollower(this.db, entities, apiKeys, syncMs, snapshots, options);
    this.indexFile = snapshots;
    this.follower = follower;
    this.entities = entities;
    this.apiKeys = apiKeys;
    this.stats = () => ({ entities: entities.sizes(), apiKeys: apiKeys.size, searchCache: entities.cacheStats() });
  }

  /** Entities per collection and API keys (as this process sees them, current with the change log), and the request cache's counts. */
  readonly stats: () => StoreStats;

  private readonly follower: ChangeFollower;
  private commitThread: CommitThread | undefined;
  readonly changesScope: string;

  onRemoteChange(listener: (change: RemoteChange) => void): () => void {
    return this.follower.listen(listener);
  }

  async ready(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.follower.close();
    await this.commitThread?.close();
    await this.indexFile.close();
    this.db.close();
  }
}
