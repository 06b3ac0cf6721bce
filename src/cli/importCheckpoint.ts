/**
 * The checkpoint of a file's import, beside its report (`<report>.checkpoint.json`): where the
 * committed batches end (byte offset and line), the file's size and modification time when the
 * import began (a changed file is not resumed), the counts so far and the report's length then.
 * After a crash between a batch's commit and the checkpoint's update, the resumed import looks for
 * the entities of the next `batch` lines (the batches in progress then), and counts those this
 * import wrote as done instead of reporting them as taken. Written to a temporary file, then
 * renamed (once per batch): a crash leaves the old checkpoint or the new one, never half of one.
 * The import writes it in the background (`writeLater`: on ext4 each write and rename waits for the
 * disk, a few milliseconds), one write at a time, in order.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
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
  /** Lines after `committed` that a crash may have left written (the batches in progress then). */
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
    writeFileSync(this.temporary, text(checkpoint));
    renameSync(this.temporary, this.path);
  }

  private get temporary(): string {
    return `${this.path}.tmp`;
  }

  private chain: Promise<void> = Promise.resolve();
  /** Background writes not finished yet. */
  pending = 0;

  /** Writes the checkpoint as it is now, after the writes asked before, without waiting (`settled` waits). */
  writeLater(checkpoint: Checkpoint): void {
    const content = text(checkpoint);
    this.pending++;
    this.chain = this.chain
      .then(async () => {
        await writeFile(this.temporary, content);
        await rename(this.temporary, this.path);
      })
      .finally(() => this.pending--);
    this.chain.catch(() => {}); // (the failure is `settled`'s)
  }

  /** Once every background write is done; rejects with the first that failed. */
  settled(): Promise<void> {
    return this.chain;
  }
}

const text = (checkpoint: Checkpoint): string => `${JSON.stringify(checkpoint, null, 1)}\n`;

/** The file as the checkpoint knows it: why it cannot be resumed, or null when it can. */
export function changedSince(checkpoint: Checkpoint, file: string): string | null {
  const stat = statSync(file);
  if (stat.size !== checkpoint.size || stat.mtimeMs !== checkpoint.mtimeMs) {
    return `${file} changed since the import began (size ${checkpoint.size} -> ${stat.size} bytes, modified ${new Date(checkpoint.mtimeMs).toISOString()} -> ${new Date(stat.mtimeMs).toISOString()}): it cannot be resumed`;
  }
  return null;
}
