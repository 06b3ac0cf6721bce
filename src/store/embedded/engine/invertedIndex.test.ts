import fc from 'fast-check';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvertedIndex } from './invertedIndex';
import { IndexMapping } from './mapping';
import { StateReader, StateWriter, sectionBytes } from './persist/state';

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

  it('finds documents by id and ids by document as a map does, for new ids in order (a bulk load: no per-document key arrays kept), replaced, removed and out of order, before and after an index file', () => {
    const roundTrip = (index: InvertedIndex): InvertedIndex => {
      const w = new StateWriter();
      index.writeState(w);
      return InvertedIndex.readState(new StateReader(w.meta, w.sections.map(sectionBytes)));
    };
    type Op = { put: number } | { remove: number } | { check: true };
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 6, arbitrary: fc.constant({ put: -1 }) }, // the next new id, in order
      { weight: 1, arbitrary: fc.nat(30).map((n) => ({ put: n })) },
      { weight: 1, arbitrary: fc.nat(30).map((n) => ({ remove: n })) },
      { weight: 1, arbitrary: fc.constant({ check: true as const }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.boolean(), (ops, idField) => {
        const mapping = new IndexMapping();
        let index = new InvertedIndex(true, undefined, idField ? 'id' : undefined);
        const model = new Map<string, number>();
        let fresh = 0;
        const agree = () => {
          for (let n = 0; n <= Math.max(fresh, 30); n++) expect(index.docOf(`e${n}`)).toBe(model.get(`e${n}`));
          for (const [id, doc] of model) {
            expect(index.idOfDoc(doc)).toBe(id);
            expect(index.sourceOf(doc)).toEqual({ id, n: doc });
          }
          expect(index.idOfDoc(index.maxDoc)).toBeUndefined();
          expect(index.size).toBe(model.size);
        };
        for (const o of ops) {
          if ('put' in o) {
            const id = `e${o.put < 0 ? fresh++ : o.put}`;
            const doc = index.maxDoc;
            expect(index.addSource(id, { id, n: doc }, mapping)).toBe(doc);
            model.set(id, doc);
          } else if ('remove' in o) {
            expect(index.remove(`e${o.remove}`)).toBe(model.delete(`e${o.remove}`));
          } else {
            agree();
            index = roundTrip(index);
          }
        }
        agree();
        index = roundTrip(index);
        agree();
      }),
      { numRuns: 150 },
    );
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
