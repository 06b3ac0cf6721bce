/**
 * Writes entities into DATA_DIR the way the embedded store does (the same transaction, change log
 * and field limit), without the store's in-memory search index: what `npm run import` writes
 * through. A process that only writes would otherwise index every entity it writes, and every
 * entity already there, only to never search them: half the time of an import, and memory that
 * grows with the file. The gateways on the same DATA_DIR index what it writes from the change log,
 * as they do every other process's writes.
 *
 * It keeps one thing per collection: the field mapping (which fields exist, not their values), so
 * that MAX_FIELDS refuses a batch exactly as the store's createMany would.
 *
 * Its inserts run in the commit thread (commitThread.ts), each batch one transaction answered once
 * committed, in the order sent: the import reads and checks its next batch meanwhile. A batch
 * checked while the one before it is being written sees that batch's fields: when that batch adds
 * fields, its outcome is awaited first (only what was written is mapped, as a gateway maps it).
 */
import type { Doc, EntityStore, WriteOutcome } from '../port';
import { CommitThread } from './commitThread';
import { EmbeddedDatabase, entityRow } from './database';
import { ENTITY_MAPPING } from './embeddedStore';
import { checkFieldLimit } from './engine/fieldLimit';
import { IndexMapping } from './engine/mapping';
import { checkDocument } from '../mapping/documentCheck';
import type { MappingError } from '../mapping/mappingError';
import { EMPTY_MAPPING, type TypeMapping } from '../mapping/typeMapping';

/** What an import needs of a store: create in batches, and read one entity back (resuming after a crash). */
export type EntityWriter = Pick<EntityStore, 'createMany' | 'get'> & Partial<Pick<EntityStore, 'checkDocuments'>>;

const noValue = () => {};

export class EmbeddedEntityWriter implements EntityWriter {
  private readonly db: EmbeddedDatabase;
  private readonly thread: CommitThread;
  private readonly mappings = new Map<string, IndexMapping>();
  /** Per collection: the batch being written that adds fields, mapped once its outcome is known. */
  private readonly pendingMapping = new Map<string, Promise<void>>();

  constructor(
    dataDir: string,
    private readonly maxFields: number,
  ) {
    this.db = new EmbeddedDatabase(dataDir);
    this.thread = new CommitThread(dataDir);
  }

  /** The collection's mapping, from its stored entities in write order (as a gateway builds it), the first time. */
  private mappingOf(collection: string): IndexMapping {
    let mapping = this.mappings.get(collection);
    if (mapping === undefined) {
      mapping = new IndexMapping(ENTITY_MAPPING);
      for (const source of this.db.sourcesOf(collection)) mapping.walk(source, noValue);
      this.mappings.set(collection, mapping);
    }
    return mapping;
  }

  async createMany(collection: string, items: { id: string; source: Doc; json?: string }[]): Promise<WriteOutcome[]> {
    const mapping = this.mappingOf(collection);
    for (let pending = this.pendingMapping.get(collection); pending !== undefined; ) {
      await pending;
      const next = this.pendingMapping.get(collection);
      pending = next === pending ? undefined : next;
    }
    const sources = items.map((item) => item.source);
    const added = checkFieldLimit(mapping, this.maxFields, sources);
    const written = this.thread.insert(collection, items.map(entityRow));
    // (the same fields line after line: the batch is mapped only when it brings new ones)
    if (added > 0) {
      const mapped = written.then(({ outcomes }) => {
        outcomes.forEach((outcome, i) => {
          if (outcome === 'ok') mapping.walk(sources[i], noValue);
        });
      });
      this.pendingMapping.set(collection, mapped.catch(() => {}));
    }
    return (await written).outcomes;
  }

  /** Each item against the collection's declared mapping as stored now (README "Mappings"): mCreate refuses the misfits one by one. */
  async checkDocuments(collection: string, items: { id: string; source: Doc }[]): Promise<(MappingError | null)[]> {
    const json = this.db.mappings().get(collection);
    const mapping = json === undefined ? EMPTY_MAPPING : (JSON.parse(json) as TypeMapping);
    return items.map((item) => checkDocument(mapping, item.id, item.source));
  }

  async get(collection: string, id: string): Promise<Doc | null> {
    return this.db.entitySource(collection, id);
  }

  async close(): Promise<void> {
    await this.thread.close();
    this.db.close();
  }
}
