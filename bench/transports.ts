/**
 * npm run bench:transports — the same search over REST, raw WebSocket and GraphQL-over-HTTP on a
 * gateway holding a 10k-entity corpus, as deployed (the embedded store's request cache answers the
 * repeated search) and with SEARCH_CACHE_ENTRIES=0 (the engine runs every search), beside floors
 * measured in the same run: a bare Node http server returning a fixed envelope (an empty result,
 * and the gateway's own answer byte for byte), and an Apollo Server answering a constant query
 * (plus express returning the fixed envelope, for reference). Every server is its own process;
 * HTTP load is wrk, WebSocket load a Node process; all on 127.0.0.1.
 *
 * Settings: BENCH_SECONDS (default 8), BENCH_CONNECTIONS (default 32), BENCH_DOCS (default 10000),
 * BENCH_QUERY (a search body as JSON; default a two-word match on name).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenService } from '../src/core/auth/tokens';
import { corpus, queries } from './lib/corpus';
import { startNode, type Child } from './lib/processes';
import { hasWrk, wrkPost, type LoadResult } from './lib/wrk';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DOCS = Number(process.env.BENCH_DOCS ?? 10_000);
const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const dist = (...p: string[]) => join(__dirname, ...p);

async function post(url: string, token: string, body: unknown): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
}

function http(url: string, body: unknown, headers: Record<string, string> = {}): LoadResult {
  const text = JSON.stringify(body);
  const all = { 'Content-Type': 'application/json', ...headers };
  wrkPost(url, text, all, { connections: CONNECTIONS, seconds: 2 }); // warm-up
  return wrkPost(url, text, all, { connections: CONNECTIONS, seconds: SECONDS });
}

function ws(url: string, message: unknown): LoadResult {
  const out = execFileSync(process.execPath, [dist('lib', 'wsLoad.js'), url, String(CONNECTIONS), String(SECONDS), JSON.stringify(message)], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
}

async function withServer<T>(script: string, env: Record<string, string>, run: (child: Child) => Promise<T> | T): Promise<T> {
  const child = await startNode(script, { PORT: '0', ...env });
  try {
    return await run(child);
  } finally {
    await child.stop();
  }
}

interface Row {
  name: string;
  r: LoadResult;
}

/** One gateway process: load the corpus over REST, check the transports agree, load each in turn. */
async function measureGateway(label: string, env: Record<string, string>, token: string, query: object, rows: Row[]): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-transports-'));
  try {
    return await withServer(dist('..', 'src', 'main.js'), { NODE_ENV: 'production', AUTH_SECRET: SECRET, DATA_DIR: dataDir, LOG_LEVEL: 'info', HOST: '127.0.0.1', ...env }, async ({ port }) => {
      const base = `http://127.0.0.1:${port}`;
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

      rows.push({ name: `REST search${label}`, r: http(`${base}/v4/entity/things/search`, query, { Authorization: `Bearer ${token}` }) });
      rows.push({ name: `raw WebSocket search${label}`, r: ws(`ws://127.0.0.1:${port}/`, { controller: 'document', action: 'search', collection: 'things', body: query, jwt: token }) });
      rows.push({ name: `GraphQL search (HTTP)${label}`, r: http(`${base}/graphql`, gqlBody, { Authorization: `Bearer ${token}` }) });
      return restText;
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!hasWrk()) throw new Error('wrk is required (Debian: apt-get install wrk)');
  const rows: Row[] = [];
  const token = await new TokenService(new TextEncoder().encode(SECRET)).sign({ sub: 'bench', tenantId: 'bench', roles: ['admin'] }, 3600_000);
  const query = process.env.BENCH_QUERY ? (JSON.parse(process.env.BENCH_QUERY) as object) : { query: { match: { name: queries(1)[0] } } };
  console.log(`corpus ${DOCS} entities, query ${JSON.stringify(query)}, ${CONNECTIONS} connections, ${SECONDS} s per run, node ${process.version}`);

  // as deployed (the embedded store's request cache answers a repeated search), then with the
  // cache off, so that every request runs the search in the engine
  const answer = await measureGateway('', {}, token, query, rows);
  await measureGateway(', cache off', { SEARCH_CACHE_ENTRIES: '0' }, token, query, rows);

  rows.push({ name: 'floor: bare Node http', r: await withServer(dist('floors', 'bareNode.js'), {}, ({ port }) => http(`http://127.0.0.1:${port}/`, query)) });
  rows.push({ name: 'floor: bare Node http, same answer bytes', r: await withServer(dist('floors', 'bareNode.js'), { BENCH_PAYLOAD: answer }, ({ port }) => http(`http://127.0.0.1:${port}/`, query)) });
  rows.push({ name: 'floor: Apollo constant query', r: await withServer(dist('floors', 'apolloConstant.js'), { NODE_ENV: 'production' }, ({ port }) => http(`http://127.0.0.1:${port}/graphql`, { query: '{ hello }' })) });
  rows.push({ name: 'reference: express fixed JSON', r: await withServer(dist('floors', 'expressFixed.js'), { NODE_ENV: 'production' }, ({ port }) => http(`http://127.0.0.1:${port}/`, query)) });

  const get = (name: string) => rows.find((x) => x.name === name)!.r.requestsPerSec;
  const bare = get('floor: bare Node http');
  const sameBytes = get('floor: bare Node http, same answer bytes');
  const apollo = get('floor: Apollo constant query');
  console.log('\n| run | requests/s | p50 ms | p99 ms | errors | vs bare Node | vs bare Node, same bytes | vs Apollo floor |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const { name, r } of rows) {
    const x = (floor: number) => `${(r.requestsPerSec / floor).toFixed(2)}x`;
    console.log(`| ${name} | ${r.requestsPerSec.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.errors} | ${x(bare)} | ${x(sameBytes)} | ${x(apollo)} |`);
  }
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log('\ntargets (the gateway as deployed; "cache off" rows in brackets):');
  for (const suffix of ['', ', cache off']) {
    const restR = get(`REST search${suffix}`);
    const wsR = get(`raw WebSocket search${suffix}`);
    const gqlR = get(`GraphQL search (HTTP)${suffix}`);
    const open = suffix === '' ? '' : '  [';
    const close = suffix === '' ? '' : ']';
    console.log(`${open}  REST search >= 0.5x bare Node floor: ${(restR / bare).toFixed(2)}x ${verdict(restR / bare >= 0.5)} (against the floor sending the same ${Buffer.byteLength(answer)} bytes: ${(restR / sameBytes).toFixed(2)}x ${verdict(restR / sameBytes >= 0.5)})${close}`);
    console.log(`${open}  GraphQL search >= 0.8x Apollo floor: ${(gqlR / apollo).toFixed(2)}x ${verdict(gqlR / apollo >= 0.8)}${close}`);
    console.log(`${open}  raw WebSocket search fastest of the three: ${verdict(wsR > restR && wsR > gqlR)} (${wsR.toFixed(0)} vs REST ${restR.toFixed(0)}, GraphQL ${gqlR.toFixed(0)})${close}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
