/**
 * The commit thread's side (commitThread.ts): its own connection to the SQLite file, and each
 * insert it is sent run in one transaction, in the order received, answered once committed. Every
 * failure is answered (a thread that cannot open the file answers each insert with that error).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { requestRows, type CommitThreadData, type InsertReply, type InsertRequest } from './commitThread';
import { EmbeddedDatabase } from './database';

const data = workerData as CommitThreadData;
let db: EmbeddedDatabase | null = null;
let openError: Error | null = null;
try {
  db = new EmbeddedDatabase(data.dataDir);
} catch (err) {
  openError = err as Error;
}

function run(request: InsertRequest): InsertReply {
  try {
    if (db === null) throw openError;
    return { id: request.id, result: db.insertEntityRows(request.collection, requestRows(request)) };
  } catch (err) {
    const { message, code } = err as Error & { code?: unknown };
    return { id: request.id, error: { message, ...(typeof code === 'string' ? { code } : {}) } };
  }
}

parentPort!.on('message', (request: InsertRequest | 'close') => {
  if (request === 'close') {
    db?.close();
    data.port.close();
    parentPort!.close();
    return;
  }
  const reply = run(request);
  if (!request.sync) {
    parentPort!.postMessage(reply);
    return;
  }
  data.port.postMessage(reply);
  Atomics.add(data.signal, 0, 1);
  Atomics.notify(data.signal, 0);
});
