/**
 * The service's own HS256 secret: AUTH_SECRET, or one generated once into DATA_DIR (mode 0600)
 * and read back on every later start, so tokens survive restarts. Shared by the server and `npm run token`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SECRET_FILE = 'auth-secret';

export function resolveSecret(configured: string | undefined, dataDir: string): { secret: Uint8Array; source: 'env' | 'file' | 'generated' } {
  if (configured !== undefined) return { secret: new TextEncoder().encode(configured), source: 'env' };
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, SECRET_FILE);
  try {
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
    return { secret: new TextEncoder().encode(readFileSync(file, 'utf8').trim()), source: 'generated' };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const text = readFileSync(file, 'utf8').trim();
  if (text.length < 32) throw new Error(`${file} holds no usable secret (fewer than 32 characters): delete it to generate a new one`);
  return { secret: new TextEncoder().encode(text), source: 'file' };
}
