/**
 * npm run bench:ab -- DIR_A DIR_B — two builds of the gateway compared in one process, on the
 * cached REST search of bench:transports. Each build's gateway holds the corpus; one HTTP server
 * hands every request to the build whose turn it is (turns of BENCH_SLICE_MS, default 100,
 * alternating A, B, A, B...) under a steady wrk load; each turn's CPU time (process.cpuUsage, all
 * threads) is divided by the requests handed to it. Printed: each build's median µs per request and
 * the median of the per-turn-pair ratios B/A.
 *
 * Why: this machine's speed swings by up to 2x within a minute, so two processes measured one
 * after the other can differ by more than the change being measured. Turns 100 ms apart see the
 * same machine: a build compared with itself gives 1.00 ± 0.01 here.
 *
 * DIR_A, DIR_B: outputs of `npx tsc -p tsconfig.bench.json --outDir DIR` (for instance of two
 * commits, checked out with `git worktree`), inside this repository so that their requires find
 * its node_modules (`.mydist/` is ignored by git). Settings: BENCH_SECONDS (default 15), BENCH_ROUNDS
 * (default 2), BENCH_CONNECTIONS (default 32), BENCH_DOCS (default 10000), BENCH_SLICE_MS (default 100),
 * BENCH_QUERY (a search body as JSON; default a two-word match on name, as bench:transports).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { BENCH_SECRET, benchQuery, benchToken, loadCorpus, setting } from './lib/gateway';
import { median } from './lib/latency';
import { hasWrk, wrkPostAsync } from './lib/wrk';

const SECONDS = setting('BENCH_SECONDS', 15);
const ROUNDS = setting('BENCH_ROUNDS', 2);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 32);
const DOCS = setting('BENCH_DOCS', 10_000);
const SLICE_MS = setting('BENCH_SLICE_MS', 100);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Build {
  handler: Handler;
  stop(): Promise<void>;
}

/** A gateway of the build in `dir`, listening on its own port (for loading the corpus), its request handler returned. */
async function startBuild(dir: string, token: string): Promise<Build> {
  const { loadConfig } = require(join(dir, 'src', 'config.js'));
  const { createLogger } = require(join(dir, 'src', 'log.js'));
  const { createGateway } = require(join(dir, 'src', 'server.js'));
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-ab-'));
  const env = { NODE_ENV: 'production', AUTH_SECRET: BENCH_SECRET, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const gateway = createGateway(loadConfig(env), createLogger('warn'));
  const port: number = await gateway.listen();
  await loadCorpus(`http://127.0.0.1:${port}`, token, DOCS);
  return {
    handler: gateway.server.listeners('request')[0] as Handler,
    stop: async () => {
      await gateway.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const [dirA, dirB] = process.argv.slice(2).map((d) => resolve(d));
  if (dirA === undefined || dirB === undefined) throw new Error('usage: node dist/bench/abBuilds.js DIR_A DIR_B');
  if (!hasWrk()) throw new Error('wrk is needed (Debian package wrk)');
  const token = await benchToken();
  const builds = [await startBuild(dirA, token), await startBuild(dirB, token)];

  let turn = 0;
  let handed = 0;
  const server = createServer((req, res) => {
    handed++;
    builds[turn].handler(req, res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4/entity/things/search`;
  const query = JSON.stringify(benchQuery());

  /** µs per request of A's turn and of the B turn right after it, for each such pair of turns with over 100 requests each. */
  let pairs: [number, number][] = [];
  let turnOfA: number | undefined;
  let cpu = process.cpuUsage();
  const clock = setInterval(() => {
    const used = process.cpuUsage(cpu);
    cpu = process.cpuUsage();
    // (requests handed to the build in its turn; answers leave from setImmediate, a few of them in the next turn)
    const cost = handed > 100 ? (used.user + used.system) / handed : undefined;
    if (turn === 0) turnOfA = cost;
    else if (turnOfA !== undefined && cost !== undefined) pairs.push([turnOfA, cost]);
    handed = 0;
    turn = 1 - turn;
  }, SLICE_MS);

  const load = (seconds: number) => wrkPostAsync(url, query, { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, { connections: CONNECTIONS, seconds });
  console.log(`A: ${dirA}\nB: ${dirB}\n${DOCS} entities, ${CONNECTIONS} connections, turns of ${SLICE_MS} ms, ${ROUNDS} rounds of ${SECONDS} s`);
  await load(3); // warm-up: both builds compile their hot paths
  for (let round = 1; round <= ROUNDS; round++) {
    pairs = [];
    const result = await load(SECONDS);
    const a = median(pairs.map(([costA]) => costA));
    const b = median(pairs.map(([, costB]) => costB));
    const ratio = median(pairs.map(([costA, costB]) => costB / costA));
    console.log(`round ${round}: ${result.requestsPerSec.toFixed(0)} requests/s, ${result.errors} errors; ${pairs.length} turn pairs: A ${a.toFixed(1)} µs/request, B ${b.toFixed(1)} µs/request, B/A ${ratio.toFixed(3)} (median of the pairs)`);
  }
  clearInterval(clock);
  server.close();
  for (const build of builds) await build.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
