/** `npm run import` options: parsed and checked, or the reason they are not usable (exit 2). */
import { extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseCollection, type EntityType } from '../core/entities/entityType';
import { MAX_BULK_ITEMS } from '../core/entities/mCreateEntities';

export const USAGE = `usage: npm run import -- --type <plural> [options] <file | ->
  --type <plural>       the entities' collection, as in REST paths: countries, business-units (required)
  --format <format>     ndjson, json (an array) or csv (a header row); default: the file's extension
                        (.ndjson .jsonl .json .csv); required for - (standard input)
  --tenants <ids>       allowTenantIds of the entities whose line gives none: a tenant, a,b, or * (everyone)
  --id-field <field>    the field whose value is the entity's id (a string or an integer); default:
                        the line's _id, else an id made from the import and the line number
  --batch <n>           entities written per batch (one commit each), 1 to ${MAX_BULK_ITEMS}; default 1000
  --report <path>       the lines not imported, as NDJSON; default: <file>.report.ndjson
                        (standard input: import.report.ndjson)
  --resume              continue an import stopped before its end (Ctrl-C, a crash), from its checkpoint
                        (<report>.checkpoint.json); the file must be unchanged
  --user <id>           who the entities are written by (modifier, _service_info.author); default import
Writes into the configured store, as the gateway does: DATA_DIR, or ELASTICSEARCH_URL when set.
Exit codes: 0 every line imported; 1 some lines not imported (see the report), or the import failed;
2 bad usage or settings; 130 stopped by Ctrl-C (resume with --resume).`;

export type ImportFormat = 'ndjson' | 'json' | 'csv';
const FORMATS: Record<string, ImportFormat> = { '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.json': 'json', '.csv': 'csv' };
const DEFAULT_BATCH = 1000;

export interface ImportArgs {
  help: boolean;
  type: EntityType;
  /** An absolute path, or null for standard input. */
  file: string | null;
  format: ImportFormat;
  tenants?: string[];
  idField?: string;
  batch: number;
  report: string;
  resume: boolean;
  user: string;
}

export type ParsedImportArgs = { ok: true; args: ImportArgs } | { ok: false; help: true } | { ok: false; help?: false; reason: string };

export function parseImportArgs(argv: string[], cwd = process.cwd()): ParsedImportArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        type: { type: 'string' },
        format: { type: 'string' },
        tenants: { type: 'string' },
        'id-field': { type: 'string' },
        batch: { type: 'string', default: String(DEFAULT_BATCH) },
        report: { type: 'string' },
        resume: { type: 'boolean', default: false },
        user: { type: 'string', default: 'import' },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { ok: false, help: true };
  if (values.type === undefined) return { ok: false, reason: '--type is required: the entities\' collection, e.g. --type countries' };
  const type = parseCollection(values.type);
  if (!type.ok) return { ok: false, reason: `--type: ${type.error.message}` };
  if (positionals.length !== 1) return { ok: false, reason: positionals.length === 0 ? 'name the file to import, or - for standard input' : `one file at a time (got ${positionals.length})` };
  const file = positionals[0] === '-' ? null : resolve(cwd, positionals[0]);
  let format: ImportFormat | undefined;
  if (values.format !== undefined) {
    if (!['ndjson', 'json', 'csv'].includes(values.format)) return { ok: false, reason: `--format: "${values.format}" is not ndjson, json or csv` };
    format = values.format as ImportFormat;
  } else if (file === null) {
    return { ok: false, reason: '--format is required with - (standard input): ndjson, json or csv' };
  } else {
    format = FORMATS[extname(file).toLowerCase()];
    if (format === undefined) return { ok: false, reason: `--format is required: "${extname(file) || 'no extension'}" does not tell (.ndjson, .jsonl, .json or .csv do)` };
  }
  const batch = Number(values.batch);
  if (!Number.isInteger(batch) || batch < 1 || batch > MAX_BULK_ITEMS) return { ok: false, reason: `--batch: "${values.batch}" is not an integer from 1 to ${MAX_BULK_ITEMS}` };
  let tenants: string[] | undefined;
  if (values.tenants !== undefined) {
    tenants = values.tenants.split(',').map((t) => t.trim());
    if (tenants.some((t) => t === '')) return { ok: false, reason: `--tenants: "${values.tenants}" holds an empty tenant id` };
  }
  const idField = values['id-field'];
  if (idField !== undefined && idField.trim() === '') return { ok: false, reason: '--id-field: the field name is empty' };
  if (values.user.trim() === '') return { ok: false, reason: '--user: the user id is empty' };
  if (values.resume && file === null) return { ok: false, reason: '--resume needs a file: standard input cannot be read again' };
  const report = values.report !== undefined ? resolve(cwd, values.report) : file === null ? resolve(cwd, 'import.report.ndjson') : `${file}.report.ndjson`;
  return { ok: true, args: { help: false, type: type.value, file, format, tenants, idField, batch, report, resume: values.resume, user: values.user } };
}
