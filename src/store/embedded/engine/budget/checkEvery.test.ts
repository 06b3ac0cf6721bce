import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpillTarget } from '../persist/diskFile';
import { CheckEvery, READS_PER_CHECK } from './checkEvery';

describe('CheckEvery', () => {
  it('asks for a look at the budget every `steps` steps when nothing is read from disk', () => {
    const check = new CheckEvery(100);
    const looks = Array.from({ length: 1000 }, () => check.step()).filter(Boolean).length;
    expect(looks).toBe(10);
  });

  it('asks sooner when the steps read from disk: after READS_PER_CHECK positioned reads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'check-every-'));
    try {
      const stored = new SpillTarget(dir).append(Buffer.from('the rest of a long term'));
      const check = new CheckEvery(1_000_000);
      let looks = 0;
      for (let i = 0; i < 10 * READS_PER_CHECK; i++) {
        stored.file.read(stored.offset, stored.length); // one positioned read a step
        if (check.step()) looks++;
      }
      expect(looks).toBe(10);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
