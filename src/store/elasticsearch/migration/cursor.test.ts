import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CURSOR_FILE, CursorFile, publicUrl } from './cursor';

describe('the migration cursor', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cursor-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is absent at first, then reads back what was written (atomically: no temporary file left)', () => {
    const cursor = new CursorFile(dir);
    expect(cursor.path).toBe(join(dir, CURSOR_FILE));
    expect(cursor.read()).toBeNull();
    cursor.write({ target: { url: 'http://es:9200', indexPrefix: 'gw' }, keys: 3, entities: 500, done: false });
    expect(cursor.read()).toEqual({ version: 1, target: { url: 'http://es:9200', indexPrefix: 'gw' }, keys: 3, entities: 500, done: false, updatedAt: expect.any(String) });
    expect(readdirSync(dir)).toEqual([CURSOR_FILE]);
  });

  it('refuses a file it does not understand', () => {
    writeFileSync(join(dir, CURSOR_FILE), JSON.stringify({ version: 9 }));
    expect(() => new CursorFile(dir).read()).toThrow('delete it to start over');
  });

  it('keeps credentials out of the file', () => {
    expect(publicUrl('https://elastic:secret@es.example:9200/')).toBe('https://es.example:9200');
    expect(publicUrl('http://localhost:9200')).toBe('http://localhost:9200');
  });
});
