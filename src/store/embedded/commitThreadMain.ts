/**
 * The commit thread's side (commitThread.ts): its own connection to the SQLite file, and each
 * insert it is sent run in one transaction, in the order received, answered once committed. Every
 * failure is answered (a thread that cannot open the file answers each insert with that error).
 *
 * The write-ahead log is copied into the database file (a checkpoint) after an answer, once the
 * inserts since the last copy hold CHECKPOINT_BYTES of JSON, rather than inside the commit that
 * takes the log past 1,000 pages, as SQLite's automatic checkpoint does: the thread is idle while
 * the main thread answers and reads the next batch, and the copy is no longer part of the time
 * before the acknowledgement. Measured on the store's schema, 150,000 bench:scale rows in
 * transactions of 1,000 (about 200 pages each): commit 8.3-10.2 ms with the automatic checkpoint,
 * 6.0-6.2 ms plus 3.2-3.6 ms of copy after every fifth (a copy after every commit cost 7.5 ms each:
 * the pages every commit changes are copied each time).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { requestRows, type AbortRequest, type CommitThreadData, type InsertReply, type InsertRequest } from './commitThread';
import { EmbeddedDatabase, type EntityRowsInsert } from './database';

const data = workerData as CommitThreadData;
let db: EmbeddedDatabase | null = null;
let openError: Error | null = null;
try {
  db = new EmbeddedDatabase(data.dataDir);
  db.deferCheckpoints();
} catch (err) {
  openError = err as Error;
}

/** The insert sent in pieces whose last piece has not come yet: its transaction, or the error that ended it (answered after its last piece). */
let open: { id: number; insert: EntityRowsInsert | null; error: Error | null } | null = null;

const errorReply = (id: number, err: unknown): InsertReply => {
  const { message, code } = err as Error & { code?: unknown };
  return { id, error: { message, ...(typeof code === 'string' ? { code } : {}) } };
};

/** Runs one request (a whole insert, or a piece of one): its answer, or null while more pieces are to come. */
function run(request: InsertRequest): InsertReply | null {
  if (open !== null && open.id !== request.id) giveUp(open.id); // (a caller that never sent its last piece)
  try {
    if (db === null) throw openError;
    open ??= { id: request.id, insert: db.beginEntityRows(request.collection), error: null };
    open.insert?.add(requestRows(request));
    if (request.more) return null;
    const { insert, error } = open;
    open = null;
    if (error !== null) return errorReply(request.id, error);
    return { id: request.id, result: insert!.commit() };
  } catch (err) {
    open?.insert?.rollback();
    // (the pieces still to come are skipped, the error answered after the last)
    open = request.more ? { id: request.id, insert: null, error: err as Error } : null;
    return request.more ? null : errorReply(request.id, err);
  }
}

/** The insert `id` rolled back, unanswered. */
function giveUp(id: number): void {
  if (open?.id !== id) return;
  open.insert?.rollback();
  open = null;
}

parentPort!.on('message', (request: InsertRequest | AbortRequest | 'close') => {
  if (request === 'close') {
    if (open !== null) giveUp(open.id);
    db?.close();
    data.port.close();
    parentPort!.close();
    return;
  }
  if ('abort' in request) return giveUp(request.abort);
  const reply = run(request);
  for (const json of request.jsons) sinceCheckpoint += typeof json === 'string' ? json.length : 0;
  if (reply === null) return;
  if (!request.sync) {
    parentPort!.postMessage(reply);
  } else {
    data.port.postMessage(reply);
    Atomics.add(data.signal, 0, 1);
    Atomics.notify(data.signal, 0);
  }
  checkpoint();
});

/** JSON inserted since the last checkpoint, in characters (about four transactions of 1,000 bench:scale rows, 800 pages). */
const CHECKPOINT_BYTES = 1024 * 1024;
let sinceCheckpoint = 0;

/** After an answer (see the top of this file); a failure is left to the next one (a reader may hold the log). */
function checkpoint(): void {
  if (sinceCheckpoint < CHECKPOINT_BYTES) return;
  sinceCheckpoint = 0;
  try {
    db?.checkpoint();
  } catch {
    // (SQLITE_BUSY and the like: the log is copied after a later insert)
  }
}
