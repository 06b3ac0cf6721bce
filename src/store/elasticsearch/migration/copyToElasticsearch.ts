/**
 * Copies the embedded store's API keys, then its declared mappings, then its entities, into the Elasticsearch store, in the
 * embedded store's write order and in batches, through the store itself (so indices, mappings and
 * slug reservations are exactly what the gateway makes). API keys keep their `_id` and
 * fingerprint, so their tokens keep working (with the same AUTH_SECRET).
 *
 * Every write is a create: a document already there (copied by an earlier, interrupted run) is
 * counted as "already there" and left as it is, so running again is always safe; the cursor only
 * saves the time of reading past what is done. A slug already held by another entity in
 * Elasticsearch is reported (the entity is not copied), as is a document Elasticsearch refuses.
 */
import type { ApiKeyRecord, Doc, WriteOutcome } from '../../port';
import { DocumentRejectedError } from '../bulk';
import type { TypeMapping } from '../../mapping/typeMapping';
import type { ElasticsearchStore } from '../elasticsearchStore';
import { publicUrl, type CursorFile, type MigrationCursor } from './cursor';

export interface MigrationSource {
  keys(): Iterable<ApiKeyRecord>;
  entities(): Iterable<{ collection: string; id: string; source: Doc }>;
  /** Declared mappings: collection -> their JSON (README "Mappings"), put before the entities. */
  mappings?(): Map<string, string>;
}

export interface MigrationReport {
  keys: { copied: number; existing: number };
  entities: { copied: number; existing: number; slugConflicts: string[]; rejected: string[] };
}

export interface MigrationOptions {
  source: MigrationSource;
  target: ElasticsearchStore;
  /** For the cursor: where the copy goes. */
  targetUrl: string;
  cursor: CursorFile;
  batchSize: number;
  /** Continue after what the cursor says is done. */
  resume: boolean;
  /** Totals and progress, for a progress bar. */
  onStart?(phase: 'keys' | 'entities', total: number, done: number): void;
  onProgress?(phase: 'keys' | 'entities', done: number): void;
  onDone?(phase: 'keys' | 'entities'): void;
}

function count(items: Iterable<unknown>): number {
  let n = 0;
  for (const _ of items) n++;
  return n;
}

/** Batches of an iterable, after skipping `skip` items. */
function* batches<T>(items: Iterable<T>, skip: number, size: number): Generator<T[]> {
  let seen = 0;
  let batch: T[] = [];
  for (const item of items) {
    if (seen++ < skip) continue;
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

export async function copyToElasticsearch(options: MigrationOptions): Promise<MigrationReport> {
  const { source, target, cursor, batchSize } = options;
  const where = { url: publicUrl(options.targetUrl), indexPrefix: target.names.prefix };
  const previous = options.resume ? cursor.read() : null;
  if (previous !== null && (previous.target.url !== where.url || previous.target.indexPrefix !== where.indexPrefix)) {
    throw new Error(`the cursor in ${cursor.path} is for ${previous.target.url} (prefix "${previous.target.indexPrefix}"), not ${where.url} (prefix "${where.indexPrefix}"): delete it, or run without --resume`);
  }
  const state: Omit<MigrationCursor, 'version' | 'updatedAt'> = { target: where, keys: previous?.keys ?? 0, entities: previous?.entities ?? 0, done: false };
  const report: MigrationReport = { keys: { copied: 0, existing: 0 }, entities: { copied: 0, existing: 0, slugConflicts: [], rejected: [] } };
  const tally = (outcome: WriteOutcome | 'rejected', part: { copied: number; existing: number }) => {
    if (outcome === 'ok') part.copied++;
    else if (outcome === 'id_taken') part.existing++;
  };

  options.onStart?.('keys', count(source.keys()), state.keys);
  for (const batch of batches(source.keys(), state.keys, batchSize)) {
    const outcomes = await target.apiKeys.createKeys(batch);
    outcomes.forEach((o) => tally(o, report.keys));
    state.keys += batch.length;
    cursor.write(state);
    options.onProgress?.('keys', state.keys);
  }
  options.onDone?.('keys');

  // every run (a put mapping of the same mapping changes nothing), before the entities it types
  for (const [collection, json] of source.mappings?.() ?? []) await target.entities.putMapping(collection, JSON.parse(json) as TypeMapping);

  options.onStart?.('entities', count(source.entities()), state.entities);
  for (const batch of batches(source.entities(), state.entities, batchSize)) {
    // one createMany per collection, in order of first appearance
    const byCollection = new Map<string, { id: string; source: Doc }[]>();
    for (const row of batch) {
      const items = byCollection.get(row.collection) ?? [];
      items.push({ id: row.id, source: row.source });
      byCollection.set(row.collection, items);
    }
    for (const [collection, items] of byCollection) {
      const outcomes = await createAll(target, collection, items, report);
      outcomes.forEach((outcome, i) => {
        tally(outcome, report.entities);
        if (outcome === 'slug_taken') report.entities.slugConflicts.push(`${collection}/${items[i].id} (slug "${String(items[i].source.slug)}")`);
      });
    }
    state.entities += batch.length;
    cursor.write(state);
    options.onProgress?.('entities', state.entities);
  }
  options.onDone?.('entities');
  cursor.write({ ...state, done: true });
  return report;
}

/** createMany; when Elasticsearch refuses a document, the batch again one by one, so that only that one is left out. */
async function createAll(target: ElasticsearchStore, collection: string, items: { id: string; source: Doc }[], report: MigrationReport): Promise<(WriteOutcome | 'rejected')[]> {
  try {
    return await target.entities.createMany(collection, items);
  } catch (err) {
    if (!(err instanceof DocumentRejectedError)) throw err;
  }
  const outcomes: (WriteOutcome | 'rejected')[] = [];
  for (const item of items) {
    try {
      outcomes.push(await target.entities.create(collection, item.id, item.source));
    } catch (err) {
      if (!(err instanceof DocumentRejectedError)) throw err;
      report.entities.rejected.push(`${collection}/${item.id}: ${err.message}`);
      outcomes.push('rejected');
    }
  }
  return outcomes;
}
