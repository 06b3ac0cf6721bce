/**
 * Entities on Elasticsearch: one index per collection (indexNames.ts), created on first write
 * (indexManager.ts), writes acknowledged once searchable (refresh: wait_for), unique slugs through
 * reservations (slugReservations.ts), searches and counts with the visibility filter (search.ts).
 *
 * Outcomes are those of the embedded store, item by item and in order: for createMany, an item is
 * written only after every earlier item with the same id or slug has its outcome (so a batch behaves
 * like the embedded store's one transaction of sequential inserts), and a taken id wins over a taken
 * slug.
 */
import { compileMatcher } from '../embedded/engine/matcher';
import { IndexMapping } from '../embedded/engine/mapping';
import { declareFieldRules, engineType } from '../embedded/engine/declaredMapping';
import { ENTITY_MAPPING } from '../embedded/embeddedStore';
import type { CountResult, Doc, EntityStore, QueryDsl, SearchRequest, SearchResult, WriteOutcome } from '../port';
import type { Backend } from './backend';
import { bulkItemFailure, bulkItems, isSuccess } from './bulk';
import { existingIds, holdsExactly, readDocument, readDocuments, writeDocument, type Version, type Versioned } from './documents';
import type { IndexManager } from './indexManager';
import type { IndexNames } from './indexNames';
import { entityIndexDefinition } from './mappings';
import { getDeclaredMapping, putDeclaredMapping } from './declaredMappings';
import type { FieldMapping, MappingUpdate, TypeMapping } from '../mapping/typeMapping';
import { checkDocument } from '../mapping/documentCheck';
import type { MappingError } from '../mapping/mappingError';
import { runCount, runSearch } from './search';
import { SlugReservations, type Held, type SlugReservationOptions, type Snapshot } from './slugReservations';

/** Attempts at a conditional replace or delete while others keep changing the same entity. */
const MAX_WRITE_ATTEMPTS = 5;

const slugOf = (source: Doc): string => String(source.slug);

export class ElasticsearchEntities implements EntityStore {
  readonly slugs: SlugReservations;

  constructor(
    private readonly backend: Backend,
    private readonly names: IndexNames,
    private readonly indices: IndexManager,
    options: SlugReservationOptions = {},
  ) {
    this.slugs = new SlugReservations(backend, names, indices, (collection, id) => this.currentSlug(collection, id), options);
  }

  private async ensure(collection: string): Promise<string> {
    const index = this.names.entities(collection);
    await Promise.all([this.indices.ensure(index, entityIndexDefinition), this.slugs.ensureIndex()]);
    return index;
  }

  /** Declared mappings as this gateway last read or put them (another gateway's later put is seen by Elasticsearch itself, which refuses what does not fit). */
  private readonly declared = new Map<string, TypeMapping>();

  async getMapping(collection: string): Promise<TypeMapping> {
    const mapping = await getDeclaredMapping(this.backend, this.names.entities(collection));
    this.declared.set(collection, mapping);
    return mapping;
  }

  async checkDocuments(collection: string, items: { id: string; source: Doc }[]): Promise<(MappingError | null)[]> {
    const mapping = this.declared.get(collection) ?? (await this.getMapping(collection));
    return items.map((item) => checkDocument(mapping, item.id, item.source));
  }


  /** Creates the index first when needed (with its definition); subscriptions learn the declared fields. */
  async putMapping(collection: string, update: MappingUpdate): Promise<TypeMapping> {
    const merged = await putDeclaredMapping(this.backend, await this.ensure(collection), update);
    this.declared.set(collection, merged);
    const known = this.mappings.get(collection);
    if (known !== undefined) learnProperties(known, merged.properties, '');
    return merged;
  }

  search(collection: string, request: SearchRequest, filter: QueryDsl | null): Promise<SearchResult> {
    return runSearch(this.backend, this.names.entities(collection), request, filter);
  }

