/**
 * npm run migrate -- [--batch 500] [--resume]
 *
 * Copies the embedded store (DATA_DIR) into Elasticsearch (ELASTICSEARCH_URL, ES_INDEX_PREFIX):
 * API keys first (same _id and fingerprint: their tokens keep working where the gateways use the
 * same AUTH_SECRET), then entities, in write order, in batches, with a progress bar on stderr and a
 * cursor in DATA_DIR/migrate-cursor.json after each batch. `--resume` continues after the cursor;
 * running again without it is safe too (what is already there is skipped). Stop the embedded
 * gateway (or at least its writes) first. docs/elasticsearch.md, "Migrating".
 *
 * Exit codes: 0 done; 1 failed (run again with --resume); 2 bad usage or settings; 3 done, but some
 * entities were not copied (slug conflicts, documents Elasticsearch refused): listed on stderr.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SECRET_FILE } from '../core/auth/secret';
import { loadCliConfig } from './cliConfig';
import { DATABASE_FILE, EmbeddedDatabase } from '../store/embedded/database';
import { ElasticsearchStore, type ElasticsearchSettings } from '../store/elasticsearch/elasticsearchStore';
import { copyToElasticsearch, type MigrationReport } from '../store/elasticsearch/migration/copyToElasticsearch';
import { CursorFile, publicUrl } from '../store/elasticsearch/migration/cursor';
import { ProgressBar, type ProgressOutput } from '../store/elasticsearch/migration/progressBar';

export const USAGE = 'usage: ELASTICSEARCH_URL=http://localhost:9200 npm run migrate -- [--batch 500] [--resume]';
const MAX_BATCH = 10_000;
const LISTED = 20;

export interface MigrateIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  stderr: ProgressOutput;
  /** Builds the target store (tests give one on a mock cluster). */
  openStore?: (settings: ElasticsearchSettings) => ElasticsearchStore;
}

function list(title: string, items: string[]): string {
  if (items.length === 0) return '';
  const shown = items.slice(0, LISTED).map((i) => `  ${i}\n`).join('');
  return `${title} (${items.length}):\n${shown}${items.length > LISTED ? `  ... and ${items.length - LISTED} more\n` : ''}`;
}

function summary(report: MigrationReport): string {
  return (
    `API keys: ${report.keys.copied} copied, ${report.keys.existing} already there\n` +
    `entities: ${report.entities.copied} copied, ${report.entities.existing} already there, ` +
    `${report.entities.slugConflicts.length} slug conflicts, ${report.entities.rejected.length} refused\n` +
    list('not copied, slug held by another entity in Elasticsearch', report.entities.slugConflicts) +
    list('not copied, refused by Elasticsearch', report.entities.rejected)
  );
}

export async function runMigrate(io: MigrateIo): Promise<number> {
  const say = (text: string) => io.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  let values;
  try {
    ({ values } = parseArgs({ args: io.argv, options: { batch: { type: 'string', default: '500' }, resume: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } } }));
  } catch (err) {
    say(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    say(USAGE);
    return 0;
  }
  const batchSize = Number(values.batch);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) {
    say(`--batch: "${values.batch}" is not an integer from 1 to ${MAX_BATCH}\n${USAGE}`);
    return 2;
  }
  const config = loadCliConfig(io.env, say);
  if (config === null) return 2;
  const { url, ...es } = config.elasticsearch;
  if (url === undefined) {
    say(`ELASTICSEARCH_URL is not set: it names the Elasticsearch to copy into\n${USAGE}`);
    return 2;
  }
  if (!existsSync(join(config.dataDir, DATABASE_FILE))) {
    say(`no embedded store in DATA_DIR (${config.dataDir}): nothing to copy (${DATABASE_FILE} not found)`);
    return 2;
  }
  if (config.auth.secret === undefined && existsSync(join(config.dataDir, SECRET_FILE))) {
    say(`note: the API keys' tokens are signed with ${join(config.dataDir, SECRET_FILE)}: give the Elasticsearch gateways that secret as AUTH_SECRET, or their tokens will not verify`);
  }

  const store = (io.openStore ?? ((s) => ElasticsearchStore.fromSettings(s)))({ url, ...es });
  const db = new EmbeddedDatabase(config.dataDir);
  const cursor = new CursorFile(config.dataDir);
  let bar: ProgressBar | undefined;
  try {
    if (!(await store.ready())) {
      say(`Elasticsearch at ${publicUrl(url)} does not answer`);
      return 1;
    }
    say(`copying ${config.dataDir} into ${publicUrl(url)} (index prefix "${es.indexPrefix}"), ${batchSize} per batch${values.resume ? ', resuming' : ''}`);
    const report = await copyToElasticsearch({
      source: db,
      target: store,
      targetUrl: url,
      cursor,
      batchSize,
      resume: values.resume,
      onStart: (phase, total, done) => {
        bar = new ProgressBar(io.stderr, phase === 'keys' ? 'API keys' : 'entities', total, done);
        bar.update(done);
      },
      onProgress: (_phase, done) => bar?.update(done),
      onDone: () => bar?.finish(),
    });
    say(summary(report));
    return report.entities.slugConflicts.length + report.entities.rejected.length > 0 ? 3 : 0;
  } catch (err) {
    if (bar !== undefined) io.stderr.write('\n');
    say(`migration failed: ${(err as Error).message}\nwhat is copied is kept; the cursor is in ${cursor.path}: run again with --resume`);
    return 1;
  } finally {
    db.close();
    await store.close();
  }
}

if (require.main === module) {
  runMigrate({ argv: process.argv.slice(2), env: process.env, stderr: process.stderr }).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
