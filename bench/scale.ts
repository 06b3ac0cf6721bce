/**
 * npm run bench:scale — the gateway at 10k, 100k and 1M entities (BENCH_SIZES to shorten, e.g.
 * BENCH_SIZES=10000,100000), started as the README says (NODE_ENV=production, dist/src/main.js, a
 * child process, a fresh DATA_DIR for each size), the entities loaded through
 * POST /v4/entity/products/_bulk in batches of 1,000. Entities of five fields: a three-word name, a
 * 15-word description (words of the bench vocabulary, Zipf-distributed), a code, an integer rank
 * (uniform in [0, 1,000,000)) and allowTenantIds ["*"].
 *
 * Per size, in this order:
 * - bulk load: entities per second, from the first request to the last answer (one request at a time,
 *   the next batch made while one is answered: the client's own work is not the gateway's time),
 *   and the gateway's CPU time per entity meanwhile (all its threads: what the load costs whatever
 *   else the machine runs), with its main thread's run time and the time that thread was ready to
 *   run but waited for a CPU (/proc schedstat: the main thread bounds a bulk load, and on a shared
 *   machine the wait says how much of the figure the other threads and processes took); the goal
 *   line of issue 17 item 3 (20,000 docs/s at 1M) at the end, with those two figures;
 * - RSS after load: the gateway's resident memory (/proc) once the last batch is answered;
 * - latencies, p50/p99, of two searches sent one at a time, size 10, interleaved in BENCH_ROUNDS
 *   rounds (default 5) of BENCH_QUERIES requests of each (default 100), the two halves of a round
 *   in reverse order every other round, after an unmeasured warm-up: an uncached match (a `match`
 *   on name of two words, every request a pair not asked before, so that the request cache never
 *   answers) and a sorted range (`bool.filter` of a `range` on rank covering a tenth of its values,
 *   sorted on rank, asc and desc in turn, every request another range); the ratio of their p50s,
 *   per round and its median (the goal of issue 17: at most 2x);
 * - the gateway stopped (SIGTERM), the size of its sqlite file (with its -wal, if any);
 * - BENCH_RESTARTS rounds (default 2, 1 at 1M and more) of: the floors — every file of DATA_DIR read
 *   (fs.readFileSync, from the page cache: the files were just written), the index file alone
 *   (entities.index, written when the gateway stopped: README "Index file"), a bare loop over the
 *   stored rows with better-sqlite3 (the query the gateway's rebuild runs: collection, id and
 *   source of every entity in write order), the same loop with JSON.parse of each source, the
 *   gateway started on an empty DATA_DIR until /readyz (what every start costs: Node, modules) — then
 *   the restart: the gateway started on the same DATA_DIR, timed from spawn until GET /readyz
 *   answers 200 (polled every 20 ms), its RSS then, stopped; its log says what it did with the
 *   index file (read, and in how many ms, or why not). The medians are printed, with the restart's
 *   ratio to each floor (issue 17's goal: at most 3x reading the index file, within 5 s at 1M);
 * - one restart more without the index file (INDEX_FILE_QUIET_MS=0: every entity indexed from
 *   SQLite, as before the index file).
 *
 * Everything started is stopped on exit, on error and on Ctrl-C, and the DATA_DIRs are removed
 * (BENCH_KEEP=1 keeps them and prints where).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE } from '../src/store/embedded/database';
import { INDEX_FILE } from '../src/store/embedded/snapshot/indexFile';
import { prng, vocabulary, zipf } from './lib/corpus';
import { RANK_SPAN, batches, sendBatch } from './lib/products';
import { benchToken, setting } from './lib/gateway';
import { alive, cpuMs, mainThreadSched, rssMb, startGateway, stopChild } from './lib/gatewayProcess';
import { median, roundRatios, summarize, type Latency } from './lib/latency';
import { ms, table } from './lib/table';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const ROUNDS = setting('BENCH_ROUNDS', 5);
const QUERIES = setting('BENCH_QUERIES', 100);
/** Issue 17 item 3: bulk load at 1M entities. */
const BULK_GOAL = 20_000;
/** A sorted range covers this share of the rank values. */
const RANGE_SHARE = 0.1;
const WARMUP = 50;
const restartRounds = (size: number) => setting('BENCH_RESTARTS', size >= 1_000_000 ? 1 : 2);

