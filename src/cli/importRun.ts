/**
 * The import loop: records from a reader, in batches, each written through the core's mCreate
 * (the API's validation, errors, derived slugs and ids), then its failures appended to the report
 * and the checkpoint moved past it. Stops after the batch in progress when asked (SIGINT).
 */
import { randomUUID } from 'node:crypto';
import { isPlainObject } from '../core/args';
import { ApiError, type ErrorId, type ErrorProps } from '../core/errors';
import type { EntityType } from '../core/entities/entityType';
import { mCreateEntities, type BulkItem } from '../core/entities/mCreateEntities';
import { ChangeFeed } from '../core/events/changeFeed';
import type { Principal } from '../core/principal';
import type { EntityWriter } from '../store/embedded/entityWriter';
import type { Checkpoint, CheckpointFile } from './importCheckpoint';
import { lineId } from './importIds';
import type { ReportFile, ReportLine } from './importReport';
import type { RecordReader, SourceRecord } from './importRecord';

/** Batches written at once (runImport below); a crash may leave these and one more committed past the checkpoint on disk. */
export const IN_FLIGHT = 2;

export interface ImportSettings {
  type: EntityType;
  batch: number;
  /** The field whose value is the entity's id; absent: the line's `_id`, else a derived id. */
  idField?: string;
  /** `allowTenantIds` of the entities whose line gives none. */
  tenants?: string[];
}

export interface ImportJob {
  settings: ImportSettings;
  reader: RecordReader;
  /** The file's bytes from the state's committed position on. */
  chunks: AsyncIterable<Buffer>;
  writer: EntityWriter;
  report: ReportFile;
  /** Where the state is kept between runs (null: standard input, which cannot be resumed). */
  checkpoint: CheckpointFile | null;
  /** The state at the start (fresh, or read from the checkpoint); updated as batches commit. */
  state: Checkpoint;
  /** Whether this run resumes (a pending batch may then be there already). */
  resumed: boolean;
  stopRequested: () => boolean;
  /** After each batch. */
  onBatch?: (state: Checkpoint) => void;
}

export interface ImportOutcome {
  created: number;
  failed: number;
  /** Of the batch in progress at a crash: found written already (resume). */
  alreadyThere: number;
  /** Stopped on request before the end of the file. */
  stopped: boolean;
}

/** The user an import writes as: an admin (the import reaches DATA_DIR or Elasticsearch directly, as the gateway does). */
export function importPrincipal(user: string): Principal {
  return { userId: user, tenantId: null, roles: ['admin'], slug: user, shortName: user, apiKeyId: null, expiresAt: -1 };
}

function failure(line: number, id: string | null, errorId: ErrorId, props: ErrorProps): ReportLine {
  const error = new ApiError(errorId, props);
  return { line, id, error: error.id, status: error.status, message: error.message };
}

/** A record as mCreate's item, or why it cannot be one. */
export function toItem(record: SourceRecord, settings: ImportSettings, importId: string): BulkItem | ReportLine {
  if (record.error !== undefined) return failure(record.line, null, 'network.http.body_parse_failed', { reason: `line ${record.line} is ${record.error}` });
  const body = record.value;
  if (!isPlainObject(body)) return { body }; // (the core says what is wrong with it)
  if (settings.tenants !== undefined && (body.allowTenantIds === undefined || body.allowTenantIds === null)) body.allowTenantIds = settings.tenants;
  if (settings.idField === undefined) return { _id: body._id === undefined ? lineId(importId, record.line) : undefined, body };
  const value = Object.hasOwn(body, settings.idField) ? body[settings.idField] : undefined;
  if (value === undefined || value === null || value === '') return failure(record.line, null, 'api.assert.missing_argument', { name: settings.idField });
  if (typeof value === 'string') return { _id: value, body };
  if (typeof value === 'number' && Number.isSafeInteger(value)) return { _id: String(value), body };
  return failure(record.line, null, 'api.assert.invalid_type', { name: settings.idField, expected: 'a string or an integer (the entity id)' });
}

const itemId = (item: BulkItem): string | null => item._id ?? (isPlainObject(item.body) && typeof item.body._id === 'string' ? item.body._id : null);

