/** TEST SUPPORT: a fresh DATA_DIR per test and embedded stores opened on it (polling every 5 ms), all closed and removed after each test. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedStore } from '../embeddedStore';

export interface SharedDataDir {
  /** The current test's directory. */
  readonly dir: string;
  /** A store on it (another process on the same DATA_DIR, as far as the stores can tell). */
  store(): EmbeddedStore;
}

/** Registers beforeEach/afterEach in the calling test file. */
export function sharedDataDir(prefix: string): SharedDataDir {
  const open: EmbeddedStore[] = [];
  const ctx = {
    dir: '',
    store(): EmbeddedStore {
      const s = new EmbeddedStore(ctx.dir, 100, {}, 5);
      open.push(s);
      return s;
    },
  };
  beforeEach(() => (ctx.dir = mkdtempSync(join(tmpdir(), prefix))));
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
    rmSync(ctx.dir, { recursive: true, force: true });
  });
  return ctx;
}
