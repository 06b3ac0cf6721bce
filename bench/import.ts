/**
 * npm run bench:import — `npm run import` into the embedded store, beside two baselines from the
 * same run, on generated NDJSON (BENCH_LINES lines, default 100,000, of a few fields: code, a
 * name of 3-4 words, a number, a two-tag array, shared with every tenant):
 *
 * - read + parse: the file read and split into parsed lines by the import's own reader, nothing
 *   written (what any import pays first);
 * - store bulk: the same entities (built beforehand, managed fields included) inserted through
 *   the embedded store's bulk write (EmbeddedDatabase.insertEntities, one transaction per 1,000),
 *   without validation, slugs or a file, on the calling thread (the floor of any import into the
 *   store; the CLI commits in its commit thread while it reads and checks the next batch);
 * - the CLI: `node dist/src/cli/import.js --type countries --tenants '*' --id-field code`, the
 *   real command in its own process on a fresh DATA_DIR, batches of 1,000; its docs/s as it prints
 *   them (from its first batch to its end) and from process start to exit.
 *
 * Each row is the median of BENCH_ROUNDS rounds (default 3), each on a fresh DATA_DIR. The goal
 * (issue 16 item 4): at least 20,000 documents/s for the CLI as it prints, said met or not on the
 * last line. The machine's load average is printed with the
 * results: on a shared machine, other processes' CPU use lowers every row.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNdjson } from '../src/cli/importNdjson';
import { EmbeddedDatabase } from '../src/store/embedded/database';
import { table } from './lib/table';

const LINES = Number(process.env.BENCH_LINES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 1000;
const GOAL = 20_000;
const WORDS = ['north', 'south', 'east', 'west', 'upper', 'lower', 'great', 'little', 'new', 'old', 'saint', 'port'];

function line(i: number): Record<string, unknown> {
  return { code: `c${i}`, name: `Country ${WORDS[i % 12]} ${WORDS[(i * 7) % 12]} ${i}`, population: (i * 7919) % 1_000_000, tags: [WORDS[i % 5], WORDS[i % 3]] };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const perSecond = (count: number, ms: number) => Math.round((count * 1000) / ms);

async function readAndParse(file: string): Promise<number> {
  const started = performance.now();
  let count = 0;
  for await (const records of readNdjson(createReadStream(file, { highWaterMark: 256 * 1024 }), { offset: 0, line: 1 })) count += records.length;
  if (count !== LINES) throw new Error(`read ${count} lines`);
  return performance.now() - started;
}

function storeBulk(dir: string): number {
  const now = Date.now();
  const items = Array.from({ length: LINES }, (_, i) => {
    const body = line(i);
    const id = String(body.code);
    return { id, source: { _service_info: { author: 'import', createdAt: now, updatedAt: null, updater: null }, entityType: 'country', id, modified: new Date(now).toISOString(), modifier: { entityType: 'user', id: 'import', slug: 'import', shortName: 'import' }, slug: `country-${i}`, allowTenantIds: ['*'], ...body } };
  });
  const db = new EmbeddedDatabase(dir);
  const started = performance.now();
  for (let i = 0; i < LINES; i += BATCH) db.insertEntities('countries', items.slice(i, i + BATCH));
  const elapsed = performance.now() - started;
  db.close();
  return elapsed;
}

function cliRun(file: string, dir: string): { printed: number; wall: number } {
  const started = performance.now();
  const run = spawnSync(process.execPath, [join(__dirname, '..', 'src', 'cli', 'import.js'), '--type', 'countries', '--tenants', '*', '--id-field', 'code', '--batch', String(BATCH), file], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: dir },
    encoding: 'utf8',
  });
  const wall = performance.now() - started;
  if (run.status !== 0) throw new Error(`the import failed (exit ${run.status}): ${run.stderr}`);
  const summary = /(\d+) created, (\d+) not imported in [\d.]+ s, (\d+) docs\/s/.exec(run.stderr);
  if (summary === null || Number(summary[1]) !== LINES) throw new Error(`unexpected summary: ${run.stderr.slice(-300)}`);
  return { printed: Number(summary[3]), wall: perSecond(LINES, wall) };
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-import-'));
  try {
    const file = join(work, 'countries.ndjson');
    writeFileSync(file, Array.from({ length: LINES }, (_, i) => JSON.stringify(line(i))).join('\n') + '\n');
    const rows: Record<string, number[]> = { parse: [], bulk: [], cli: [], cliWall: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rows.parse.push(perSecond(LINES, await readAndParse(file)));
      rows.bulk.push(perSecond(LINES, storeBulk(join(work, `bulk-${round}`))));
      const run = cliRun(file, join(work, `cli-${round}`));
      rows.cli.push(run.printed);
      rows.cliWall.push(run.wall);
      rmSync(`${file}.report.ndjson.checkpoint.json`, { force: true });
    }
    const fmt = (n: number) => n.toLocaleString('en-US');
    process.stdout.write(`${LINES.toLocaleString('en-US')} NDJSON lines, batches of ${BATCH}, median of ${ROUNDS} rounds; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')} on this machine\n\n`);
    process.stdout.write(
      table(
        ['what', 'docs/s', 'rounds'],
        [
          ['read + parse the file only (baseline)', fmt(median(rows.parse)), rows.parse.map(fmt).join(' ')],
          ['store bulk insert only (baseline)', fmt(median(rows.bulk)), rows.bulk.map(fmt).join(' ')],
          ['npm run import (as it prints)', fmt(median(rows.cli)), rows.cli.map(fmt).join(' ')],
          ['npm run import (process start to exit)', fmt(median(rows.cliWall)), rows.cliWall.map(fmt).join(' ')],
        ],
      ) + '\n',
    );
    const printed = median(rows.cli);
    process.stdout.write(`\ngoal (issue 16 item 4): npm run import at least ${fmt(GOAL)} docs/s into the embedded store: ${printed >= GOAL ? 'met' : 'NOT met'} (${fmt(printed)} docs/s as it prints, median)\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