// ---------------------------------------------------------------------------------------------
// processes and directories: stopped and removed on the way out, on error and on Ctrl-C too

const children = new Set<ChildProcess>();
const dirs: string[] = [];
const keep = process.env.BENCH_KEEP === '1';

function cleanUp(): void {
  for (const child of children) if (alive(child)) child.kill('SIGKILL');
  if (!keep) for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping`);
    process.exit(130);
  });
}

async function gateway(dataDir: string, options: Parameters<typeof startGateway>[2] = {}): Promise<{ child: ChildProcess; base: string; readyMs: number }> {
  const started = await startGateway(__dirname, dataDir, options);
  children.add(started.process);
  started.process.once('exit', () => children.delete(started.process));
  return { child: started.process, base: `http://127.0.0.1:${started.port}`, readyMs: started.readyMs };
}

// ---------------------------------------------------------------------------------------------
// the entities and the searches

/** Two-word match queries on name, no pair twice. */
function matchBodies(count: number): object[] {
  const words = vocabulary();
  const rand = prng(1234);
  const word = zipf(words.length, rand);
  const seen = new Set<string>();
  const out: object[] = [];
  while (out.length < count) {
    const text = `${words[word()]} ${words[word()]}`;
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ query: { match: { name: text } } });
  }
  return out;
}

/** Ranges on rank over a tenth of its values, sorted on rank (asc and desc in turn), no range twice. */
function sortBodies(count: number): object[] {
  const rand = prng(4321);
  const width = Math.round(RANK_SPAN * RANGE_SHARE);
  const seen = new Set<number>();
  const out: object[] = [];
  while (out.length < count) {
    const lower = Math.floor(rand() * (RANK_SPAN - width));
    if (seen.has(lower)) continue;
    seen.add(lower);
    out.push({ query: { bool: { filter: [{ range: { rank: { gte: lower, lt: lower + width } } }] } }, sort: [{ rank: out.length % 2 === 0 ? 'asc' : 'desc' }] });
  }
  return out;
}

interface Answer {
  status: number;
  result?: { hits: { _id: string; sort?: unknown[] }[]; total: number; errors?: unknown[] };
}

async function post(url: string, token: string, body: unknown): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as Answer;
}

/**
 * The bulk load, one request at a time; each batch's body is made while the one before is sent and
 * answered (as a loader reads its next batch meanwhile), so that the client's own work (making
 * 1,000 entities and their JSON) is not counted as the gateway's time.
 */
async function load(base: string, token: string, size: number): Promise<number> {
  const started = performance.now();
  const bodies = batches(size);
  const send = (body: string) => sendBatch(base, token, body);
  let next = bodies.next();
  while (!next.done) {
    const answered = send(next.value);
    await new Promise((resolve) => setImmediate(resolve)); // (the request on its way)
    next = bodies.next();
    await answered;
  }
  return performance.now() - started;
}

/** One search, timed from the request to its parsed answer; checks what it answered. */
async function timed(url: string, token: string, body: object, check: (answer: Answer) => void): Promise<number> {
  const started = performance.now();
  const answer = await post(url, token, body);
  const elapsed = performance.now() - started;
  if (answer.status !== 200) throw new Error(`search failed: ${JSON.stringify(answer).slice(0, 300)}`);
  check(answer);
  return elapsed;
}

/** A sorted range's page: in order, within the range. */
function checkSorted(body: object): (answer: Answer) => void {
  const { query, sort } = body as { query: { bool: { filter: [{ range: { rank: { gte: number; lt: number } } }] } }; sort: [{ rank: 'asc' | 'desc' }] };
  const { gte, lt } = query.bool.filter[0].range.rank;
  const desc = sort[0].rank === 'desc';
  return (answer) => {
    const keys = answer.result!.hits.map((h) => h.sort![0] as number);
    if (keys.length !== Math.min(10, answer.result!.total)) throw new Error(`sorted range: ${keys.length} hits of ${answer.result!.total}`);
    keys.forEach((k, i) => {
      if (k < gte || k >= lt || (i > 0 && (desc ? k > keys[i - 1] : k < keys[i - 1]))) throw new Error(`sorted range ${gte}..${lt} ${sort[0].rank}: keys ${keys.join(', ')}`);
    });
  };
}

interface Latencies {
  match: Latency;
  sorted: Latency;
  ratios: { median: number; each: string };
}

