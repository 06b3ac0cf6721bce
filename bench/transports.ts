/**
 * npm run bench:transports — the same search over REST, raw WebSocket and GraphQL-over-HTTP on a
 * gateway holding a 10k-entity corpus, as deployed (the embedded store's request cache answers the
 * repeated search) and with SEARCH_CACHE_ENTRIES=0 (the engine runs every search), beside floors
 * measured in the same run: a bare Node http server returning a fixed envelope (an empty result,
 * and the gateway's own answer byte for byte), and an Apollo Server answering a constant query
 * (plus express returning the fixed envelope, for reference). Every server is its own process;
 * HTTP load is wrk, WebSocket load a Node process; all on 127.0.0.1. The REST rows are also run on a
 * gateway started with WORKERS=2 (two processes behind the port, node:cluster), cached and uncached,
 * each paired with its one-process row: goal, on this 2-core machine, at least 1.6x the one
 * process's throughput for uncached searches (the load generator shares the two cores).
 *
 * Every server stays up for the whole run; the runs are interleaved in rounds and each row reports
 * its median. Each run also measures the server process's CPU time per request (Linux /proc) and the
 * machine's steal. Within a round, the two sides of each target run back to back (bare Node, REST,
 * raw WebSocket; Apollo floor, GraphQL), and every other round runs in reverse order: each target
 * is judged on the median of its per-round ratios, each taken from two runs seconds apart. This
 * shared machine's speed swings by up to 2x within a minute, with or without steal; two runs
 * seconds apart see the same machine, rows compared a minute apart do not.
 *
 * Each measured run follows an unmeasured one of BENCH_WARMUP_SECONDS (default 1) of the same load:
 * the gateway process serves three rows, and what one run leaves behind (garbage to collect, shared
 * stream code that V8 deoptimized) would otherwise be paid by the next row measured on it.
 *
 * BENCH_ONLY=workers runs the REST rows alone (one process and WORKERS=2, cached and uncached): the
 * fleet's goal in a few minutes, with the load generator and the gateways the only work on the machine.
 *
 * Settings: BENCH_ONLY (see above), BENCH_SECONDS (default 4), BENCH_WARMUP_SECONDS (default 1), BENCH_ROUNDS (default 5), BENCH_CONNECTIONS (default 32), BENCH_DOCS (default 10000),
 * BENCH_QUERY (a search body as JSON; default a two-word match on name).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_SECRET, benchQuery, benchToken, loadCorpus, setting } from './lib/gateway';
import { startNode, type Child } from './lib/processes';
import { withCpuCost, type CpuCost } from './lib/cpuTime';
import { median, roundRatios } from './lib/latency';
import { hasWrk, wrkPost, type LoadResult } from './lib/wrk';

const SECONDS = setting('BENCH_SECONDS', 4);
const ROUNDS = setting('BENCH_ROUNDS', 5);
const WARM_UP = setting('BENCH_WARMUP_SECONDS', 1);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 32);
const DOCS = setting('BENCH_DOCS', 10_000);
/** BENCH_ONLY=workers: the REST rows of one process and of WORKERS=2, nothing else. */
const WORKERS_ONLY = process.env.BENCH_ONLY === 'workers';
if (process.env.BENCH_ONLY !== undefined && !WORKERS_ONLY) throw new Error(`BENCH_ONLY: "workers" or unset, got ${JSON.stringify(process.env.BENCH_ONLY)}`);
const dist = (...p: string[]) => join(__dirname, ...p);

async function post(url: string, token: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
}

/** A load to apply: `seconds` of it gives one measurement. */
type Load = (seconds: number) => LoadResult;

function http(url: string, body: unknown, headers: Record<string, string> = {}): Load {
  const text = JSON.stringify(body);
  const all = { 'Content-Type': 'application/json', ...headers };
  return (seconds) => wrkPost(url, text, all, { connections: CONNECTIONS, seconds });
}

