/**
 * npm run import -- --type countries [options] <file | ->   (USAGE in importArgs.ts)
 *
 * Loads NDJSON, a JSON array or CSV into the configured store, as `npm run migrate` reaches it:
 * DATA_DIR's embedded store (through EmbeddedEntityWriter: the store's own transaction and change
 * log, so gateways running on the same DATA_DIR see the entities, without a search index of its
 * own), or Elasticsearch when ELASTICSEARCH_URL is set. Each entity goes through the core's mCreate,
 * as a REST `_bulk` would. Streams the file; progress on stderr; the lines not imported in the
 * report; resumable from its checkpoint (importCheckpoint.ts). Ctrl-C stops after the batch in
 * progress.
 */
import { createReadStream, existsSync, statSync, unlinkSync, type ReadStream } from 'node:fs';
import type { Config } from '../config';
import type { ElasticsearchStore } from '../store/elasticsearch/elasticsearchStore';
import { EmbeddedEntityWriter, type EntityWriter } from '../store/embedded/entityWriter';
import { loadCliConfig } from './cliConfig';
import { parseImportArgs, USAGE, type ImportArgs } from './importArgs';
import { changedSince, CheckpointFile, type Checkpoint } from './importCheckpoint';
import { csvReader, readCsvHeader } from './importCsv';
import { newImportId } from './importIds';
import { readJsonArray } from './importJsonArray';
import { readNdjson } from './importNdjson';
import { ImportProgress, type ProgressStream } from './importProgress';
import { FormatError, type RecordReader } from './importRecord';
import { ReportFile } from './importReport';
import { runImport, type ImportOutcome } from './importRun';

export interface ImportIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  stdin: AsyncIterable<Buffer>;
  stderr: ProgressStream;
  /** Calls `stop` on SIGINT; returns the unsubscribe. */
  onInterrupt?: (stop: () => void) => () => void;
  /** How often a progress line is written when stderr is not a terminal (ms). */
  progressEveryMs?: number;
  /** Builds the store to write into (tests); default: as the gateway would from the settings. */
  openWriter?: (config: Config) => Promise<OpenedWriter>;
}

export interface OpenedWriter {
  writer: EntityWriter;
  where: string;
  close(): Promise<void>;
}

async function openWriter(config: Config): Promise<OpenedWriter> {
  const { url, ...es } = config.elasticsearch;
  if (url === undefined) {
    const writer = new EmbeddedEntityWriter(config.dataDir, config.search.maxFields);
    return { writer, where: `the embedded store in ${config.dataDir}`, close: () => writer.close() };
  }
  // loaded only when used, as the gateway does (the Elasticsearch client takes a third of a second to load)
  const { ElasticsearchStore: Store } = require('../store/elasticsearch/elasticsearchStore') as { ElasticsearchStore: typeof ElasticsearchStore };
  const store = Store.fromSettings({ url, ...es });
  if (!(await store.ready())) {
    await store.close();
    throw new Error(`Elasticsearch at ${url.replace(/\/\/[^@/]*@/, '//')} does not answer`);
  }
  return { writer: store.entities, where: `Elasticsearch (index prefix "${es.indexPrefix}")`, close: () => store.close() };
}

function freshState(args: ImportArgs): Checkpoint {
  const stat = args.file === null ? null : statSync(args.file);
  return {
    version: 1,
    file: args.file ?? '-',
    size: stat?.size ?? 0,
    mtimeMs: stat?.mtimeMs ?? 0,
    type: args.type.collection,
    format: args.format,
    importId: newImportId(),
    user: args.user,
    startedAt: Date.now(),
    committed: { offset: 0, line: 1 },
    batch: args.batch,
    created: 0,
    failed: 0,
    reportBytes: 0,
    done: false,
  };
}

/** The state to start from, or why not (exit 2). */
function startState(args: ImportArgs, checkpoint: CheckpointFile | null): Checkpoint | string {
  const existing = checkpoint?.read() ?? null;
  if (!args.resume) {
    if (existing !== null && !existing.done) {
      return `an unfinished import of ${args.file} has a checkpoint (${checkpoint!.path}): run again with --resume to continue it, or delete that file to start over`;
    }
    return freshState(args);
  }
  if (existing === null) return `no checkpoint at ${checkpoint!.path}: nothing to resume (was --report different?)`;
  if (existing.type !== args.type.collection || existing.format !== args.format || existing.file !== args.file) {
    return `the checkpoint ${checkpoint!.path} is of another import (${existing.format} ${existing.file} into ${existing.type})`;
  }
  return existing.done ? existing : (changedSince(existing, args.file!) ?? existing);
}