async function latencies(base: string, token: string): Promise<Latencies> {
  const url = `${base}/v4/entity/products/search?size=10`;
  const matches = matchBodies(WARMUP + ROUNDS * QUERIES);
  const sorts = sortBodies(WARMUP + ROUNDS * QUERIES);
  const none = () => undefined;
  for (let i = 0; i < WARMUP; i++) {
    await timed(url, token, matches[i], none);
    await timed(url, token, sorts[i], checkSorted(sorts[i]));
  }
  const all = { match: [] as number[], sorted: [] as number[] };
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const at = WARMUP + round * QUERIES;
    const runMatch = async () => {
      const samples: number[] = [];
      for (let i = at; i < at + QUERIES; i++) samples.push(await timed(url, token, matches[i], none));
      return samples;
    };
    const runSorted = async () => {
      const samples: number[] = [];
      for (let i = at; i < at + QUERIES; i++) samples.push(await timed(url, token, sorts[i], checkSorted(sorts[i])));
      return samples;
    };
    let m: number[];
    let s: number[];
    if (round % 2 === 0) {
      m = await runMatch();
      s = await runSorted();
    } else {
      s = await runSorted();
      m = await runMatch();
    }
    all.match.push(...m);
    all.sorted.push(...s);
    ratios.push(median(s) / median(m));
  }
  return { match: summarize(all.match), sorted: summarize(all.sorted), ratios: roundRatios(ratios) };
}

// ---------------------------------------------------------------------------------------------
// the floors

function readFiles(dir: string): { ms: number; bytes: number } {
  const started = performance.now();
  let bytes = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isFile()) bytes += readFileSync(path).length;
  }
  return { ms: performance.now() - started, bytes };
}

/** The index file alone read (fs.readFileSync, from the page cache), or null when there is none. */
function readIndexFile(dir: string): { ms: number; bytes: number } | null {
  const path = join(dir, INDEX_FILE);
  if (!existsSync(path)) return null;
  const started = performance.now();
  const bytes = readFileSync(path).length;
  return { ms: performance.now() - started, bytes };
}

/**
 * The gateway started again on `dataDir` (the restart), its log read at info for what it did with
 * the index file: 'index file read' (and the ms it took inside the gateway), or why not.
 */
async function restart(dataDir: string, env: Record<string, string> = {}): Promise<{ child: ChildProcess; readyMs: number; indexFile: string }> {
  let log = '';
  const started = await gateway(dataDir, { env: { LOG_LEVEL: 'info', LOG_REQUESTS: 'false', ...env }, stdout: (text) => (log += text) });
  const lines = log.split('\n').filter((line) => line.includes('index file'));
  const said = lines.map((line) => {
    try {
      const entry = JSON.parse(line) as { msg: string; ms?: number; reason?: string };
      return entry.ms !== undefined ? `${entry.msg} in ${entry.ms} ms` : entry.reason !== undefined ? `${entry.msg}: ${entry.reason}` : entry.msg;
    } catch {
      return line;
    }
  });
  return { child: started.child, readyMs: started.readyMs, indexFile: said.join('; ') || 'no index file line in the log' };
}

function loopRows(dir: string, parse: boolean): number {
  const db = new Database(join(dir, DATABASE_FILE), { readonly: true });
  try {
    const started = performance.now();
    let n = 0;
    for (const row of db.prepare('SELECT collection, id, source FROM entities ORDER BY seq').iterate() as IterableIterator<{ source: string }>) {
      if (parse) JSON.parse(row.source);
      n++;
    }
    const elapsed = performance.now() - started;
    if (n === 0) throw new Error('no rows');
    return elapsed;
  } finally {
    db.close();
  }
}