function ws(url: string, message: unknown): Load {
  return (seconds) => {
    const out = execFileSync(process.execPath, [dist('lib', 'wsLoad.js'), url, String(CONNECTIONS), String(seconds), JSON.stringify(message)], { encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
  };
}

interface Row {
  name: string;
  /** The server process under load. */
  pid: number;
  load: Load;
  runs: (LoadResult & CpuCost)[];
}

/**
 * The order of the runs in a round (reversed every other round): each target's two sides back to
 * back (REST between bare Node and raw WebSocket; the Apollo floor between the two GraphQL rows).
 */
const ROUND_ORDER = [
  'raw WebSocket search',
  'REST search',
  'floor: bare Node http',
  'REST search, cache off',
  'REST search, WORKERS=2, cache off',
  'REST search, WORKERS=2',
  'raw WebSocket search, cache off',
  'floor: bare Node http, same answer bytes',
  'GraphQL search (HTTP), cache off',
  'floor: Apollo constant query',
  'GraphQL search (HTTP)',
  'reference: express fixed JSON',
];

/** The median run of a row (by requests/s). */
function typical(row: Row): LoadResult & CpuCost {
  const rps = median(row.runs.map((r) => r.requestsPerSec));
  return row.runs.find((r) => r.requestsPerSec === rps)!;
}

/** The median of a row's server CPU per request. */
const cpuPerRequest = (row: Row): number => median(row.runs.map((r) => r.cpuUsPerRequest));

/** A gateway process holding the corpus (loaded over REST), its three searches checked to agree. */
async function startGateway(label: string, env: Record<string, string>, token: string, query: object, children: Child[], rows: Row[], restOnly = false): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-transports-'));
  const child = await startNode(dist('..', 'src', 'main.js'), { PORT: '0', NODE_ENV: 'production', AUTH_SECRET: BENCH_SECRET, DATA_DIR: dataDir, LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env });
  children.push({ ...child, stop: async () => { await child.stop(); rmSync(dataDir, { recursive: true, force: true }); } });
  const base = `http://127.0.0.1:${child.port}`;
  const started = Date.now();
  await loadCorpus(base, token, DOCS);
  console.log(`gateway${label}: corpus loaded through REST _bulk in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const restText = await (await fetch(`${base}/v4/entity/things/search`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(query) })).text();
  const rest = JSON.parse(restText);
  const gqlBody = { query: 'query($q: JSON) { search(type: "things", query: $q) { total hits { id score source } } }', variables: { q: (query as { query?: unknown }).query ?? null } };
  const gql = await post(`${base}/graphql`, token, gqlBody);
  const same = JSON.stringify(rest.result.hits.map((h: any) => [h._id, h._score, h._source])) === JSON.stringify(gql.data.search.hits.map((h: any) => [h.id, h.score, h.source]));
  console.log(`gateway${label}: search total ${rest.result.total}, ${rest.result.hits.length} hits, answer ${Buffer.byteLength(restText)} bytes; REST and GraphQL answers identical: ${same}`);

  const pid = child.process.pid!;
  rows.push({ name: `REST search${label}`, pid, load: http(`${base}/v4/entity/things/search`, query, { Authorization: `Bearer ${token}` }), runs: [] });
  if (restOnly) return restText;
  rows.push({ name: `raw WebSocket search${label}`, pid, load: ws(`ws://127.0.0.1:${child.port}/`, { controller: 'document', action: 'search', collection: 'things', body: query, jwt: token }), runs: [] });
  rows.push({ name: `GraphQL search (HTTP)${label}`, pid, load: http(`${base}/graphql`, gqlBody, { Authorization: `Bearer ${token}` }), runs: [] });
  return restText;
}

async function startFloor(name: string, script: string, env: Record<string, string>, url: (port: number) => string, body: unknown, children: Child[], rows: Row[]): Promise<void> {
  const child = await startNode(dist('floors', script), { PORT: '0', NODE_ENV: 'production', ...env });
  children.push(child);
  rows.push({ name, pid: child.process.pid!, load: http(url(child.port), body), runs: [] });
}

async function main(): Promise<void> {
  if (!hasWrk()) throw new Error('wrk is required (Debian: apt-get install wrk)');
  const token = await benchToken();
  const query = benchQuery();
  console.log(`corpus ${DOCS} entities, query ${JSON.stringify(query)}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per run, node ${process.version}`);

  const rows: Row[] = [];
  const children: Child[] = [];
  try {
    // as deployed (the embedded store's request cache answers a repeated search), and with the
    // cache off, so that every request runs the search in the engine
    const answer = await startGateway('', {}, token, query, children, rows, WORKERS_ONLY);
    await startGateway(', cache off', { SEARCH_CACHE_ENTRIES: '0' }, token, query, children, rows, WORKERS_ONLY);
    // two processes behind the port (the primary's log says when both listen; the corpus loads meanwhile)
    await startGateway(', WORKERS=2', { WORKERS: '2' }, token, query, children, rows, true);
    await startGateway(', WORKERS=2, cache off', { WORKERS: '2', SEARCH_CACHE_ENTRIES: '0' }, token, query, children, rows, true);
    if (!WORKERS_ONLY) await startFloors(answer, query, children, rows);

    // every server stays up; the runs are interleaved (round 1 of every row, then round 2...), in
    // ROUND_ORDER: each target's two sides back to back, so that their ratio is taken seconds apart
    for (const row of rows) row.load(2); // warm-up
    const order = ROUND_ORDER.map((name) => rows.find((row) => row.name === name)).filter((row): row is Row => row !== undefined);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const row of round % 2 === 1 ? order : [...order].reverse()) {
        // unmeasured first: what the previous run left in a process (the gateway serves three
        // rows: its garbage, V8 re-optimizing shared code) is paid before the measured window
        if (WARM_UP > 0) row.load(WARM_UP);
        row.runs.push(withCpuCost(row.pid, () => row.load(SECONDS)));
      }
      console.log(`round ${round}/${ROUNDS} done`);
    }
    if (WORKERS_ONLY) reportWorkers(rows);
    else report(rows, answer);
  } finally {
    for (const child of children) await child.stop();
  }
}

