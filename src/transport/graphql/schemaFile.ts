/** Finds and reads schema.graphql at the repository root (the contract; never duplicated in code). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const SCHEMA_FILE = 'schema.graphql';

/** Walks up from this file (src/… or dist/src/…) to the folder holding schema.graphql. */
export function readSchemaFile(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    const candidate = join(dir, SCHEMA_FILE);
    if (existsSync(candidate)) return readFileSync(candidate, 'utf8');
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${SCHEMA_FILE} not found above ${from}`);
    dir = parent;
  }
}
