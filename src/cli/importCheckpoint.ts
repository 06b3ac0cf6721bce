/**
 * The checkpoint of a file's import, beside its report (`<report>.checkpoint.json`): where the
 * committed batches end (byte offset and line), the file's size and modification time when the
 * import began (a changed file is not resumed), the counts so far and the report's length then.
 * After a crash between a batch's commit and the checkpoint's update, the resumed import looks for
 * the entities of the next `batch` lines (the batch in progress then), and counts those this import
 * wrote as done instead of reporting them as taken. Written to a temporary file, then renamed (once
 * per batch): a crash leaves the old checkpoint or the new one, never half of one.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import type { ReadPosition } from './importRecord';

export interface Checkpoint {
  version: 1;
  file: string;
  size: number;
  mtimeMs: number;
  type: string;
  format: string;
  /** Random, per import: the prefix of the ids it makes for lines without one (importIds.ts). */
  importId: string;
  /** The user the entities are written as, and when the import began (ms): what recognises its own entities after a crash. */
  user: string;
  startedAt: number;
  /** Where the committed batches end. */
  committed: ReadPosition;
  /** Lines per batch (what a batch in progress at a crash may have written). */
  batch: number;
  created: number;
  failed: number;
  /** The report's length in bytes at `committed` (what a resumed import truncates it to). */
  reportBytes: number;
  done: boolean;
}

export class CheckpointFile {
  constructor(readonly path: string) {}

  read(): Checkpoint | null {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const value = JSON.parse(text) as Checkpoint;
    if (value.version !== 1) throw new Error(`${this.path} is not a checkpoint of this version`);
    return value;
  }

  write(checkpoint: Checkpoint): void {
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(checkpoint, null, 1)}\n`);
    renameSync(temporary, this.path);
  }
}

/** The file as the checkpoint knows it: why it cannot be resumed, or null when it can. */
export function changedSince(checkpoint: Checkpoint, file: string): string | null {
  const stat = statSync(file);
  if (stat.size !== checkpoint.size || stat.mtimeMs !== checkpoint.mtimeMs) {
    return `${file} changed since the import began (size ${checkpoint.size} -> ${stat.size} bytes, modified ${new Date(checkpoint.mtimeMs).toISOString()} -> ${new Date(stat.mtimeMs).toISOString()}): it cannot be resumed`;
  }
  return null;
}