async function readerFor(args: ImportArgs, state: Checkpoint): Promise<RecordReader> {
  switch (args.format) {
    case 'ndjson':
      return readNdjson;
    case 'json':
      return readJsonArray;
    case 'csv':
      return state.committed.offset === 0 ? csvReader() : csvReader(await readCsvHeader(createReadStream(args.file!)));
  }
}

const rate = (count: number, seconds: number) => Math.round(count / Math.max(seconds, 0.001));

export async function runImportCli(io: ImportIo): Promise<number> {
  const say = (text: string) => io.stderr.write(`${text}\n`);
  const parsed = parseImportArgs(io.argv, io.cwd);
  if (!parsed.ok) {
    if (parsed.help) {
      say(USAGE);
      return 0;
    }
    say(`${parsed.reason}\n${USAGE}`);
    return 2;
  }
  const { args } = parsed;
  const config = loadCliConfig(io.env, say);
  if (config === null) return 2;
  if (args.file !== null && (!existsSync(args.file) || !statSync(args.file).isFile())) {
    say(`${args.file}: no such file`);
    return 2;
  }
  const checkpoint = args.file === null ? null : new CheckpointFile(`${args.report}.checkpoint.json`);
  const state = startState(args, checkpoint);
  if (typeof state === 'string') {
    say(state);
    return 2;
  }
  if (state.done) {
    say(`the import of ${args.file} is complete already: ${state.created} created, ${state.failed} not imported (${args.report})`);
    return state.failed > 0 ? 1 : 0;
  }

  let opened: OpenedWriter;
  try {
    opened = await (io.openWriter ?? openWriter)(config);
  } catch (err) {
    say(`import failed: ${(err as Error).message}`);
    return 1;
  }
  const report = new ReportFile(args.report, args.resume ? state.reportBytes : 0);
  let stream: ReadStream | undefined;
  let bytes = state.committed.offset;
  const source = args.file === null ? io.stdin : (stream = createReadStream(args.file, { start: state.committed.offset, highWaterMark: 256 * 1024 }));
  const chunks = (async function* () {
    for await (const chunk of source) {
      bytes += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
  })();
  let stopping = false;
  const unsubscribe = io.onInterrupt?.(() => {
    if (!stopping) say('\nstopping after the batch in progress (Ctrl-C again to leave at once: the import can still be resumed)');
    stopping = true;
  });
  say(`importing ${args.file ?? 'standard input'} (${args.format}) into ${args.type.collection} in ${opened.where}, ${args.batch} per batch${args.resume ? `, resuming at line ${state.committed.line}` : ''}`);
  const startedAt = Date.now();
  const createdBefore = state.created;
  const progress = new ImportProgress(io.stderr, args.file === null ? null : state.size, { bytes, written: state.created }, io.progressEveryMs);
  let outcome: ImportOutcome | undefined;
  let failure: string | undefined;
  try {
    outcome = await runImport({
      settings: { type: args.type, batch: args.batch, idField: args.idField, tenants: args.tenants },
      reader: await readerFor(args, state),
      chunks,
      writer: opened.writer,
      report,
      checkpoint,
      state,
      resumed: args.resume,
      stopRequested: () => stopping,
      onBatch: (s) => progress.update(bytes, s.created),
    });
    progress.update(bytes, outcome.created);
  } catch (err) {
    failure = err instanceof FormatError ? `${args.file ?? 'standard input'} is not valid ${args.format}: ${err.message}` : `import failed: ${(err as Error).message}`;
  } finally {
    progress.stop();
    unsubscribe?.();
    stream?.destroy();
    report.close();
    await opened.close();
  }
  const seconds = (Date.now() - startedAt) / 1000;
  const failed = state.failed;
  const thisRun = `, ${rate(state.created - createdBefore, seconds)} docs/s`;
  say(
    `${state.created} created, ${failed} not imported${outcome?.alreadyThere ? `, ${outcome.alreadyThere} found written before the interruption` : ''} in ${seconds.toFixed(1)} s${thisRun}` +
      (failed > 0 ? `\nreport: ${args.report}` : ''),
  );
  if (failed === 0 && report.bytes === 0) unlinkSync(args.report);
  if (failure !== undefined) {
    say(`${failure}\nwhat is committed is kept${checkpoint === null ? '' : `; continue with --resume (checkpoint ${checkpoint.path})`}`);
    return 1;
  }
  if (outcome!.stopped) {
    say(`stopped at line ${state.committed.line}: continue with --resume`);
    return 130;
  }
  return failed > 0 ? 1 : 0;
}

if (require.main === module) {
  runImportCli({
    argv: process.argv.slice(2),
    env: process.env,
    stdin: process.stdin,
    stderr: process.stderr,
    onInterrupt: (stop) => {
      let count = 0;
      const onSigint = () => {
        if (++count > 1) process.exit(130);
        stop();
      };
      process.on('SIGINT', onSigint);
      return () => process.off('SIGINT', onSigint);
    },
  }).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
