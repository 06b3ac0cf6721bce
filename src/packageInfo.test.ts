/** readPackageInfo: the gateway's name and version, from package.json above the code. */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readPackageInfo } from './packageInfo';

describe('readPackageInfo', () => {
  it("finds this repository's package.json", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { name, version } = require('../package.json') as { name: string; version: string };
    expect(readPackageInfo()).toEqual({ name, version });
  });

  it('walks up from a nested folder (dist/src/...)', () => {
    const root = mkdtempSync(join(tmpdir(), 'package-info-'));
    const nested = join(root, 'dist', 'src');
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'x', version: '1.2.3' }));
    expect(readPackageInfo(nested)).toEqual({ name: 'x', version: '1.2.3' });
  });
});