/** The floors (each its own process), for the targets of the full run. */
async function startFloors(answer: string, query: object, children: Child[], rows: Row[]): Promise<void> {
  await startFloor('floor: bare Node http', 'bareNode.js', {}, (port) => `http://127.0.0.1:${port}/`, query, children, rows);
  await startFloor('floor: bare Node http, same answer bytes', 'bareNode.js', { BENCH_PAYLOAD: answer }, (port) => `http://127.0.0.1:${port}/`, query, children, rows);
  await startFloor('floor: Apollo constant query', 'apolloConstant.js', {}, (port) => `http://127.0.0.1:${port}/graphql`, { query: '{ hello }' }, children, rows);
  await startFloor('reference: express fixed JSON', 'expressFixed.js', {}, (port) => `http://127.0.0.1:${port}/`, query, children, rows);
}

/** BENCH_ONLY=workers: the REST rows, and WORKERS=2 against one process, cached and uncached. */
function reportWorkers(rows: Row[]): void {
  console.log('\n| run | requests/s | p50 ms | p99 ms | errors | server CPU µs/request (every process) | requests/s of each round | steal of each round |');
  console.log('|---|---:|---:|---:|---:|---:|---|---|');
  for (const row of rows) {
    const r = typical(row);
    const errors = row.runs.reduce((n, run) => n + run.errors, 0);
    const each = row.runs.map((run) => run.requestsPerSec.toFixed(0)).join(', ');
    const steal = row.runs.map((run) => `${(run.steal * 100).toFixed(0)}%`).join(', ');
    console.log(`| ${row.name} | ${r.requestsPerSec.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${errors} | ${cpuPerRequest(row).toFixed(0)} | ${each} | ${steal} |`);
  }
  console.log('\nWORKERS=2 against one process, each the median of its per-round ratios:');
  for (const suffix of ['', ', cache off']) console.log(`  ${workersLine(rows, suffix)}`);
}

/** WORKERS=2's throughput against one process's (the goal on uncached searches: at least 1.6x). */
function workersLine(rows: Row[], suffix: string): string {
  const find = (name: string) => rows.find((x) => x.name === name)!;
  const one = find(`REST search${suffix}`);
  const two = find(`REST search, WORKERS=2${suffix}`);
  const ratios = roundRatios(one.runs.map((run, i) => two.runs[i].requestsPerSec / run.requestsPerSec));
  const goal = suffix === '' ? '' : ` >= 1.6x ${ratios.median >= 1.6 ? 'met' : 'NOT met'}`;
  const cpu = (row: Row) => cpuPerRequest(row).toFixed(0);
  return `REST search${suffix} with WORKERS=2 vs one process${goal}: ${ratios.median.toFixed(2)}x (rounds: ${ratios.each}; medians ${typical(two).requestsPerSec.toFixed(0)} vs ${typical(one).requestsPerSec.toFixed(0)} requests/s; server CPU ${cpu(two)} vs ${cpu(one)} µs/request)`;
}