  count(collection: string, query: QueryDsl | undefined, filter: QueryDsl | null): Promise<CountResult> {
    return runCount(this.backend, this.names.entities(collection), query, filter);
  }

  /**
   * Field types of each collection as this gateway knows them: the explicit entity mapping, the
   * cluster's mapping read when the collection is first subscribed to, and every entity written
   * through this gateway since (mapped as Elasticsearch's dynamic mapping maps it).
   */
  private readonly mappings = new Map<string, IndexMapping>();

  private mappingOf(collection: string): IndexMapping {
    let mapping = this.mappings.get(collection);
    if (mapping === undefined) {
      const learned = new IndexMapping(ENTITY_MAPPING);
      this.mappings.set(collection, learned);
      void this.backend
        .call('read', (client) => client.indices.getMapping({ index: this.names.entities(collection) }))
        .then((response) => {
          for (const index of Object.values(response as Record<string, { mappings?: { properties?: Record<string, unknown> } }>)) learnProperties(learned, index.mappings?.properties ?? {}, '');
        })
        .catch(() => undefined); // no index yet, or the cluster is away: the writes teach the rest
      mapping = learned;
    }
    return mapping;
  }

  private learn(collection: string, sources: readonly Doc[]): void {
    const mapping = this.mappings.get(collection);
    if (mapping !== undefined) for (const source of sources) mapping.walk(source, () => undefined);
  }

  /** Subscription filters see the collection's field types as this gateway knows them (mappingOf). */
  matcher(collection: string, query: QueryDsl): (id: string, source: Doc) => boolean {
    const mapping = this.mappingOf(collection);
    const matches = compileMatcher(query, () => mapping.copy());
    return (id, source) => matches(source, id);
  }

  async get(collection: string, id: string): Promise<Doc | null> {
    return (await readDocument(this.backend, this.names.entities(collection), id))?.source ?? null;
  }

  private async currentSlug(collection: string, id: string): Promise<string | null> {
    const [doc] = await readDocuments(this.backend, this.names.entities(collection), [id], ['slug']);
    return doc === null ? null : slugOf(doc.source);
  }

  async create(collection: string, id: string, source: Doc): Promise<WriteOutcome> {
    return (await this.createMany(collection, [{ id, source }]))[0];
  }

  async createMany(collection: string, items: { id: string; source: Doc }[]): Promise<WriteOutcome[]> {
    const outcomes = await this.writeMany(collection, items);
    this.learn(
      collection,
      items.filter((_, i) => outcomes[i] === 'ok').map((item) => item.source),
    );
    return outcomes;
  }

