/**
 * npm run bench:abuse — does the gateway stay responsive while it is abused? A gateway process holds
 * BENCH_DOCS entities (every fifth named with 40 `a`s and its number, as in the issue's
 * reproduction; the others from the bench corpus), and, in a collection of their own, a few entities
 * with descriptions of 500,000 characters for the abuse of highlighting them (bench/abuse/longDocs.ts). A measuring client sends, one at a time, GET
 * /healthz and a plain search that the engine must run (a match on name of a word of the vocabulary
 * taken in a shuffled order, so that the request cache never answers it), for BENCH_SECONDS per
 * phase, without abuse and while BENCH_ABUSERS connections send the costliest searches we could
 * build (bench/abuse/kinds.ts), each the next as soon as the previous is answered.
 *
 * Phases are interleaved in BENCH_ROUNDS rounds (no abuse, abuse; no abuse, abuse; ...) and end with
 * one more phase without abuse, which shows whether the gateway recovered: this shared machine's
 * speed moves by up to 2x within a minute, so each abuse phase is compared with the phase just before
 * it, and only within one run. Every abuse phase starts with 1 s of abuse before the measuring starts;
 * after it, the abusers stop sending and the next phase waits until every abusive request in flight is
 * answered or given up (the drain).
 *
 * Processes: the gateway, the measuring client (bench/abuse/probe.ts) and the abusers
 * (bench/abuse/abusers.ts) each run in their own; this one only conducts. The measuring client has its
 * own process because on this 2-core machine, in the abusers' process, its timers and sockets would
 * wait behind their work (building 600 KB bodies, reading 4 MB pages of hits), and those waits would
 * be charged to the gateway. In its own process it only competes with them for a core, which the
 * kernel shares at a finer grain, and the abusers run at nice 10 so that a waking measuring client
 * gets the core first. The gateway still shares the machine's two cores with both clients, so the
 * latencies are, if anything, worse than a client on another machine would see.
 *
 * The gateway's event-loop stalls are measured from inside without touching src/: a preload
 * (bench/abuse/loopMonitor.ts, through NODE_OPTIONS=--require) records the longest delay of a 10 ms
 * timer every 250 ms, and the garbage collector's pauses (the longest, its kind, the share of the
 * time); from outside, the longest /healthz answer is the longest wait a client saw. Per phase, the
 * share of the time the gateway's main thread ran and the share it waited, ready to run, for a CPU
 * held by another process (/proc/<pid>/schedstat): on this shared 2-core machine the latter is often
 * a third of an abuse phase or more, time no scheduling inside the gateway can give back. The
 * measuring client's own wait for a CPU is shown likewise, per request it sent: what of its
 * latencies is its own and not the gateway's.
 *
 * The phases start once the gateway has written its index file after the load (the write after
 * INDEX_FILE_QUIET_MS without changes): its reading and checksumming of every index would otherwise
 * fall in the first phase, the baseline. Per phase, the table also counts the monitor's 250 ms
 * windows that held a stall of 20 ms or more.
 *
 * Every request has a client-side timeout (BENCH_TIMEOUT_MS, default 15000): one given up counts as
 * "client timeout", with its latency the timeout. The gateway's own settings (SEARCH_TIMEOUT,
 * SEARCH_SLICE_MS, the MAX_* limits, SEARCH_CACHE_ENTRIES...) are passed through from the environment;
 * the store is always the embedded one.
 *
 * Settings: BENCH_DOCS (default 100000), BENCH_SECONDS (default 20, per phase), BENCH_ROUNDS
 * (default 2), BENCH_ABUSERS (default 8), BENCH_TIMEOUT_MS (default 15000), BENCH_KINDS (a regular
 * expression: only the abusive requests whose name it matches, e.g. "refuse|sorted"), BENCH_ALONE=1
 * (after the phases, each abusive request is also sent alone, twice, and the gateway's longest
 * event-loop stall during each is printed: which request holds the loop, and for how long). A quick
 * run: BENCH_DOCS=10000 BENCH_SECONDS=5.
 *
 * To find what stalls the gateway: BENCH_NODE_ARGS (node flags for the gateway only, as bench:abBulk takes them, e.g.
 * "--cpu-prof --cpu-prof-dir=/tmp/prof" or "--trace-gc"), BENCH_GATEWAY_STDOUT (a file the gateway's
 * standard output is copied to: --trace-gc's lines), BENCH_LOOP_KEEP (a file the loop monitor's lines
 * are copied to at the end; their last field is the monotonic clock in µs, the clock of a CPU
 * profile's samples).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stopped, StartRequest } from './abuse/abusers';
import { merge, type Tally } from './abuse/http';
import { LONG_A, abuseKinds } from './abuse/kinds';
import { LONG_CHARS, LONG_DOCS, LONG_PLURAL, longDescription } from './abuse/longDocs';
import { RESOLUTION_MS } from './abuse/loopMonitor';
import type { MeasureRequest, Measured } from './abuse/probe';
import { corpus } from './lib/corpus';
import { INDEX_FILE } from '../src/store/embedded/snapshot/indexFile';
import { benchToken, setting } from './lib/gateway';
import { alive, benchNodeArgs, freePort, gatewayEnv, mainThreadSched, rssMb, stopChild } from './lib/gatewayProcess';
import { median, percentile } from './lib/latency';
import { ms, table } from './lib/table';

const DOCS = setting('BENCH_DOCS', 100_000);
const SECONDS = setting('BENCH_SECONDS', 20);
const ROUNDS = setting('BENCH_ROUNDS', 2);
const ABUSERS = setting('BENCH_ABUSERS', 8);
const TIMEOUT_MS = setting('BENCH_TIMEOUT_MS', 15_000);
/** Abuse before an abuse phase is measured. */
const RAMP_MS = 1000;
/** The goal: plain search p99 under abuse at most this many times its p99 without. */
const GOAL_RATIO = 3;
const dist = (...p: string[]) => join(__dirname, ...p);