function sqliteBytes(dir: string): number {
  let bytes = 0;
  for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`]) {
    try {
      bytes += statSync(join(dir, name)).size;
    } catch {
      // no such file
    }
  }
  return bytes;
}

/** The gateway started on an empty DATA_DIR, until /readyz (ms), then stopped. */
async function emptyStart(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-scale-empty-'));
  dirs.push(dataDir);
  const started = await gateway(dataDir);
  await stopChild(started.child, 30_000);
  rmSync(dataDir, { recursive: true, force: true });
  return started.readyMs;
}

// ---------------------------------------------------------------------------------------------

interface SizeResult {
  size: number;
  loadMs: number;
  /** The gateway's CPU time (all threads) during the load. */
  loadCpuMs: number;
  /** Its main thread's run time during the load, and the time it was ready to run but waited for a CPU (/proc schedstat). */
  loadMainMs: number;
  loadWaitMs: number;
  rssLoaded: number;
  lat: Latencies;
  sqlite: number;
  dataDirBytes: number;
  restartMs: number;
  /** The gateway started on an empty DATA_DIR until /readyz: what any start costs. */
  emptyMs: number;
  rssRestarted: number;
  readMs: number;
  loopMs: number;
  parseMs: number;
  /** The index file's size and the time to read it alone (NaN: none). */
  indexBytes: number;
  indexReadMs: number;
  /** The restart without the index file (INDEX_FILE_QUIET_MS=0: every entity indexed from SQLite), one round. */
  rebuildMs: number;
}

async function runSize(size: number, token: string): Promise<SizeResult> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-scale-${size}-`));
  dirs.push(dataDir);
  const first = await gateway(dataDir);
  const cpuBefore = cpuMs(first.child.pid!) ?? NaN;
  const schedBefore = mainThreadSched(first.child.pid!);
  const loadMs = await load(first.base, token, size);
  const loadCpuMs = (cpuMs(first.child.pid!) ?? NaN) - cpuBefore;
  const sched = mainThreadSched(first.child.pid!);
  const loadMainMs = (sched?.ranMs ?? NaN) - (schedBefore?.ranMs ?? NaN);
  const loadWaitMs = (sched?.waitedMs ?? NaN) - (schedBefore?.waitedMs ?? NaN);
  const rssLoaded = rssMb(first.child.pid!) ?? NaN;
  console.log(`${size}: loaded in ${(loadMs / 1000).toFixed(1)} s (the gateway's CPU ${(loadCpuMs / 1000).toFixed(1)} s, its main thread's ${(loadMainMs / 1000).toFixed(1)} s, which waited ${(loadWaitMs / 1000).toFixed(1)} s for a CPU), RSS ${rssLoaded.toFixed(0)} MB`);
  const lat = await latencies(first.base, token);
  console.log(`${size}: match p50 ${ms(lat.match.p50)} ms, sorted range p50 ${ms(lat.sorted.p50)} ms (per round sorted/match: ${lat.ratios.each})`);
  await stopChild(first.child, 30_000);
  const sqlite = sqliteBytes(dataDir);
  const rounds = { restart: [] as number[], rss: [] as number[], read: [] as number[], loop: [] as number[], parse: [] as number[], empty: [] as number[], index: [] as number[] };
  let dataDirBytes = 0;
  let indexBytes = NaN;
  for (let round = 0; round < restartRounds(size); round++) {
    const read = readFiles(dataDir);
    dataDirBytes = read.bytes;
    rounds.read.push(read.ms);
    const index = readIndexFile(dataDir);
    indexBytes = index?.bytes ?? NaN;
    rounds.index.push(index?.ms ?? NaN);
    rounds.loop.push(loopRows(dataDir, false));
    rounds.parse.push(loopRows(dataDir, true));
    rounds.empty.push(await emptyStart());
    const again = await restart(dataDir);
    rounds.restart.push(again.readyMs);
    rounds.rss.push(rssMb(again.child.pid!) ?? NaN);
    await stopChild(again.child, 60_000);
    console.log(
      `${size}: restart ${round + 1} ready in ${(again.readyMs / 1000).toFixed(2)} s [${again.indexFile}] (read index file ${index === null ? 'none' : `${ms(index.ms)} ms`}, read files ${ms(read.ms)} ms, loop rows ${ms(rounds.loop.at(-1)!)} ms, + JSON.parse ${ms(rounds.parse.at(-1)!)} ms)`,
    );
  }
  // the same restart without the index file: every entity indexed from SQLite (what a restart cost before it)
  const rebuilt = await restart(dataDir, { INDEX_FILE_QUIET_MS: '0' });
  await stopChild(rebuilt.child, 60_000);
  console.log(`${size}: restart without the index file ready in ${(rebuilt.readyMs / 1000).toFixed(2)} s`);
  if (keep) console.log(`${size}: DATA_DIR kept in ${dataDir}`);
  else rmSync(dataDir, { recursive: true, force: true });
  return { size, loadMs, loadCpuMs, loadMainMs, loadWaitMs, rssLoaded, lat, sqlite, dataDirBytes, restartMs: median(rounds.restart), emptyMs: median(rounds.empty), rssRestarted: median(rounds.rss), readMs: median(rounds.read), loopMs: median(rounds.loop), parseMs: median(rounds.parse), indexBytes, indexReadMs: median(rounds.index), rebuildMs: rebuilt.readyMs };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mbText = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MB`;
const seconds = (msValue: number) => `${(msValue / 1000).toFixed(msValue < 10_000 ? 2 : 1)} s`;

function report(results: SizeResult[]): void {
  console.log(`\nbench:scale — node ${process.version}, ${ROUNDS} rounds of ${QUERIES} searches of each kind, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  console.log(
    table(
      ['entities', 'bulk load docs/s', 'gateway CPU per entity', 'main thread: ran / waited for a CPU', 'RSS after load', 'restart until /readyz', 'sqlite file', 'uncached match p50 / p99', 'sort by rank + range p50 / p99', 'sorted / match p50'],
      results.map((r) => [
        fmt(r.size),
        fmt((r.size * 1000) / r.loadMs),
        `${((r.loadCpuMs * 1000) / r.size).toFixed(0)} µs`,
        `${((r.loadMainMs * 1000) / r.size).toFixed(0)} / ${((r.loadWaitMs * 1000) / r.size).toFixed(0)} µs`,
        `${fmt(r.rssLoaded)} MB`,
        seconds(r.restartMs),
        mbText(r.sqlite),
        `${ms(r.lat.match.p50)} / ${ms(r.lat.match.p99)} ms`,
        `${ms(r.lat.sorted.p50)} / ${ms(r.lat.sorted.p99)} ms`,
        `${r.lat.ratios.median.toFixed(2)}x`,
      ]),
    ),
  );
  console.log('\nfloors (the same run, the gateway stopped; restart figures are medians of BENCH_RESTARTS rounds):\n');
  console.log(
    table(
      ['entities', 'DATA_DIR', 'read DATA_DIR files', 'index file', 'read index file', 'loop over stored rows', 'loop + JSON.parse', 'start, empty DATA_DIR', 'restart until /readyz', 'restart / read index file', 'restart / read files', 'restart / loop + parse', 'restart without index file', 'RSS after restart'],
      results.map((r) => [
        fmt(r.size),
        mbText(r.dataDirBytes),
        `${ms(r.readMs)} ms`,
        mbText(r.indexBytes),
        `${ms(r.indexReadMs)} ms`,
        `${ms(r.loopMs)} ms`,
        `${ms(r.parseMs)} ms`,
        seconds(r.emptyMs),
        seconds(r.restartMs),
        `${(r.restartMs / r.indexReadMs).toFixed(1)}x`,
        `${(r.restartMs / r.readMs).toFixed(1)}x`,
        `${(r.restartMs / r.parseMs).toFixed(1)}x`,
        seconds(r.rebuildMs),
        `${fmt(r.rssRestarted)} MB`,
      ]),
    ),
  );
  const million = results.find((r) => r.size >= 1_000_000);
  console.log(
    million === undefined
      ? `\ngoal (issue 17 item 3): bulk load at least ${fmt(BULK_GOAL)} docs/s at 1,000,000 entities: not measured (BENCH_SIZES has no size of 1,000,000)`
      : `\ngoal (issue 17 item 3): bulk load at least ${fmt(BULK_GOAL)} docs/s at 1,000,000 entities: ${(million.size * 1000) / million.loadMs >= BULK_GOAL ? 'met' : 'NOT met'} (${fmt((million.size * 1000) / million.loadMs)} docs/s; per entity, the gateway's main thread ran ${((million.loadMainMs * 1000) / million.size).toFixed(1)} µs and waited ${((million.loadWaitMs * 1000) / million.size).toFixed(1)} µs for a CPU taken by other threads or processes)`,
  );
  console.log('\nsorted / match p50 per round:');
  for (const r of results) console.log(`  ${fmt(r.size)}: ${r.lat.ratios.each}`);
}

async function main(): Promise<void> {
  if (SIZES.some((s) => !Number.isInteger(s) || s <= 0)) throw new Error(`BENCH_SIZES must be positive integers separated by commas, got "${process.env.BENCH_SIZES}"`);
  const token = await benchToken();
  const results: SizeResult[] = [];
  for (const size of SIZES) results.push(await runSize(size, token));
  report(results);
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
