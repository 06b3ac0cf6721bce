/**
 * A fingerprint of the code that decides what an index holds: the engine (analysis, mapping,
 * structures) and the mapping rules (store/mapping). An index file records the fingerprint of the
 * gateway that wrote it; a gateway whose code differs in any of those files (an upgrade, a fix of
 * a tokenizer) does not use it and rebuilds from SQLite, so that documents indexed before and after
 * an upgrade are never indexed two ways. (Any change there counts, even one that keeps the index
 * the same: one rebuild after an upgrade is the price of never trusting a stale index.)
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOTS = [join(__dirname, '..', 'engine'), join(__dirname, '..', '..', 'mapping')];

/** Source files (as this build runs them: .ts under tests, .js when built), tests and test support left out. */
function sources(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testing') sources(path, out);
    } else if (/\.(ts|js)$/.test(entry.name) && !/\.(test|d)\.(ts|js)$/.test(entry.name)) {
      out.push(path);
    }
  }
  return out;
}

let computed: string | undefined;

export function engineFingerprint(): string {
  if (computed === undefined) {
    const hash = createHash('sha256');
    for (const root of ROOTS) {
      for (const path of sources(root, [])) {
        hash.update(path.slice(root.length));
        hash.update(readFileSync(path));
      }
    }
    computed = hash.digest('hex').slice(0, 32);
  }
  return computed;
}
