/** The gateway's package.json name and version, found above this file (src/… or dist/src/…). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface PackageInfo {
  name: string;
  version: string;
}

export function readPackageInfo(from: string = __dirname): PackageInfo {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const { name, version } = JSON.parse(readFileSync(candidate, 'utf8')) as Partial<PackageInfo>;
      return { name: String(name ?? 'unknown'), version: String(version ?? 'unknown') };
    }
    if (dirname(dir) === dir) return { name: 'unknown', version: 'unknown' };
  }
}
