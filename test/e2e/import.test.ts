/**
 * `npm run import` as users run it: the real command in its own process (src/cli/import.ts, as
 * dist/src/cli/import.js runs it) on a DATA_DIR that a real gateway process serves at the same
 * time: NDJSON with a bad line (report, exit 1), CSV on standard input, a JSON array, resuming
 * after a SIGKILL and after Ctrl-C with every line imported once, a changed file refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpClient, startGatewayProcess, type GatewayProcess } from '../support/processes';

const ROOT = join(__dirname, '..', '..');

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function startImport(dataDir: string, args: string[], stdin?: string): Run {
  const child = spawn(process.execPath, ['--require', join(ROOT, 'test', 'support', 'swcRegister.js'), join(ROOT, 'src', 'cli', 'import.ts'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NODE_ENV: 'test', DATA_DIR: dataDir },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  child.stdin!.end(stdin);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { child, done };
}

const runImport = (dataDir: string, args: string[], stdin?: string) => startImport(dataDir, args, stdin).done;

/** Resolves once the checkpoint shows a committed batch past line 1. */
async function firstBatchCommitted(checkpoint: string, run: Run): Promise<void> {
  for (;;) {
    if (run.child.exitCode !== null) throw new Error('the import ended before it could be interrupted');
    try {
      if (JSON.parse(readFileSync(checkpoint, 'utf8')).committed.line > 1) return;
    } catch {
      // not written yet, or being renamed
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('npm run import (e2e, a gateway running on the same DATA_DIR)', () => {
  let work: string;
  let gateway: GatewayProcess;
  let client: ReturnType<typeof httpClient>;
  let admin: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'import-e2e-'));
    gateway = await startGatewayProcess({ dataDir: join(work, 'data') });
    client = httpClient(gateway.url);
    admin = await gateway.token({ sub: 'ada', tenantId: 'hq', roles: ['admin'] });
  }, 90_000);

  afterAll(async () => {
    client?.close();
    await gateway?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const count = async (collection: string, query?: unknown) => {
    const res = await client.call('POST', `/v4/entity/${collection}/count`, admin, query === undefined ? {} : { query });
    expect(res.status).toBe(200);
    return res.body.result.count as number;
  };

  it('imports NDJSON, reports the bad lines, and the running gateway finds the entities', async () => {
    const file = join(work, 'countries.ndjson');
    writeFileSync(file, ['{"code": "FR", "name": "France"}', '{"code": "DE", "name": "Germany"}', '{"code": "XX", "name": ', '{"code": "IT", "name": "Italy"}', '{"code": "FR", "name": "France again"}', ''].join('\n'));
    const result = await runImport(join(work, 'data'), ['--type', 'countries', '--tenants', '*', '--id-field', 'code', '--batch', '2', file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('3 created, 2 not imported');
    expect(result.stderr).toContain(`report: ${file}.report.ndjson`);
    const report = readFileSync(`${file}.report.ndjson`, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(report.map((l) => [l.line, l.id, l.error, l.status])).toEqual([
      [3, null, 'network.http.body_parse_failed', 400],
      [5, 'FR', 'services.storage.document_already_exists', 409],
    ]);
    const found = await client.call('POST', '/v4/entity/countries/search', admin, { query: { match: { name: 'germany' } } });
    expect(found.body.result.hits.map((h: any) => [h._id, h._source.slug, h._source.allowTenantIds, h._source.modifier.id])).toEqual([['DE', 'germany', ['*'], 'import']]);
    // a tenant's reader sees them (shared with "*")
    const reader = await gateway.token({ sub: 'bob', tenantId: 'acme' });
    expect((await client.call('GET', '/v4/entity/countries/IT', reader)).status).toBe(200);
  });

  it('imports CSV from standard input and a JSON array from a file', async () => {
    const csv = 'code,name,region\nPE,Peru,south\nCL,Chile,south\nCA,Canada,\n';
    const fromStdin = await runImport(join(work, 'data'), ['--type', 'regions', '--format', 'csv', '--tenants', 'acme', '--id-field', 'code', '--report', join(work, 'stdin.report.ndjson'), '-'], csv);
    expect(fromStdin.stderr).toContain('3 created, 0 not imported');
    expect(fromStdin.code).toBe(0);
    expect(existsSync(join(work, 'stdin.report.ndjson'))).toBe(false); // nothing to report
    expect(await count('regions', { match: { region: 'south' } })).toBe(2);
    const canada = await client.call('GET', '/v4/entity/regions/CA', admin);
    expect(canada.body.result._source).toEqual(expect.objectContaining({ name: 'Canada', allowTenantIds: ['acme'] }));
    expect(canada.body.result._source).not.toHaveProperty('region');

    const json = join(work, 'units.json');
    writeFileSync(json, JSON.stringify([{ name: 'Sales' }, { name: 'Sales' }, { _id: 'rd', name: 'R&D' }], null, 2));
    const fromFile = await runImport(join(work, 'data'), ['--type', 'business-units', '--tenants', '*', json]);
    expect(fromFile.code).toBe(0);
    const units = await client.call('POST', '/v4/entity/business-units/search', admin, { sort: [{ slug: 'asc' }] });
    expect(units.body.result.hits.map((h: any) => h._source.slug)).toEqual(['r-d', 'sales', 'sales-2']);
  });

  const big = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ name: `Place ${i}`, n: i })).join('\n') + '\n';

  it('resumes after a SIGKILL: every line imported once (ids made from the lines)', async () => {
    const file = join(work, 'places.ndjson');
    writeFileSync(file, big(20_000));
    const args = ['--type', 'places', '--tenants', '*', '--batch', '100', file];
    const first = startImport(join(work, 'data'), args);
    await firstBatchCommitted(`${file}.report.ndjson.checkpoint.json`, first);
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    const interrupted = await count('places');
    expect(interrupted).toBeLessThan(20_000);

    const again = await runImport(join(work, 'data'), args);
    expect(again.code).toBe(2); // not without --resume
    expect(again.stderr).toContain('--resume');
    const resumed = await runImport(join(work, 'data'), [...args, '--resume']);
    // (batches committed after the checkpoint's last one are found, not created twice nor reported as taken)
    const summary = /(\d+) created, 0 not imported(?:, (\d+) found written before the interruption)?/.exec(resumed.stderr);
    expect(summary).not.toBeNull();
    expect(Number(summary![1]) + Number(summary![2] ?? 0)).toBe(20_000);
    expect(resumed.code).toBe(0);
    expect(await count('places')).toBe(20_000);
    expect(await count('places', { range: { n: { gte: 19_999 } } })).toBe(1);
  }, 120_000);

  it('stops after its batch on Ctrl-C (exit 130), resumes, and refuses a file changed since', async () => {
    const file = join(work, 'towns.ndjson');
    writeFileSync(file, big(20_000));
    const args = ['--type', 'towns', '--tenants', '*', '--id-field', 'n', '--batch', '100', file];
    const first = startImport(join(work, 'data'), args);
    await firstBatchCommitted(`${file}.report.ndjson.checkpoint.json`, first);
    first.child.kill('SIGINT');
    const stopped = await first.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('continue with --resume');
    const checkpoint = JSON.parse(readFileSync(`${file}.report.ndjson.checkpoint.json`, 'utf8'));
    expect(await count('towns')).toBe(checkpoint.created);

    const resumed = await runImport(join(work, 'data'), [...args, '--resume']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`resuming at line ${checkpoint.committed.line}`);
    expect(await count('towns')).toBe(20_000);

    appendFileSync(file, '{"name": "one more", "n": 20000}\n');
    const changed = await runImport(join(work, 'data'), [...args, '--resume']);
    expect(changed.code).toBe(0); // complete already: nothing to resume
    writeFileSync(`${file}.report.ndjson.checkpoint.json`, JSON.stringify({ ...checkpoint, done: false }));
    const refused = await runImport(join(work, 'data'), [...args, '--resume']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('changed since the import began');
  }, 120_000);

  it('answers bad usage with exit 2 and the usage', async () => {
    const missingType = await runImport(join(work, 'data'), ['x.ndjson']);
    expect(missingType.code).toBe(2);
    expect(missingType.stderr).toContain('--type is required');
    expect(missingType.stderr).toContain('usage: npm run import');
    const noFormat = await runImport(join(work, 'data'), ['--type', 'countries', '-']);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toContain('--format is required with -');
  });
});