type PhaseKind = 'no abuse' | 'abuse' | 'after abuse';

interface Phase {
  kind: PhaseKind;
  round: number;
  /** Date.now() when the phase began (abuse phases: when the abusers started), and when the next began. */
  start: number;
  end: number;
  measured: Measured;
  abuse?: Stopped;
  /** The gateway's main thread over the phase (mainThreadSched at its start and end). */
  sched?: { ranMs: number; waitedMs: number };
  /** The measuring client's main thread over the phase, likewise: its own waits are in its latencies. */
  clientSched?: { ranMs: number; waitedMs: number };
}

interface Gateway {
  process: ChildProcess;
  port: number;
  dataDir: string;
  loopFile: string;
  /** Lines of its log (stdout, LOG_LEVEL=warn) by level and message. */
  log: Map<string, number>;
}

// ---------------------------------------------------------------------------------------------
// processes: everything started is stopped on the way out, on error and on Ctrl-C too

const children: ChildProcess[] = [];
const tempDirs: string[] = [];

async function stopAll(): Promise<void> {
  await Promise.all(children.map((child) => stopChild(child)));
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
}

process.on('exit', () => {
  for (const child of children) if (alive(child)) child.kill('SIGKILL');
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});
/** Set on Ctrl-C: what fails while stopping is not reported. */
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: stopping`);
    void stopAll().finally(() => process.exit(130));
  });
}

/** Sends `msg` to a child process and resolves with its next message, or rejects after `timeoutMs` or if it exits. */
function ask<T>(child: ChildProcess, msg: object, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const onMessage = (reply: unknown) => {
      done();
      resolve(reply as T);
    };
    const onExit = (code: number | null, signal: string | null) => {
      done();
      reject(new Error(`${child.spawnfile} ${child.spawnargs.at(-1)} exited (${signal ?? code}) before answering "${(msg as { cmd?: string }).cmd}"`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${child.spawnargs.at(-1)} did not answer "${(msg as { cmd?: string }).cmd}" within ${timeoutMs} ms`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(msg);
  });
}

