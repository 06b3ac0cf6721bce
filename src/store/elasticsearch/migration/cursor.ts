/**
 * The migration's resumable cursor: how many API keys and entities of the embedded store (in its
 * write order) are already copied, for which target. Written after every batch, atomically (a
 * temporary file renamed over the old one), to `<DATA_DIR>/migrate-cursor.json`.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CURSOR_FILE = 'migrate-cursor.json';

export interface MigrationCursor {
  version: 1;
  /** Where the copy goes: the URL without credentials, and the index prefix. */
  target: { url: string; indexPrefix: string };
  keys: number;
  entities: number;
  done: boolean;
  updatedAt: string;
}

/** The URL with any user:password removed (the cursor file is not a place for credentials). */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

export class CursorFile {
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, CURSOR_FILE);
  }

  read(): MigrationCursor | null {
    if (!existsSync(this.path)) return null;
    const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as MigrationCursor;
    if (parsed.version !== 1 || typeof parsed.keys !== 'number' || typeof parsed.entities !== 'number') {
      throw new Error(`${this.path} is not a migration cursor this version understands: delete it to start over`);
    }
    return parsed;
  }

  write(cursor: Omit<MigrationCursor, 'version' | 'updatedAt'>): void {
    const full: MigrationCursor = { version: 1, ...cursor, updatedAt: new Date().toISOString() };
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(full, null, 2)}\n`);
    renameSync(tmp, this.path);
  }
}