function report(rows: Row[], answer: string): void {
  const find = (name: string) => rows.find((x) => x.name === name)!;
  const get = (name: string) => typical(find(name)).requestsPerSec;
  const bare = get('floor: bare Node http');
  const sameBytes = get('floor: bare Node http, same answer bytes');
  const apollo = get('floor: Apollo constant query');
  const cpu = (name: string) => cpuPerRequest(find(name));
  const bareCpu = cpu('floor: bare Node http');
  const apolloCpu = cpu('floor: Apollo constant query');
  console.log('\nrequests/s: each row the median of its rounds; server CPU: the median of the server process\'s CPU time (all threads) per request answered (steadier than requests/s when the machine\'s speed swings, but not immune)');
  console.log('\n| run | requests/s | p50 ms | p99 ms | errors | vs bare Node | vs bare Node, same bytes | vs Apollo floor | server CPU µs/request | vs bare Node, by CPU | vs Apollo floor, by CPU | requests/s of each round | steal of each round |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
  for (const row of rows) {
    const r = typical(row);
    const x = (floor: number) => `${(r.requestsPerSec / floor).toFixed(2)}x`;
    const c = cpuPerRequest(row);
    const byCpu = (floorCpu: number) => `${(floorCpu / c).toFixed(2)}x`;
    const errors = row.runs.reduce((n, run) => n + run.errors, 0);
    const each = row.runs.map((run) => run.requestsPerSec.toFixed(0)).join(', ');
    const steal = row.runs.map((run) => `${(run.steal * 100).toFixed(0)}%`).join(', ');
    console.log(`| ${row.name} | ${r.requestsPerSec.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${errors} | ${x(bare)} | ${x(sameBytes)} | ${x(apollo)} | ${c.toFixed(0)} | ${byCpu(bareCpu)} | ${byCpu(apolloCpu)} | ${each} | ${steal} |`);
  }
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  // each target on its per-round ratios: the two runs of a round are seconds apart (see ROUND_ORDER)
  const paired = (perRound: (i: number) => number) => roundRatios(rows[0].runs.map((_, i) => perRound(i)));
  const rps = (name: string) => (i: number) => find(name).runs[i].requestsPerSec;
  const cpuOf = (name: string) => (i: number) => find(name).runs[i].cpuUsPerRequest;
  const floorTarget = (label: string, row: string, floor: string, target: number, note = '') => {
    const byRps = paired((i) => rps(row)(i) / rps(floor)(i));
    const byCpu = paired((i) => cpuOf(floor)(i) / cpuOf(row)(i));
    return `${label} >= ${target}x ${floor.replace('floor: ', '')} floor: ${byRps.median.toFixed(2)}x ${verdict(byRps.median >= target)} (rounds: ${byRps.each}); by CPU ${byCpu.median.toFixed(2)}x ${verdict(byCpu.median >= target)} (rounds: ${byCpu.each})${note}`;
  };
  console.log('\ntargets (the gateway as deployed; with the cache off in brackets), each the median of its per-round ratios, by requests/s and by server CPU per request:');
  for (const suffix of ['', ', cache off']) {
    const [rest, ws, gql] = ['REST search', 'raw WebSocket search', 'GraphQL search (HTTP)'].map((n) => n + suffix);
    const [open, close] = suffix === '' ? ['', ''] : ['[', ']'];
    const sameBytesCpu = paired((i) => cpuOf('floor: bare Node http, same answer bytes')(i) / cpuOf(rest)(i));
    console.log(`  ${open}${floorTarget('REST search', rest, 'floor: bare Node http', 0.5, `; against the floor sending the same ${Buffer.byteLength(answer)} bytes, by CPU ${sameBytesCpu.median.toFixed(2)}x`)}${close}`);
    console.log(`  ${open}${floorTarget('GraphQL search', gql, 'floor: Apollo constant query', 0.8)}${close}`);
    const wsByRps = paired((i) => rps(ws)(i) / Math.max(rps(rest)(i), rps(gql)(i)));
    const wsByCpu = paired((i) => Math.min(cpuOf(rest)(i), cpuOf(gql)(i)) / cpuOf(ws)(i));
    console.log(`  ${open}${workersLine(rows, suffix)}${close}`);
    console.log(
      `  ${open}raw WebSocket search fastest of the three: ${wsByRps.median.toFixed(2)}x the next fastest ${verdict(wsByRps.median > 1)} (rounds: ${wsByRps.each}; medians ${get(ws).toFixed(0)} vs REST ${get(rest).toFixed(0)}, GraphQL ${get(gql).toFixed(0)} requests/s);` +
        ` by CPU ${wsByCpu.median.toFixed(2)}x ${verdict(wsByCpu.median > 1)} (rounds: ${wsByCpu.each}; medians ${cpu(ws).toFixed(0)} vs REST ${cpu(rest).toFixed(0)}, GraphQL ${cpu(gql).toFixed(0)} µs/request)${close}`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
