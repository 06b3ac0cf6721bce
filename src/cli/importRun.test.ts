/** The import loop on a real embedded DATA_DIR: the core's validation per line, the report, the checkpoint, resuming after a failure or a crash, stopping. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCollection } from '../core/entities/entityType';
import { EmbeddedStore } from '../store/embedded/embeddedStore';
import { EmbeddedEntityWriter, type EntityWriter } from '../store/embedded/entityWriter';
import { CheckpointFile, type Checkpoint } from './importCheckpoint';
import { lineId } from './importIds';
import { readNdjson } from './importNdjson';
import { ReportFile, type ReportLine } from './importReport';
import { IN_FLIGHT, runImport, toItem, type ImportSettings } from './importRun';

const countries = parseCollection('countries');
if (!countries.ok) throw countries.error;
const type = countries.value;
const IMPORT_ID = '0b7e4c1a-2f3d-4e5f-8a9b-000000000000';

function freshState(): Checkpoint {
  return { version: 1, file: 'f', size: 0, mtimeMs: 0, type: 'countries', format: 'ndjson', importId: IMPORT_ID, user: 'loader', startedAt: Date.now(), committed: { offset: 0, line: 1 }, batch: 2, created: 0, failed: 0, reportBytes: 0, done: false };
}

async function* from(bytes: Buffer, offset: number): AsyncGenerator<Buffer> {
  for (let i = offset; i < bytes.length; i += 100) yield bytes.subarray(i, i + 100);
}

describe('runImport', () => {
  let dir: string;
  let writer: EmbeddedEntityWriter;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'import-run-'));
    writer = new EmbeddedEntityWriter(join(dir, 'data'), 1000);
  });
  afterEach(async () => {
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function job(text: string, settings: Partial<ImportSettings>, state = freshState(), entities: EntityWriter = writer, stop = () => false) {
    const bytes = Buffer.from(text);
    const checkpoint = new CheckpointFile(join(dir, 'report.checkpoint.json'));
    const report = new ReportFile(join(dir, 'report.ndjson'), state.reportBytes);
    return {
      checkpoint,
      report,
      run: () =>
        runImport({ settings: { type, batch: 2, ...settings }, reader: readNdjson, chunks: from(bytes, state.committed.offset), writer: entities, report, checkpoint, state, resumed: state.created + state.failed > 0, stopRequested: stop }).finally(() =>
          report.close(),
        ),
    };
  }
  const reportLines = (): ReportLine[] =>
    readFileSync(join(dir, 'report.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  const stored = async () => {
    const store = new EmbeddedStore(join(dir, 'data'));
    const result = await store.entities.search('countries', { from: 0, size: 100, sort: [{ 'id': 'asc' }] }, null);
    await store.close();
    return result.hits.map((h) => h._source as Record<string, unknown>);
  };

  it('writes each line through the core (managed fields, derived slugs, ids) and reports the others with their catalogue error', async () => {
    const lines = [
      '{"code": 1, "name": "France"}',
      '{"code": "de", "name": "France"}', // same name: the derived slug moves on
      'not json',
      '[1, 2]',
      '{"name": "No code"}',
      '{"code": {"x": 1}, "name": "Bad code"}',
      '{"code": "de", "name": "Taken id"}',
      '{"code": "it", "name": "Italy", "allowTenantIds": ["acme"]}',
      '{"code": "es", "name": "Spain", "slug": "france"}',
    ];
    const { run, checkpoint } = job(lines.join('\n'), { idField: 'code', tenants: ['*'] });
    const outcome = await run();
    expect(outcome).toEqual({ created: 3, failed: 6, alreadyThere: 0, stopped: false });
    const entities = await stored();
    expect(entities.map((e) => [e.id, e.slug, e.allowTenantIds, e.entityType, (e.modifier as { id: string }).id])).toEqual([
      ['1', 'france', ['*'], 'country', 'loader'],
      ['de', 'france-2', ['*'], 'country', 'loader'],
      ['it', 'italy', ['acme'], 'country', 'loader'],
    ]);
    expect(reportLines().map((l) => [l.line, l.id, l.error, l.status])).toEqual([
      [3, null, 'network.http.body_parse_failed', 400],
      [4, null, 'api.assert.invalid_type', 400],
      [5, null, 'api.assert.missing_argument', 400],
      [6, null, 'api.assert.invalid_type', 400],
      [7, 'de', 'services.storage.document_already_exists', 409],
      [9, 'es', 'services.storage.document_already_exists', 409],
    ]);
    expect(reportLines()[0].message).toContain('line 3 is not JSON');
    expect(checkpoint.read()).toEqual(expect.objectContaining({ done: true, created: 3, failed: 6, committed: { offset: Buffer.byteLength(lines.join('\n')), line: 9 } }));
  });

  it('gives lines without an id one made from the import and the line (a well-formed UUID), else the line\'s _id', async () => {
    await job('{"name": "A"}\n{"_id": "b", "name": "B"}\n', { tenants: ['t1'] }).run();
    expect((await stored()).map((e) => e.id).sort()).toEqual(['b', lineId(IMPORT_ID, 1)].sort());
    expect(lineId(IMPORT_ID, 1)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-000000000001$/);
    expect(toItem({ line: 3, next: { offset: 0, line: 4 }, value: 'x' }, { type, batch: 1 }, IMPORT_ID)).toEqual({ body: 'x' });
  });

  const tenLines = Array.from({ length: 10 }, (_, i) => `{"code": "c${i}", "name": "Country ${i}"}`).join('\n') + '\n';

  it('resumes after a failed batch from the checkpoint: every line once', async () => {
    let calls = 0;
    const failing: EntityWriter = { get: (c, id) => writer.get(c, id), createMany: (c, items) => (++calls === 3 ? Promise.reject(new Error('disk full')) : writer.createMany(c, items)) };
    const first = job(tenLines, { idField: 'code', tenants: ['*'] }, freshState(), failing);
    await expect(first.run()).rejects.toThrow('disk full');
    const state = first.checkpoint.read()!;
    // (two batches are written at once: a resumed import looks for the entities of both)
    expect(state).toEqual(expect.objectContaining({ created: 4, committed: { offset: expect.any(Number), line: 5 }, batch: 2 * (IN_FLIGHT + 1), done: false }));
    const second = job(tenLines, { idField: 'code', tenants: ['*'] }, state);
    expect(await second.run()).toEqual({ created: 10, failed: 0, alreadyThere: 0, stopped: false });
    expect((await stored()).map((e) => e.id)).toEqual(Array.from({ length: 10 }, (_, i) => `c${i}`));
  });

  it('after a crash between a batch\'s commit and its checkpoint, finds that batch written instead of reporting it', async () => {
    let calls = 0;
    const crashing: EntityWriter = {
      get: (c, id) => writer.get(c, id),
      createMany: async (c, items) => {
        const outcomes = await writer.createMany(c, items);
        if (++calls === 3) throw new Error('killed after the commit');
        return outcomes;
      },
    };
    const first = job(tenLines, { tenants: ['*'] }, freshState(), crashing); // derived ids
    await expect(first.run()).rejects.toThrow('killed');
    const state = first.checkpoint.read()!;
    expect(state.created).toBe(4);
    const second = job(tenLines, { tenants: ['*'] }, state);
    // the crashed batch, and the one written meanwhile if any, are found: none reported as taken
    const resumed = await second.run();
    expect(resumed).toEqual({ created: expect.any(Number), failed: 0, alreadyThere: expect.any(Number), stopped: false });
    expect(resumed.alreadyThere).toBeGreaterThanOrEqual(2);
    expect(resumed.created + resumed.alreadyThere).toBe(10); // (created counts the first run's 4)
    expect((await stored()).map((e) => e.name).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Country ${i}`).sort());
  });

  it('stops after the batch in progress when asked, the checkpoint at its end', async () => {
    let asked = false;
    const counting: EntityWriter = { get: (c, id) => writer.get(c, id), createMany: (c, items) => ((asked = true), writer.createMany(c, items)) };
    const first = job(tenLines, { idField: 'code', tenants: ['*'] }, freshState(), counting, () => asked);
    const outcome = await first.run();
    expect(outcome.stopped).toBe(true);
    const state = first.checkpoint.read()!;
    expect(state.done).toBe(false);
    expect(state.created).toBe(outcome.created);
    expect(state.committed.line).toBe(outcome.created + 1);
    expect(await job(tenLines, { idField: 'code', tenants: ['*'] }, state).run()).toEqual(expect.objectContaining({ created: 10, stopped: false }));
  });
});