async function startGateway(): Promise<Gateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-abuse-'));
  tempDirs.push(dataDir);
  const loopFile = join(dataDir, 'event-loop.txt');
  const port = await freePort();
  const nodeOptions = [process.env.NODE_OPTIONS ?? '', `--require ${JSON.stringify(dist('abuse', 'loopMonitor.js'))}`].join(' ').trim();
  const child = spawn(process.execPath, [...benchNodeArgs(), dist('..', 'src', 'main.js')], {
    env: { ...gatewayEnv(port, dataDir), BENCH_LOOP_FILE: loopFile, NODE_OPTIONS: nodeOptions },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const log = new Map<string, number>();
  let pending = '';
  const copy = process.env.BENCH_GATEWAY_STDOUT;
  child.stdout!.on('data', (chunk: Buffer) => {
    if (copy !== undefined && copy !== '') appendFileSync(copy, chunk);
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      let key = line.slice(0, 120);
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string };
        key = `level ${entry.level}: ${entry.msg ?? ''}`;
      } catch {
        // not pino's: keep its beginning
      }
      log.set(key, (log.get(key) ?? 0) + 1);
    }
  });
  // ready when /healthz answers
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (!alive(child)) throw new Error(`the gateway exited (${child.signalCode ?? child.exitCode}) while starting`);
    if (Date.now() > deadline) throw new Error('the gateway did not answer /healthz within 60 s');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) })).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { process: child, port, dataDir, loopFile, log };
}

