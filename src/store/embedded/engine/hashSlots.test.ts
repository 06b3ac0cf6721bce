import { entryId, slotEntry, tagOf } from './hashSlots';
import { TermHash, hashSlice } from './termHash';
import { NumberHash } from './numberHash';
import { StateReader, StateWriter, sectionBytes } from './persist/state';

describe('hashSlots', () => {
  it('keeps an id and the hash bits above the slot in one positive entry, for every table size', () => {
    for (let bits = 4; bits <= 30; bits++) {
      const mask = (1 << bits) - 1;
      // (a table of 2^bits slots holds at most 2^(bits-1) entries: ids up to 2^(bits-1))
      for (const id of [0, 1, (1 << (bits - 1)) - 1, 1 << (bits - 1)]) {
        for (const hash of [0, -1, 0x7fffffff, -0x80000000, 0x12345678, -0x2468ace]) {
          const entry = slotEntry(id, hash, mask);
          expect(entry).toBeGreaterThan(0);
          expect(entryId(entry, mask)).toBe(id);
          expect(entry & ~mask).toBe(tagOf(hash, mask));
        }
      }
    }
  });

  it('finds every term when many share their slot but not their hash bits, across growth and an index file', () => {
    // terms chosen so that their hashes agree on the low 4 bits: every one lands in the same slot of a small table
    const terms: string[] = [];
    for (let i = 0; terms.length < 3_000; i++) if ((hashSlice(`t${i}`, 0, `t${i}`.length, false) & 15) === 5) terms.push(`t${i}`);
    const hash = new TermHash();
    terms.forEach((term, id) => expect(hash.intern(term)).toBe(id));
    terms.forEach((term, id) => expect(hash.get(term)).toBe(id));
    expect(hash.get('t-absent')).toBe(-1);
    // the table is written as it is and read back without a rehash: the same entries, then new ones
    const w = new StateWriter();
    hash.writeState(w);
    const read = new TermHash();
    read.readState(new StateReader(w.meta, w.sections.map(sectionBytes)));
    terms.forEach((term, id) => expect(read.get(term)).toBe(id));
    expect(read.intern('t-new')).toBe(terms.length);
    expect(read.get(terms[0])).toBe(0);
    const numbers = new NumberHash();
    for (let i = 0; i < 3_000; i++) expect(numbers.intern(i * 1024)).toBe(i);
    for (let i = 0; i < 3_000; i++) expect(numbers.get(i * 1024)).toBe(i);
    expect(numbers.get(-1)).toBe(-1);
  });
});