export async function runImport(job: ImportJob): Promise<ImportOutcome> {
  const { settings, state, writer } = job;
  const principal = importPrincipal(state.user);
  const deps = { store: { entities: writer }, feed: new ChangeFeed(), now: Date.now, newId: randomUUID };
  const outcome: ImportOutcome = { created: state.created, failed: state.failed, alreadyThere: 0, stopped: false };
  /** Resuming: records of the batch that may have been in progress at a crash, still to look for. */
  let toLookFor = job.resumed ? state.batch : 0;

  /** Of a batch written before a crash but not recorded: the items already there (written by this import), dropped. */
  const dropWritten = async (items: BulkItem[]): Promise<BulkItem[]> => {
    const left: BulkItem[] = [];
    for (const item of items) {
      const id = itemId(item);
      const stored = id === null ? null : await writer.get(settings.type.collection, id);
      const info = stored?._service_info as { author?: unknown; createdAt?: unknown } | undefined;
      if (info !== undefined && info.author === state.user && typeof info.createdAt === 'number' && info.createdAt >= state.startedAt) outcome.alreadyThere++;
      else left.push(item);
    }
    return left;
  };

  /** A batch written: its lines not imported (the report's), in line order, and where it ends. */
  interface Written {
    failures: ReportLine[];
    created: number;
    end: Checkpoint['committed'];
  }

  const write = async (batch: SourceRecord[]): Promise<Written> => {
    const end = batch[batch.length - 1].next;
    const failures: ReportLine[] = [];
    let items: BulkItem[] = [];
    const lineOf = new Map<BulkItem, number>();
    for (const record of batch) {
      const item = toItem(record, settings, state.importId);
      if ('error' in item) failures.push(item);
      else {
        items.push(item);
        lineOf.set(item, record.line);
      }
    }
    if (toLookFor > 0) {
      items = await dropWritten(items);
      toLookFor -= batch.length;
    }
    let created = 0;
    if (items.length > 0) {
      const result = await mCreateEntities(deps, principal, { type: settings.type, documents: items });
      if (!result.ok) throw result.error; // (mCreate answers per item: a failure of the whole is not a line's)
      created = result.value.successes.length;
      for (const { document, reason } of result.value.errors) {
        failures.push({ line: lineOf.get(document) ?? 0, id: itemId(document), error: reason.id, status: reason.status, message: reason.message });
      }
    }
    failures.sort((a, b) => a.line - b.line);
    return { failures, created, end };
  };

  /** After its commit, and after the batches before it are recorded: the report, the counts, the checkpoint. */
  const record = ({ failures, created, end }: Written): void => {
    job.report.append(failures);
    outcome.created += created;
    outcome.failed += failures.length;
    Object.assign(state, { committed: end, batch: settings.batch * (IN_FLIGHT + 1), created: outcome.created, failed: outcome.failed, reportBytes: job.report.bytes });
    job.checkpoint?.writeLater(state);
    job.onBatch?.(state);
  };

  // Batches are written IN_FLIGHT at a time: the next one is read and checked while the store
  // commits the one before (its commit thread), and recorded in order, each after its commit (the
  // checkpoint written in the background).
  // While looking for a crashed run's entities, one at a time (what a batch finds must be committed).
  let recorded: Promise<void> = Promise.resolve();
  let failure: unknown;
  const writing = new Set<Promise<unknown>>();
  const inFlight: Promise<void>[] = [];
  const flush = async (batch: SourceRecord[]): Promise<void> => {
    if (batch.length === 0) return;
    while (inFlight.length >= IN_FLIGHT || (toLookFor > 0 && inFlight.length > 0)) await inFlight.shift();
    if (failure !== undefined) throw failure; // (no batch starts after one failed)
    // (the checkpoint on disk at most one batch behind: a crash leaves at most IN_FLIGHT + 1 batches committed past it)
    if (job.checkpoint !== null && job.checkpoint.pending > 1) await job.checkpoint.settled();
    const written = write(batch);
    written.catch((err: unknown) => (failure ??= err));
    writing.add(written);
    written.then(
      () => writing.delete(written),
      () => writing.delete(written),
    );
    const before = recorded;
    recorded = (async () => {
      const result = await written;
      await before;
      record(result);
    })();
    recorded.catch(() => {}); // (awaited below: a failure is the import's)
    inFlight.push(recorded);
  };
  const drain = async (): Promise<void> => {
    while (inFlight.length > 0) await inFlight.shift();
  };

  try {
    let batch: SourceRecord[] = [];
    for await (const records of job.reader(job.chunks, state.committed)) {
      for (const record of records) {
        batch.push(record);
        if (batch.length >= settings.batch) {
          await flush(batch);
          batch = [];
        }
      }
      if (job.stopRequested()) {
        await flush(batch);
        await drain();
        outcome.stopped = true;
        return outcome;
      }
    }
    await flush(batch);
    await drain();
  } finally {
    // (failed: the batches still being written end first, so that a resumed import finds them)
    await Promise.allSettled([...writing]);
    // what is recorded is on disk before the import answers (failed or not)
    await job.checkpoint?.settled().catch(() => {});
  }
  await job.checkpoint?.settled();
  state.done = true;
  job.checkpoint?.write(state);
  return outcome;
}
