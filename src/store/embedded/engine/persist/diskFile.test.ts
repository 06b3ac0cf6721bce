import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpillFile } from './diskFile';

describe('SpillFile', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'disk-file-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives back what was appended: whole, into a buffer, or a piece at a time (each piece copied before the next)', () => {
    const file = SpillFile.open(dir);
    try {
      file.append(Buffer.from('head'));
      const bytes = Buffer.from(Array.from({ length: 2500 }, (_, i) => i % 251));
      const where = file.append(bytes);
      expect(where).toMatchObject({ offset: 4, length: 2500 });
      expect(file.read(where.offset, where.length).equals(bytes)).toBe(true);
      const into = Buffer.alloc(2510);
      file.readInto(where.offset, where.length, into, 10);
      expect(into.subarray(10).equals(bytes)).toBe(true);
      const pieces = [...file.readPieces(where.offset, where.length, 1000)].map((p) => p.length);
      expect(pieces).toEqual([1000, 1000, 500]);
      const copied: Buffer[] = [];
      for (const piece of file.readPieces(where.offset, where.length, 1000)) copied.push(Buffer.from(piece));
      expect(Buffer.concat(copied).equals(bytes)).toBe(true);
    } finally {
      file.close();
    }
  });
});