/** The bench corpus with every fifth name replaced by 40 `a`s and the entity's number, over REST _bulk, 1,000 at a time. */
async function loadDocs(port: number, token: string, size: number): Promise<void> {
  const docs = [...corpus(size)].map((d, i) => ({ ...d, slug: d._id, name: i % 5 === 4 ? `${LONG_A}${i}` : d.name }));
  for (let i = 0; i < docs.length; i += 1000) {
    const res = await fetch(`http://127.0.0.1:${port}/v4/entity/things/_bulk`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(docs.slice(i, i + 1000)),
    });
    const answer = (await res.json()) as { status: number; result?: { errors: unknown[] } };
    if (answer.status !== 200 || (answer.result?.errors.length ?? 0) > 0) throw new Error(`corpus load failed: ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

/** How long the bench waits for the index file written after the load. */
const INDEX_FILE_WAIT_MS = 120_000;

/**
 * When the gateway has written its index file after the load (the file renamed into place since
 * `since`, no temporary file of a write left): the write reads and checksums every index, and
 * would otherwise fall in the first phase without abuse, the baseline. Null if it did not within
 * INDEX_FILE_WAIT_MS.
 */
async function indexFileWritten(gateway: Gateway, since: number): Promise<number | null> {
  const file = join(gateway.dataDir, INDEX_FILE);
  const deadline = Date.now() + INDEX_FILE_WAIT_MS;
  while (Date.now() < deadline) {
    const writing = readdirSync(gateway.dataDir).some((name) => name.startsWith(`${INDEX_FILE}.`) && name.endsWith('.tmp'));
    const mtime = existsSync(file) ? statSync(file).mtimeMs : -Infinity;
    if (!writing && mtime >= since) return mtime;
    await new Promise((r) => setTimeout(r, 200));
  }
  return null;
}

/** The long entities to highlight (bench/abuse/longDocs.ts), one a request (a body is at most 1 MiB). */
async function loadLongDocs(port: number, token: string): Promise<void> {
  for (let i = 0; i < LONG_DOCS; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/v4/entity/${LONG_PLURAL}?_id=long${i}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `long book ${i}`, description: longDescription(i), allowTenantIds: ['*'] }),
    });
    const answer = (await res.json()) as { status: number };
    if (answer.status !== 200) throw new Error(`long entity load failed: ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const token = await benchToken();
  console.log(
    `bench:abuse: ${DOCS} entities, ${ROUNDS} rounds of ${SECONDS} s without and with abuse then ${SECONDS} s without, ${ABUSERS} abusive connections, client timeout ${TIMEOUT_MS} ms, node ${process.version}`,
  );
  const gateway = await startGateway();
  const { port } = gateway;
  const pid = gateway.process.pid!;
  const rss: [number, number][] = [];
  const sampler = setInterval(() => {
    const mb = rssMb(pid);
    if (mb !== undefined) rss.push([Date.now(), mb]);
  }, 500);
  sampler.unref();

  const started = Date.now();
  await loadDocs(port, token, DOCS);
  await loadLongDocs(port, token);
  const loaded = Date.now();
  console.log(
    `gateway: ${DOCS} entities loaded through REST _bulk, and ${LONG_DOCS} of ${LONG_CHARS.toLocaleString('en')}-character descriptions (${LONG_PLURAL}) to highlight, in ${((loaded - started) / 1000).toFixed(1)} s`,
  );
  const written = await indexFileWritten(gateway, loaded);
  console.log(
    written === null
      ? `the index file was not written within ${INDEX_FILE_WAIT_MS / 1000} s of the load: measuring anyway (a write during the first phases would show in their stalls)`
      : `index file written ${((written - loaded) / 1000).toFixed(1)} s after the load (INDEX_FILE_QUIET_MS after the last change, then the write): the phases start after it`,
  );

  const probe = fork(dist('abuse', 'probe.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const abusers = fork(dist('abuse', 'abusers.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(probe, abusers);
  try {
    setPriority(abusers.pid!, 10);
  } catch {
    console.log('(could not lower the abusers\' priority)');
  }
  const { kinds } = await ask<{ kinds: { name: string; expect: string; bytes: number }[] }>(abusers, { cmd: 'prepare' }, 60_000);

  const measure = async (seconds: number): Promise<Measured> => {
    const msg: MeasureRequest = { cmd: 'measure', port, token, seconds, timeoutMs: TIMEOUT_MS };
    return ask<Measured>(probe, msg, seconds * 1000 + 2 * TIMEOUT_MS + 10_000);
  };
  const checkGateway = (when: string) => {
    if (!alive(gateway.process)) throw new Error(`the gateway exited (${gateway.process.signalCode ?? gateway.process.exitCode}) ${when}`);
  };

  await measure(2); // warm-up, not counted: the first searches pay for compiling the search path
  const plan: [PhaseKind, number][] = [];
  for (let round = 1; round <= ROUNDS; round++) plan.push(['no abuse', round], ['abuse', round]);
  plan.push(['after abuse', ROUNDS]);
  const phases: Phase[] = [];
  for (const [kind, round] of plan) {
    const start = Date.now();
    const schedAtStart = mainThreadSched(pid);
    const clientAtStart = mainThreadSched(probe.pid!);
    if (phases.length > 0) phases[phases.length - 1].end = start;
    let abuse: Stopped | undefined;
    let measured: Measured;
    if (kind === 'abuse') {
      const msg: StartRequest = { cmd: 'start', port, token, connections: ABUSERS, timeoutMs: TIMEOUT_MS };
      await ask(abusers, msg, 10_000);
      await new Promise((r) => setTimeout(r, RAMP_MS));
      measured = await measure(SECONDS);
      abuse = await ask<Stopped>(abusers, { cmd: 'stop' }, 2 * TIMEOUT_MS + 10_000);
    } else {
      measured = await measure(SECONDS);
    }
    checkGateway(`during phase "${kind}" of round ${round}`);
    const between = (a?: { ranMs: number; waitedMs: number }, b?: { ranMs: number; waitedMs: number }) => (a && b ? { ranMs: b.ranMs - a.ranMs, waitedMs: b.waitedMs - a.waitedMs } : undefined);
    const sched = between(schedAtStart, mainThreadSched(pid));
    const clientSched = between(clientAtStart, mainThreadSched(probe.pid!));
    phases.push({ kind, round, start, end: Date.now(), measured, abuse, sched, clientSched });
    const search = summary(measured.search);
    console.log(
      `round ${round}, ${kind}: search p99 ${msText(search.p99)} over ${search.count}` +
        (abuse ? `; ${abuse.kinds.reduce((n, t) => n + t.ms.length, 0)} abusive requests answered or given up, ${abuse.inFlightAtStop} in flight at the end answered or given up within ${(abuse.drainMs / 1000).toFixed(1)} s` : ''),
    );
  }
  await new Promise((r) => setTimeout(r, 300)); // the loop monitor's last window
  phases[phases.length - 1].end = Date.now();
  const alone = process.env.BENCH_ALONE === '1' ? await sendAlone(port, token) : [];
  clearInterval(sampler);
  // the loop monitor's file, read once for both reports
  const loop = readLoop(gateway);
  if (process.env.BENCH_LOOP_KEEP) writeFileSync(process.env.BENCH_LOOP_KEEP, readFileSync(gateway.loopFile));
  report(phases, kinds, gateway, rss, loop);
  if (alone.length > 0) reportAlone(alone, loop);
}

interface Alone {
  name: string;
  ms: number[];
  windows: [number, number][];
}

/** BENCH_ALONE: each abusive request sent by itself, twice, with a quiet 300 ms around it (the loop monitor's windows). */
async function sendAlone(port: number, token: string): Promise<Alone[]> {
  const out: Alone[] = [];
  let n = 1e6;
  for (const kind of abuseKinds()) {
    const entry: Alone = { name: kind.name, ms: [], windows: [] };
    for (let i = 0; i < 2; i++) {
      await new Promise((r) => setTimeout(r, 300));
      const start = Date.now();
      const res = await fetch(`http://127.0.0.1:${port}${kind.path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: kind.body(n++),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      }).catch(() => null);
      await res?.arrayBuffer();
      const end = Date.now();
      entry.ms.push(end - start);
      entry.windows.push([start, end]);
    }
    out.push(entry);
  }
  await new Promise((r) => setTimeout(r, 300));
  return out;
}

function reportAlone(alone: Alone[], loop: LoopLine[]): void {
  console.log('\neach abusive request alone (BENCH_ALONE), twice: its latency, the longest event-loop stall while it ran, and the longest garbage collection pause and time in all:');
  console.log(
    table(
      ['request', 'latency', 'longest stall', 'longest GC pause', 'GC time'],
      alone.map((a) => {
        const gc = a.windows.map(([from, to]) => gcIn(loop, from, to + 250));
        return [
          a.name,
          a.ms.map((v) => msText(v)).join(', '),
          a.windows.map(([from, to]) => stallText(loopStall(loop, from, to + 250))).join(', '),
          gc.map((g) => `${msText(g.max)} ${g.kind}`).join(', '),
          gc.map((g) => msText(g.total)).join(', '),
        ];
      }),
    ),
  );
}

function readLoop(gateway: Gateway): LoopLine[] {
  return existsSync(gateway.loopFile)
    ? readFileSync(gateway.loopFile, 'utf8')
        .trim()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split(' ').map((field, i) => (i === 4 ? field : Number(field))) as LoopLine)
    : [];
}

// ---------------------------------------------------------------------------------------------
// report

interface Summary {
  p50: number;
  p99: number;
  max: number;
  count: number;
  timeouts: number;
}

function summary(t: Tally): Summary {
  const sorted = [...t.ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? NaN, count: sorted.length, timeouts: t.outcomes['client timeout'] ?? 0 };
}

const outcomes = (t: Tally): string =>
  Object.entries(t.outcomes)
    .sort((a, b) => b[1] - a[1])
    .map(([label, n]) => `${label} x${n}`)
    .join(', ');

const x = (ratio: number): string => (Number.isFinite(ratio) ? `${ratio.toFixed(2)}x` : 'n/a');

/** A line of the loop monitor's file: when, the longest loop delay, the longest GC pause and the GC time of its window (ms). */
type LoopLine = [number, number, number?, number?, string?];

/** The longest garbage collection pause, the time spent collecting and its share of the time, over the monitor's windows that ended within [from, to). */
function gcIn(lines: LoopLine[], from: number, to: number): { max: number; kind: string; total: number; share: number } {
  let max = NaN;
  let kind = '-';
  let total = 0;
  for (const [t, , gcMax, gcTotal, gcKind] of lines) {
    if (t < from || t >= to || gcMax === undefined) continue;
    if (!(gcMax <= max)) [max, kind] = [gcMax, gcKind ?? '?'];
    total += gcTotal ?? 0;
  }
  return { max, kind, total, share: total / (to - from) };
}

interface Stall {
  ms: number;
  /** The loop was still held when the run ended: `ms` is a lower bound. */
  held: boolean;
}

/**
 * The longest event-loop stall that began within [from, to), seen by the preloaded monitor: each of
 * its windows records the longest delay of a 10 ms timer (less those 10 ms, the stall), and the stall
 * began that long before the window ended; so a stall is counted whole in the phase it began in (an
 * abuse phase's stall that lasts into the next phase is the abuse phase's). If the loop was still held
 * when the run ended (the monitor did not run in its last second), the phase that ended then reports at
 * least the time since the monitor last ran (less its 250 ms period).
 */
function loopStall(lines: LoopLine[], from: number, to: number): Stall {
  let max = NaN;
  let last = NaN;
  for (const [t, delay] of lines) {
    const stall = Math.max(0, delay - RESOLUTION_MS);
    if (t - delay >= from && t - delay < to && !(stall <= max)) max = stall;
    last = t;
  }
  const runEnded = lines.length === 0 || last < to;
  if (runEnded && to - (Number.isNaN(last) ? from : last) > 1000) return { ms: to - (Number.isNaN(last) ? from : last) - 250, held: true };
  return { ms: max, held: false };
}

/** A stall this long or longer is counted in the per-phase table. */
const STALL_MS = 20;

/** How many of the loop monitor's 250 ms windows that ended within [from, to) held a stall of STALL_MS or more, of how many. */
function stallShare(lines: LoopLine[], from: number, to: number): string {
  const windows = lines.filter(([t]) => t >= from && t < to);
  return `${windows.filter(([, delay]) => delay - RESOLUTION_MS >= STALL_MS).length} of ${windows.length}`;
}

const msText = (value: number): string => (Number.isFinite(value) ? `${ms(value)} ms` : 'n/a');
const stallText = (stall: Stall): string => (stall.held ? `>= ${msText(stall.ms)}, held at the end` : msText(stall.ms));

function peak(samples: [number, number][], from: number, to: number): number {
  let max = NaN;
  for (const [t, mb] of samples) if (t >= from && t < to && !(mb <= max)) max = mb;
  return max;
}

function report(phases: Phase[], kinds: { name: string; expect: string; bytes: number }[], gateway: Gateway, rss: [number, number][], loop: LoopLine[]): void {

  console.log(
    "\nper phase (each phase's window runs until the next phase starts: an abuse phase includes its drain; 'loop ran' and 'waited for a CPU': the share of the phase the gateway's main thread ran, and waited, ready, for a CPU that other processes held (the bench's own included: this machine is shared), from /proc/<pid>/schedstat; 'client waited': the same wait of the measuring client's main thread, per request it sent, on average: time in its latencies that is not the gateway's):",
  );
  console.log(
    table(
      ['round', 'phase', '/healthz p50', 'p99', 'max', 'search p50', 'p99', 'max', 'searches', 'client timeouts', 'abusive requests', 'drain', 'loop stall inside', `windows stalled >= ${STALL_MS} ms`, 'loop ran', 'waited for a CPU', 'client waited', 'gateway RSS'],
      phases.map((p) => {
        const h = summary(p.measured.healthz);
        const s = summary(p.measured.search);
        return [
          String(p.round),
          p.kind,
          msText(h.p50),
          msText(h.p99),
          msText(h.max),
          msText(s.p50),
          msText(s.p99),
          msText(s.max),
          String(s.count),
          String(h.timeouts + s.timeouts),
          p.abuse ? String(p.abuse.kinds.reduce((n, t) => n + t.ms.length, 0)) : '-',
          p.abuse ? `${(p.abuse.drainMs / 1000).toFixed(1)} s` : '-',
          stallText(loopStall(loop, p.start, p.end)),
          stallShare(loop, p.start, p.end),
          p.sched ? `${((100 * p.sched.ranMs) / (p.end - p.start)).toFixed(0)}%` : 'n/a',
          p.sched ? `${((100 * p.sched.waitedMs) / (p.end - p.start)).toFixed(0)}%` : 'n/a',
          p.clientSched && h.count + s.count > 0 ? msText(p.clientSched.waitedMs / (h.count + s.count)) : 'n/a',
          Number.isFinite(peak(rss, p.start, p.end)) ? `${peak(rss, p.start, p.end).toFixed(0)} MB` : 'n/a',
        ];
      }),
    ),
  );

  const of = (kind: PhaseKind) => phases.filter((p) => p.kind === kind);
  const pooled = (kind: PhaseKind, which: 'healthz' | 'search') => merge(of(kind).map((p) => p.measured[which]));
  const rows: string[][] = [];
  const ratios: Record<'healthz' | 'search', number> = { healthz: NaN, search: NaN };
  for (const [which, label] of [['healthz', 'GET /healthz'], ['search', 'plain search']] as const) {
    const base = summary(pooled('no abuse', which));
    for (const kind of ['no abuse', 'abuse', 'after abuse'] as const) {
      const t = pooled(kind, which);
      const s = summary(t);
      if (kind === 'abuse') ratios[which] = s.p99 / base.p99;
      rows.push([label, kind, msText(s.p50), msText(s.p99), msText(s.max), String(s.count), kind === 'no abuse' ? '-' : x(s.p99 / base.p99), outcomes(t)]);
    }
  }
  console.log('\nmeasuring client, all phases of a kind pooled ("no abuse": the phases before each abuse phase; "after abuse": the last phase):');
  console.log(table(['request', 'phase', 'p50', 'p99', 'max', 'count', 'p99 vs no abuse', 'statuses'], rows));

  // each abuse phase against the phase just before it (seconds apart, the same machine)
  const perRound = (which: 'healthz' | 'search') =>
    phases
      .map((p, i) => (p.kind === 'abuse' && i > 0 ? summary(p.measured[which]).p99 / summary(phases[i - 1].measured[which]).p99 : NaN))
      .filter((r) => !Number.isNaN(r))
      .map(x)
      .join(', ');
  const before = summary(pooled('no abuse', 'search')).p99;
  const after = summary(pooled('after abuse', 'search')).p99;
  console.log(`\n/healthz p99 under abuse: ${x(ratios.healthz)} its p99 without (each round against the phase before it: ${perRound('healthz')})`);
  console.log(
    `plain search p99 under abuse at most ${GOAL_RATIO}x its p99 without: ${ratios.search <= GOAL_RATIO ? 'met' : 'NOT met'} (${x(ratios.search)}; each round against the phase before it: ${perRound('search')})`,
  );
  console.log(`recovery: plain search p99 in the last phase without abuse ${x(after / before)} its p99 before abuse`);

  const abused = phases.filter((p) => p.abuse);
  const perKind = kinds.map((_, i) => merge(abused.map((p) => p.abuse!.kinds[i])));
  console.log('\nabusive requests, all abuse phases pooled (latency from sending to the last byte of the answer):');
  console.log(
    table(
      ['request', 'body', 'expected', 'count', 'median', 'max', 'statuses seen'],
      kinds.map((k, i) => {
        const t = perKind[i];
        const s = summary(t);
        return [k.name, k.bytes >= 1024 ? `${(k.bytes / 1024).toFixed(0)} KB` : `${k.bytes} B`, k.expect, String(s.count), msText(median(t.ms)), msText(s.max), outcomes(t)];
      }),
    ),
  );
  const messages = kinds.flatMap((k, i) => Object.entries(perKind[i].messages).map(([label, message]) => `  ${k.name}, ${label}: ${message.length > 160 ? `${message.slice(0, 160)}...` : message}`));
  if (messages.length > 0) console.log(`error messages (the first of each status of each request):\n${messages.join('\n')}`);

  const stall = (kind: PhaseKind) =>
    stallText(of(kind).map((p) => loopStall(loop, p.start, p.end)).reduce((a, b) => (b.ms > a.ms || Number.isNaN(a.ms) ? b : a)));
  const wait = (kind: PhaseKind) => msText(Math.max(...of(kind).map((p) => summary(p.measured.healthz).max)));
  console.log(
    `\ngateway's longest event-loop stall, inside (a 10 ms timer's delay, preloaded through NODE_OPTIONS): no abuse ${stall('no abuse')}, abuse ${stall('abuse')}, after abuse ${stall('after abuse')}`,
  );
  const gc = (kind: PhaseKind) => {
    const each = of(kind).map((p) => gcIn(loop, p.start, p.end));
    const longest = each.reduce((a, b) => (b.max > a.max || Number.isNaN(a.max) ? b : a));
    return `${msText(longest.max)} ${longest.kind} (${each.map((g) => `${(100 * g.share).toFixed(1)}%`).join(', ')} of the time)`;
  };
  console.log(`gateway's longest garbage collection pause (a PerformanceObserver of 'gc', same preload): no abuse ${gc('no abuse')}, abuse ${gc('abuse')}, after abuse ${gc('after abuse')}`);
  console.log(`longest /healthz answer, outside: no abuse ${wait('no abuse')}, abuse ${wait('abuse')}, after abuse ${wait('after abuse')}`);
  const logged = [...gateway.log.entries()].map(([line, n]) => `${line} x${n}`);
  console.log(`gateway log (LOG_LEVEL=warn): ${logged.length === 0 ? 'nothing' : logged.join('; ')}`);
}

main()
  .then(() => stopAll())
  .catch(async (err) => {
    if (interrupted) return; // the signal handler stops everything and exits
    console.error(err);
    await stopAll();
    process.exit(1);
  });
