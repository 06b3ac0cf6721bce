/**
 * The commit thread: a worker thread with its own connection to DATA_DIR's SQLite file, which runs
 * entity inserts (EmbeddedDatabase.insertEntityRows) while the process's main thread does
 * something else: the next batch's reading and checks (`npm run import`), or indexing the previous
 * batch (the gateway's `_bulk`). Each insert is still one transaction, committed (synchronous=FULL)
 * before its outcome comes back, so nothing is acknowledged before it is on disk; inserts run in
 * the order they were sent.
 *
 * Two ways to wait for an insert:
 * - `insert`: a promise (the event loop runs meanwhile);
 * - `begin` then `wait`: the caller works between the two, then `wait` blocks the main thread
 *   (Atomics.wait) until the commit, as a synchronous better-sqlite3 call would: the embedded
 *   store's writes stay synchronous, so that no other request of the process runs between a commit
 *   and what the store does with it. Such an insert may be sent in pieces (`begin` and `add` with
 *   `more`): the thread inserts the first rows, in the transaction, while the caller serializes
 *   the next, and commits after the last piece.
 *
 * Written by hand: no npm package runs better-sqlite3 in a worker with a synchronous answer (the
 * pattern is synckit's: a shared Int32Array to wake on, the answer read with receiveMessageOnPort).
 */
import { extname, join } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { EntityRow, InsertOutcome } from './database';

/**
 * A message to the thread: an insert (`sync`: answered on the shared port, with a wake-up). The
 * rows go as three lists of strings, which the structured clone copies a third quicker than a
 * list of row objects (1,000 rows of bench:scale: 0.8 ms instead of 1.2 ms, on this thread).
 */
export interface InsertRequest {
  id: number;
  collection: string;
  ids: string[];
  slugs: string[];
  jsons: string[];
  sync: boolean;
  /** More rows of the same transaction follow (in requests of the same id): not committed, nor answered, yet. */
  more: boolean;
}

/** The insert `id`, sent in part, is given up (its caller failed between two pieces): rolled back, not answered. */
export interface AbortRequest {
  abort: number;
}

/** The rows of an insert as it was sent. */
export const requestRows = ({ ids, slugs, jsons }: InsertRequest): EntityRow[] => ids.map((id, i) => ({ id, slug: slugs[i], json: jsons[i] }));

export type InsertReply = { id: number; result: InsertOutcome } | { id: number; error: { message: string; code?: string } };

/** What the thread is given at start. */
export interface CommitThreadData {
  entry: string;
  dataDir: string;
  port: MessagePort;
  /** Incremented and notified after each synchronous answer. */
  signal: Int32Array;
  /** Tests run the TypeScript sources: @swc/core's path to compile them with, as Jest does. */
  swc?: string;
}