  private async writeMany(collection: string, items: { id: string; source: Doc }[]): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = new Array(items.length);
    if (items.length === 0) return outcomes;
    const index = await this.ensure(collection);
    let pending = items.map((_, i) => i);
    while (pending.length > 0) {
      // An item waits for the next round when an earlier pending item has its id or slug.
      const round: number[] = [];
      const later: number[] = [];
      const ids = new Set<string>();
      const slugs = new Set<string>();
      for (const i of pending) {
        const { id, source } = items[i];
        if (ids.has(id) || slugs.has(slugOf(source))) later.push(i);
        else round.push(i);
        ids.add(id);
        slugs.add(slugOf(source));
      }
      const results = await this.createRound(collection, index, round.map((i) => items[i]));
      results.forEach((outcome, k) => (outcomes[round[k]] = outcome));
      pending = later;
    }
    return outcomes;
  }

  /** Items with distinct ids and slugs: reserve the slugs (one bulk), create the entities (one bulk). */
  private async createRound(collection: string, index: string, batch: { id: string; source: Doc }[]): Promise<WriteOutcome[]> {
    const outcomes: WriteOutcome[] = new Array(batch.length);
    const holds = await this.slugs.holdMany(
      collection,
      batch.map(({ id, source }) => ({ slug: slugOf(source), owner: id })),
    );

    // A slug held by another entity: a taken id still wins, as in the embedded store.
    const refused = batch.map((_, k) => k).filter((k) => holds[k] === null);
    const taken = await existingIds(this.backend, index, refused.map((k) => batch[k].id));
    for (const k of refused) outcomes[k] = taken.has(batch[k].id) ? 'id_taken' : 'slug_taken';

    const writing = batch.map((_, k) => k).filter((k) => holds[k] !== null);
    if (writing.length === 0) return outcomes;
    const giveBack: Held[] = [];
    const operations = writing.flatMap((k) => [{ create: { _index: index, _id: batch[k].id } }, batch[k].source]);
    let retried = false;
    let response;
    try {
      response = await this.backend.call('write', (client, attempt) => {
        retried = attempt > 0;
        return client.bulk({ operations, refresh: 'wait_for' });
      });
    } catch (err) {
      // Not written (or unknown: then the reservations go stale and are taken over later).
      if (!retried) await this.giveBack(writing.map((k) => holds[k] as Held));
      throw err;
    }

    const items = bulkItems(response, 'create');
    const written: { k: number; seqNo: number; primaryTerm: number }[] = [];
    let failure: Error | undefined;
    for (let j = 0; j < items.length; j++) {
      const k = writing[j];
      const item = items[j];
      const held = holds[k] as Held;
      if (isSuccess(item)) {
        outcomes[k] = 'ok';
        written.push({ k, seqNo: Number(item._seq_no), primaryTerm: Number(item._primary_term) });
      } else if (item.status === 409 && retried && (await holdsExactly(this.backend, index, batch[k].id, batch[k].source))) {
        outcomes[k] = 'ok'; // written by the attempt whose answer was lost
      } else if (item.status === 409) {
        outcomes[k] = 'id_taken';
        if (held.createdNow) giveBack.push(held);
      } else {
        if (held.createdNow) giveBack.push(held);
        failure ??= bulkItemFailure('entity', item);
      }
    }

    // A write that stalled past half the grace period may have lost its reservation: undo it then.
    const stalled = written.filter((w) => this.slugs.needsRecheck(holds[w.k] as Held));
    if (stalled.length > 0) {
      const still = await this.slugs.stillHeld(stalled.map((w) => holds[w.k] as Held));
      const undo = stalled.filter((_, n) => !still[n]);
      if (undo.length > 0) {
        const deletes = undo.map((w) => ({ delete: { _index: index, _id: batch[w.k].id, if_seq_no: w.seqNo, if_primary_term: w.primaryTerm } }));
        await this.backend.call('write', (client) => client.bulk({ operations: deletes, refresh: 'wait_for' }));
        for (const w of undo) outcomes[w.k] = 'slug_taken';
      }
    }
    await this.giveBack(giveBack);
    if (failure !== undefined) throw failure;
    return outcomes;
  }

  /** Releasing is best effort: a reservation left behind only goes stale. */
  private async giveBack(helds: Held[]): Promise<void> {
    await this.slugs.releaseMany(helds).catch(() => undefined);
  }

  async replace(collection: string, id: string, source: Doc): Promise<WriteOutcome> {
    const outcome = await this.replaceOnce(collection, id, source);
    if (outcome === 'ok') this.learn(collection, [source]);
    return outcome;
  }

  private async replaceOnce(collection: string, id: string, source: Doc): Promise<WriteOutcome> {
    const index = this.names.entities(collection);
    const newSlug = slugOf(source);
    /** Reservations of slugs this entity had before, to release once the new version is written. */
    const previous: Snapshot[] = [];
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await readDocument(this.backend, index, id);
      if (current === null) return 'not_found';
      let held: Held | null = null;
      if (slugOf(current.source) !== newSlug) {
        await this.ensure(collection);
        const old = await this.slugs.snapshot(collection, slugOf(current.source));
        if (old !== null) previous.push(old);
        held = await this.slugs.hold(collection, newSlug, id);
        if (held === null) return 'slug_taken';
      }
      const written = await this.writeIfUnchanged(index, id, source, current, held);
      if (written === 'conflict') continue;
      if (held !== null && this.slugs.needsRecheck(held) && !(await this.slugs.stillHeld([held]))[0]) {
        // Taken over while this write stalled: put the previous version back.
        await writeDocument(this.backend, 'index', 'entity', index, id, { source: current.source, ifVersion: written }).catch(() => undefined);
        return 'slug_taken';
      }
      const newDocId = SlugReservations.docId(collection, newSlug);
      await this.slugs.releaseMany(previous.filter((p) => p.owner === id && p.docId !== newDocId)).catch(() => undefined);
      return 'ok';
    }
    throw new Error(`entity "${id}" of "${collection}" kept changing during ${MAX_WRITE_ATTEMPTS} attempts to replace it`);
  }

  /** Index `source` if the entity is still the version read; 'conflict' when it changed. */
  private async writeIfUnchanged(index: string, id: string, source: Doc, current: Versioned, held: Held | null): Promise<Version | 'conflict'> {
    let retried = false;
    let written;
    try {
      written = await writeDocument(this.backend, 'index', 'entity', index, id, { source, ifVersion: current, onAttempt: (n) => (retried = n > 0) });
    } catch (err) {
      if (held?.createdNow && !retried) await this.giveBack([held]);
      throw err;
    }
    if (written.outcome === 'done') return written.version;
    // After a retried request, the first attempt may have been applied: keep the reservation then.
    if (held?.createdNow && !retried) await this.giveBack([held]);
    return 'conflict';
  }

  async delete(collection: string, id: string): Promise<boolean> {
    const index = this.names.entities(collection);
    let maybeDeleted = false;
    let reservation: Snapshot | null = null;
    for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await readDocument(this.backend, index, id);
      if (current === null) {
        if (maybeDeleted) await this.slugs.releaseSnapshot(reservation, id).catch(() => undefined);
        return maybeDeleted;
      }
      reservation = await this.slugs.snapshot(collection, slugOf(current.source));
      let retried = false;
      const deleted = await writeDocument(this.backend, 'delete', 'entity', index, id, { ifVersion: current, onAttempt: (n) => (retried = n > 0) });
      if (deleted.outcome !== 'done') {
        // Gone or changed; after a retried request, possibly deleted by the lost attempt.
        maybeDeleted ||= retried;
        continue;
      }
      await this.slugs.releaseSnapshot(reservation, id).catch(() => undefined);
      return true;
    }
    throw new Error(`entity "${id}" of "${collection}" kept changing during ${MAX_WRITE_ATTEMPTS} attempts to delete it`);
  }
}

