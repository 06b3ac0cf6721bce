/**
 * npm run bench:transports — the same search over REST, raw WebSocket and GraphQL-over-HTTP on a
 * gateway holding a 10k-entity corpus, as deployed (the embedded store's request cache answers the
 * repeated search) and with SEARCH_CACHE_ENTRIES=0 (the engine runs every search), beside floors
 * measured in the same run: a bare Node http server returning a fixed envelope (an empty result,
 * and the gateway's own answer byte for byte), and an Apollo Server answering a constant query
 * (plus express returning the fixed envelope, for reference). Every server is its own process;
 * HTTP load is wrk, WebSocket load a Node process; all on 127.0.0.1.
 *
 * Every server stays up for the whole run; the runs are interleaved in rounds and each row reports
 * its median, so that a slow spell of the machine hits every row alike. Each run also measures the
 * server process's CPU time per request (Linux /proc) and the machine's steal: the CPU ratios stay
 * put when the shared machine's speed swings, requests/s ratios do not.
 *
 * Settings: BENCH_SECONDS (default 5), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 32), BENCH_DOCS (default 10000),
 * BENCH_QUERY (a search body as JSON; default a two-word match on name).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenService } from '../src/core/auth/tokens';
import { corpus, queries } from './lib/corpus';
import { startNode, type Child } from './lib/processes';
import { withCpuCost, type CpuCost } from './lib/cpuTime';
import { hasWrk, wrkPost, type LoadResult } from './lib/wrk';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DOCS = Number(process.env.BENCH_DOCS ?? 10_000);
const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The median run of a row (by requests/s). */
function typical(row: Row): LoadResult & CpuCost {
  const rps = median(row.runs.map((r) => r.requestsPerSec));
  return row.runs.find((r) => r.requestsPerSec === rps)!;
}

/** The median of a row's server CPU per request. */
const cpuPerRequest = (row: Row): number => median(row.runs.map((r) => r.cpuUsPerRequest));

