/**
 * npm run bench:abBulk -- DIR_A [DIR_B] — the bulk load of bench:scale (POST /v4/entity/products/_bulk,
 * batches of 1,000, one request at a time) into the gateways of two builds, in one run: each build's
 * gateway is a child process as the README starts it (NODE_ENV=production, DIR/src/main.js, its own
 * fresh DATA_DIR), and both are loaded with the same entities in turns of BENCH_CHUNK batches
 * (default 20): A's turn then B's, B's then A's, ... so that both meet the same machine and the same
 * index sizes. Per turn: the wall time from its first request to its last answer, and the gateway's
 * CPU time meanwhile (all its threads, /proc). Printed per quarter of the load and overall: each
 * build's docs/s and gateway CPU µs per entity (and of it, its main thread's, beside the time that
 * thread was ready to run but waited for a CPU, /proc schedstat: a main thread that runs for most
 * of the wall time is what bounds the load; one that waits, the machine), and the median of the
 * per-turn ratios B/A (the machine's speed swings by up to 2x within a minute: compare within one
 * run only). The client's
 * own CPU time (making bodies, HTTP) is printed too: on this 2-core machine it competes with the
 * gateway.
 *
 * DIR_A, DIR_B: outputs of `npx tsc -p tsconfig.bench.json --outDir DIR` (for instance of two
 * commits, checked out with `git worktree`), inside this repository so that their requires find
 * its node_modules (`.mydist/` is ignored by git). With DIR_A alone: that build loaded alone (a
 * profile run). Settings: BENCH_DOCS (entities per build, default 400000), BENCH_CHUNK,
 * BENCH_NODE_ARGS (more arguments for the gateways' node, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`:
 * the profile is written when the gateway stops).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { benchToken, setting } from './lib/gateway';
import { alive, benchNodeArgs, cpuMs, mainThreadSched, startGateway, stopChild } from './lib/gatewayProcess';
import { median } from './lib/latency';
import { BATCH, batches, sendBatch } from './lib/products';

const DOCS = setting('BENCH_DOCS', 400_000);
const CHUNK = setting('BENCH_CHUNK', 20);
const NODE_ARGS = benchNodeArgs();

interface Build {
  name: string;
  child: ChildProcess;
  base: string;
  dataDir: string;
}

const started: Build[] = [];
process.on('exit', () => {
  for (const build of started) {
    if (alive(build.child)) build.child.kill('SIGKILL');
    rmSync(build.dataDir, { recursive: true, force: true });
  }
});

async function startBuild(name: string, dir: string): Promise<Build> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-abbulk-'));
  const gateway = await startGateway(join(dir, 'bench'), dataDir, { nodeArgs: NODE_ARGS });
  const build = { name, child: gateway.process, base: `http://127.0.0.1:${gateway.port}`, dataDir };
  started.push(build);
  return build;
}

/** A turn's figures, in ms: wall time, the gateway's CPU (all threads), its main thread's run time and its time waiting for a CPU. */
interface Turn {
  ms: number;
  cpu: number;
  ran: number;
  waited: number;
}

/** One turn: `bodies` sent to `build` one at a time. */
async function turn(build: Build, token: string, bodies: string[]): Promise<Turn> {
  const pid = build.child.pid!;
  const cpuBefore = cpuMs(pid) ?? NaN;
  const schedBefore = mainThreadSched(pid);
  const begun = performance.now();
  for (const body of bodies) await sendBatch(build.base, token, body);
  const ms = performance.now() - begun;
  const sched = mainThreadSched(pid);
  const ran = (sched?.ranMs ?? NaN) - (schedBefore?.ranMs ?? NaN);
  const waited = (sched?.waitedMs ?? NaN) - (schedBefore?.waitedMs ?? NaN);
  return { ms, cpu: (cpuMs(pid) ?? NaN) - cpuBefore, ran, waited };
}

async function main(): Promise<void> {
  const dirs = process.argv.slice(2).map((d) => resolve(d));
  if (dirs.length < 1 || dirs.length > 2) throw new Error('usage: node dist/bench/abBulk.js DIR_A [DIR_B]');
  const token = await benchToken();
  const builds: Build[] = [];
  for (const [i, dir] of dirs.entries()) builds.push(await startBuild('AB'[i], dir));
  console.log(`${dirs.map((d, i) => `${'AB'[i]}: ${d}`).join('\n')}\n${DOCS} entities per build, batches of ${BATCH}, turns of ${CHUNK} batches${NODE_ARGS.length > 0 ? `, node ${NODE_ARGS.join(' ')}` : ''}`);

  /** Per turn pair: the entities sent, and each build's figures. */
  const turns: { docs: number; of: Turn[] }[] = [];
  const client = process.cpuUsage();
  const clientBegun = performance.now();
  const bodies = batches(DOCS);
  let sent = 0;
  for (let pair = 0; ; pair++) {
    const chunk: string[] = [];
    for (let next = bodies.next(); !next.done; next = bodies.next()) {
      chunk.push(next.value);
      if (chunk.length === CHUNK) break;
    }
    if (chunk.length === 0) break;
    const docs = Math.min(chunk.length * BATCH, DOCS - sent);
    sent += docs;
    const of: Turn[] = [];
    const order = pair % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) of[builds.indexOf(build)] = await turn(build, token, chunk);
    turns.push({ docs, of });
  }
  const clientCpu = process.cpuUsage(client);
  const clientWall = performance.now() - clientBegun;

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const line = (label: string, part: typeof turns) => {
    const docs = part.reduce((n, t) => n + t.docs, 0);
    const each = builds.map((b, i) => {
      const sum = (key: keyof Turn) => part.reduce((n, t) => n + t.of[i][key], 0);
      const perEntity = (key: keyof Turn) => ((sum(key) * 1000) / docs).toFixed(1);
      return `${b.name} ${fmt((docs * 1000) / sum('ms'))} docs/s, ${perEntity('cpu')} µs CPU/entity (main thread ${perEntity('ran')}, waiting for a CPU ${perEntity('waited')})`;
    });
    const ratio = builds.length === 2 ? `; B/A time ${median(part.map((t) => t.of[1].ms / t.of[0].ms)).toFixed(3)}, CPU ${median(part.map((t) => t.of[1].cpu / t.of[0].cpu)).toFixed(3)} (medians of ${part.length} turn pairs)` : '';
    console.log(`${label}: ${each.join('; ')}${ratio}`);
  };
  const quarter = Math.ceil(turns.length / 4);
  for (let q = 0; q < 4; q++) {
    const part = turns.slice(q * quarter, (q + 1) * quarter);
    if (part.length > 0) line(`entities ${fmt(turns.slice(0, q * quarter).reduce((n, t) => n + t.docs, 0))}-${fmt(turns.slice(0, (q + 1) * quarter).reduce((n, t) => n + t.docs, 0))}`, part);
  }
  line('all', turns);
  console.log(`client: ${fmt((clientCpu.user + clientCpu.system) / 1000)} ms CPU in ${fmt(clientWall)} ms (${(((clientCpu.user + clientCpu.system) / 1000 / clientWall) * 100).toFixed(0)}% of a core)`);
  for (const build of builds) await stopChild(build.child, 120_000);
}

main().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
