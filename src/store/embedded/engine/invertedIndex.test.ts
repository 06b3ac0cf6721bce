import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvertedIndex } from './invertedIndex';
import { IndexMapping } from './mapping';

/** The spill files of `dir` this process holds open (they have no name: /proc/self/fd shows them deleted). */
const openSpillFiles = (dir: string): number => readdirSync('/proc/self/fd').filter((fd) => {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`).startsWith(join(dir, 'spill.'));
  } catch {
    return false;
  }
}).length;

describe('InvertedIndex', () => {
  it('numbers documents in index order and moves a replaced document to the end', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    const add = (id: string, doc: Record<string, unknown>) => index.addSource(id, doc, mapping);
    expect(add('a', { name: 'x' })).toBe(0);
    expect(add('b', { name: 'y' })).toBe(1);
    expect(add('a', { name: 'z' })).toBe(2);
    expect([...index.docs.values()].map((r) => r.id)).toEqual(['b', 'a']);
    expect(index.field('name')?.postings('x')).toBeUndefined();
    expect(index.field('name')?.docCount).toBe(2);
    expect(index.size).toBe(2);
  });

  it('removes documents from every field', () => {
    const mapping = new IndexMapping();
    const index = new InvertedIndex();
    const doc = { name: 'x', n: 1 };
    index.addSource('a', doc, mapping);
    expect(index.remove('a')).toBe(true);
    expect(index.remove('a')).toBe(false);
    expect(index.field('n')?.present.size).toBe(0);
    expect(index.field('name.keyword')?.docCount).toBe(0);
    expect(index.size).toBe(0);
  });

  it('spills the sources and the long terms of every field of an index into one file (one descriptor an index), and reads them back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inverted-spill-'));
    try {
      const mapping = new IndexMapping();
      const index = new InvertedIndex(true, dir);
      const long = (field: string, i: number) => `${field} ${i} ${'a long value kept whole by its keyword sub-field '.repeat(3)}`;
      for (let i = 0; i < 3_000; i++) index.addSource(`e${i}`, { title: long('title', i), summary: long('summary', i), note: long('note', i) }, mapping);
      expect(readdirSync(dir)).toEqual([]);
      expect(openSpillFiles(dir)).toBe(1);
      for (const field of ['title', 'summary', 'note']) {
        const keyword = index.field(`${field}.keyword`);
        expect(keyword?.docValues.get(1_234)).toEqual([long(field, 1_234)]);
      }
      expect(index.sourceOf(2_999)).toEqual({ title: long('title', 2_999), summary: long('summary', 2_999), note: long('note', 2_999) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