/** A gateway process holding the corpus (loaded over REST), its three searches checked to agree. */
async function startGateway(label: string, env: Record<string, string>, token: string, query: object, children: Child[], rows: Row[]): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-transports-'));
  const child = await startNode(dist('..', 'src', 'main.js'), { PORT: '0', NODE_ENV: 'production', AUTH_SECRET: SECRET, DATA_DIR: dataDir, LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env });
  children.push({ ...child, stop: async () => { await child.stop(); rmSync(dataDir, { recursive: true, force: true }); } });
  const base = `http://127.0.0.1:${child.port}`;
  const started = Date.now();
  const docs = [...corpus(DOCS)].map((d) => ({ ...d, slug: d._id })); // generated names repeat: keep slugs unique
  for (let i = 0; i < docs.length; i += 1000) {
    const answer = await post(`${base}/v4/entity/things/_bulk`, token, docs.slice(i, i + 1000));
    if (answer.status !== 200 || answer.result.errors.length > 0) throw new Error(`corpus load failed: ${JSON.stringify(answer).slice(0, 300)}`);
  }
  console.log(`gateway${label}: corpus loaded through REST _bulk in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const restText = await (await fetch(`${base}/v4/entity/things/search`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(query) })).text();
  const rest = JSON.parse(restText);
  const gqlBody = { query: 'query($q: JSON) { search(type: "things", query: $q) { total hits { id score source } } }', variables: { q: (query as { query?: unknown }).query ?? null } };
  const gql = await post(`${base}/graphql`, token, gqlBody);
  const same = JSON.stringify(rest.result.hits.map((h: any) => [h._id, h._score, h._source])) === JSON.stringify(gql.data.search.hits.map((h: any) => [h.id, h.score, h.source]));
  console.log(`gateway${label}: search total ${rest.result.total}, ${rest.result.hits.length} hits, answer ${Buffer.byteLength(restText)} bytes; REST and GraphQL answers identical: ${same}`);

  const pid = child.process.pid!;
  rows.push({ name: `REST search${label}`, pid, load: http(`${base}/v4/entity/things/search`, query, { Authorization: `Bearer ${token}` }), runs: [] });
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
  const token = await new TokenService(new TextEncoder().encode(SECRET)).sign({ sub: 'bench', tenantId: 'bench', roles: ['admin'] }, 3600_000);
  const query = process.env.BENCH_QUERY ? (JSON.parse(process.env.BENCH_QUERY) as object) : { query: { match: { name: queries(1)[0] } } };
  console.log(`corpus ${DOCS} entities, query ${JSON.stringify(query)}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per run, node ${process.version}`);

  const rows: Row[] = [];
  const children: Child[] = [];
  try {
    // as deployed (the embedded store's request cache answers a repeated search), and with the
    // cache off, so that every request runs the search in the engine
    const answer = await startGateway('', {}, token, query, children, rows);
    await startGateway(', cache off', { SEARCH_CACHE_ENTRIES: '0' }, token, query, children, rows);
    await startFloor('floor: bare Node http', 'bareNode.js', {}, (port) => `http://127.0.0.1:${port}/`, query, children, rows);
    await startFloor('floor: bare Node http, same answer bytes', 'bareNode.js', { BENCH_PAYLOAD: answer }, (port) => `http://127.0.0.1:${port}/`, query, children, rows);
    await startFloor('floor: Apollo constant query', 'apolloConstant.js', {}, (port) => `http://127.0.0.1:${port}/graphql`, { query: '{ hello }' }, children, rows);
    await startFloor('reference: express fixed JSON', 'expressFixed.js', {}, (port) => `http://127.0.0.1:${port}/`, query, children, rows);

    // every server stays up; the runs are interleaved (round 1 of every row, then round 2...) and
    // each row reports its median, so that a slow spell of this shared machine hits all rows alike
    for (const row of rows) row.load(2); // warm-up
    for (let round = 1; round <= ROUNDS; round++) {
      for (const row of rows) row.runs.push(withCpuCost(row.pid, () => row.load(SECONDS)));
      console.log(`round ${round}/${ROUNDS} done`);
    }
    report(rows, answer);
  } finally {
    for (const child of children) await child.stop();
  }
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
  console.log('\nrequests/s: each row the median of its rounds; server CPU: the median of the server process\'s CPU time (all threads) per request answered, which the machine\'s steal does not move');
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
  console.log('\ntargets (the gateway as deployed; with the cache off in brackets), by requests/s and by server CPU per request:');
  for (const suffix of ['', ', cache off']) {
    const [restR, wsR, gqlR] = ['REST search', 'raw WebSocket search', 'GraphQL search (HTTP)'].map((n) => get(n + suffix));
    const [restC, wsC, gqlC] = ['REST search', 'raw WebSocket search', 'GraphQL search (HTTP)'].map((n) => cpu(n + suffix));
    const [open, close] = suffix === '' ? ['', ''] : ['[', ']'];
    console.log(`  ${open}REST search >= 0.5x bare Node floor: ${(restR / bare).toFixed(2)}x ${verdict(restR / bare >= 0.5)}; by CPU ${(bareCpu / restC).toFixed(2)}x ${verdict(bareCpu / restC >= 0.5)} (against the floor sending the same ${Buffer.byteLength(answer)} bytes: ${(restR / sameBytes).toFixed(2)}x, by CPU ${(cpu('floor: bare Node http, same answer bytes') / restC).toFixed(2)}x)${close}`);
    console.log(`  ${open}GraphQL search >= 0.8x Apollo floor: ${(gqlR / apollo).toFixed(2)}x ${verdict(gqlR / apollo >= 0.8)}; by CPU ${(apolloCpu / gqlC).toFixed(2)}x ${verdict(apolloCpu / gqlC >= 0.8)}${close}`);
    console.log(`  ${open}raw WebSocket search fastest of the three: ${verdict(wsR > restR && wsR > gqlR)} (${wsR.toFixed(0)} vs REST ${restR.toFixed(0)}, GraphQL ${gqlR.toFixed(0)} requests/s); by CPU ${verdict(wsC < restC && wsC < gqlC)} (${wsC.toFixed(0)} vs REST ${restC.toFixed(0)}, GraphQL ${gqlC.toFixed(0)} µs/request)${close}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