/** The fields of an Elasticsearch mapping's `properties`, declared in an IndexMapping (multi-fields included). */
export function learnProperties(mapping: IndexMapping, properties: Record<string, unknown>, prefix: string): void {
  for (const [name, spec] of Object.entries(properties)) {
    if (typeof spec !== 'object' || spec === null) continue;
    const field = prefix === '' ? name : `${prefix}.${name}`;
    const s = spec as { type?: string; properties?: Record<string, unknown>; fields?: Record<string, { type?: string }>; include_in_parent?: unknown; include_in_root?: unknown };
    // a nested field's objects are matched one by one, as the cluster's nested query does
    if (s.type === 'nested') mapping.declareNested(field, s.include_in_parent === true || s.include_in_root === true);
    if (s.properties !== undefined) {
      learnProperties(mapping, s.properties, field);
      continue;
    }
    const type = engineType(s as FieldMapping);
    if (type === null || type === 'object') continue;
    const keyword = s.fields?.keyword?.type === 'keyword' ? `${field}.keyword` : undefined;
    mapping.learn(field, type, keyword);
    // analyzers, normalizers, number roundings: subscriptions match as the cluster indexes
    declareFieldRules(mapping, field, s as FieldMapping);
    for (const [name, sub] of Object.entries(s.fields ?? {})) declareFieldRules(mapping, `${field}.${name}`, sub as FieldMapping);
  }
}