/** Started with `eval`: loads the thread's module, compiling TypeScript first when the sources are run as they are (tests). */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
if (workerData.swc !== undefined) {
  const { transformSync } = require(workerData.swc);
  const { readFileSync } = require('node:fs');
  const options = { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } };
  require.extensions['.ts'] = (module, file) => module._compile(transformSync(readFileSync(file, 'utf8'), { ...options, filename: file }).code, file);
}
require(workerData.entry);
`;

/** How long `wait` waits for a commit before giving up (SQLite's own busy timeout is 5 s). */
const WAIT_LIMIT_MS = 120_000;

/** A synchronous insert under way: `add` its next piece (`more`: others follow), `wait` for its outcome once the last is sent, or `abort` it. */
export interface PendingInsert {
  add(rows: EntityRow[], more: boolean): void;
  wait(): InsertOutcome;
  abort(): void;
}

const toError = (error: { message: string; code?: string }): Error => Object.assign(new Error(error.message), error.code === undefined ? {} : { code: error.code });

export class CommitThread {
  private readonly worker: Worker;
  private readonly syncPort: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (outcome: InsertOutcome) => void; reject: (err: Error) => void }>();
  private syncUnderWay = false;
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  constructor(dataDir: string) {
    const { port1, port2 } = new MessageChannel();
    const extension = extname(__filename);
    const data: CommitThreadData = { entry: join(__dirname, `commitThreadMain${extension}`), dataDir, port: port2, signal: this.signal };
    if (extension === '.ts') data.swc = require.resolve('@swc/core');
    this.worker = new Worker(BOOTSTRAP, { eval: true, workerData: data, transferList: [port2] });
    this.syncPort = port1;
    this.worker.on('message', (reply: InsertReply) => this.settle(reply));
    this.worker.on('error', (err) => this.fail(err));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.once('exit', () => this.fail(new Error('the commit thread stopped')));
    this.worker.unref();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const { reject } of this.waiting.values()) reject(err);
    this.waiting.clear();
    this.worker.unref();
  }

  private settle(reply: InsertReply): void {
    const waiter = this.waiting.get(reply.id);
    if (waiter === undefined) return;
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.worker.unref();
    if ('error' in reply) waiter.reject(toError(reply.error));
    else waiter.resolve(reply.result);
  }

  private send(collection: string, rows: EntityRow[], sync: boolean, more = false, id = this.nextId++): number {
    if (this.failure !== null) throw this.failure;
    const request: InsertRequest = { id, collection, ids: rows.map((r) => r.id), slugs: rows.map((r) => r.slug), jsons: rows.map((r) => r.json), sync, more };
    this.worker.postMessage(request);
    return id;
  }

  /** Inserts the rows in one transaction; resolves once committed (the event loop runs meanwhile). */
  insert(collection: string, rows: EntityRow[]): Promise<InsertOutcome> {
    return new Promise((resolve, reject) => {
      const id = this.send(collection, rows, false);
      this.waiting.set(id, { resolve, reject });
      this.worker.ref(); // (an import's last batch keeps the process alive until committed)
    });
  }

  /**
   * Sends the rows to be inserted in one transaction, after the inserts sent before (`more`: other
   * pieces of it follow, `add`ed); `wait` blocks until it is committed and answers its outcome (or
   * throws its error). One at a time.
   */
  begin(collection: string, rows: EntityRow[], more = false): PendingInsert {
    if (this.syncUnderWay) throw new Error('a synchronous insert is under way already');
    const id = this.send(collection, rows, true, more);
    this.syncUnderWay = true;
    let last = !more;
    return {
      add: (piece, moreAfter) => {
        if (last) throw new Error('internal: a piece added after the last');
        this.send(collection, piece, true, moreAfter, id);
        last = !moreAfter;
      },
      wait: () => {
        if (!last) throw new Error('internal: waiting for an insert whose last piece is not sent');
        try {
          return this.waitFor(id);
        } finally {
          this.syncUnderWay = false;
        }
      },
      abort: () => {
        if (!this.syncUnderWay) return;
        this.syncUnderWay = false;
        // (the answer of an insert given up after its last piece is skipped by the next wait)
        if (!last && this.failure === null) this.worker.postMessage({ abort: id } satisfies AbortRequest);
      },
    };
  }

  private waitFor(id: number): InsertOutcome {
    const deadline = Date.now() + WAIT_LIMIT_MS;
    for (;;) {
      const seen = Atomics.load(this.signal, 0);
      const received = receiveMessageOnPort(this.syncPort);
      if (received !== undefined) {
        const reply = received.message as InsertReply;
        if (reply.id !== id) continue; // (an answer nobody waits for any more)
        if ('error' in reply) throw toError(reply.error);
        return reply.result;
      }
      if (this.failure !== null) throw this.failure;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`the commit thread did not answer within ${WAIT_LIMIT_MS / 1000} s`);
      Atomics.wait(this.signal, 0, seen, Math.min(left, 1000));
    }
  }

  /** Lets the inserts sent finish, closes the thread's connection and stops it. */
  async close(): Promise<void> {
    if (this.failure === null) {
      this.worker.ref();
      this.worker.postMessage('close');
    }
    await this.exited;
  }
}
