import fc from 'fast-check';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanAscii } from './analyzer';
import { ByteChunks } from './byteChunks';
import { SpillTarget } from './persist/diskFile';
import { StateReader, StateWriter, sectionBytes } from './persist/state';
import { compareUtf8 } from './strings';
import { TermHash, hashSlice } from './termHash';

describe('TermHash', () => {
  it('numbers terms in order of addition, like a Map', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 200 }), (terms) => {
        const hash = new TermHash();
        const map = new Map<string, number>();
        for (const t of terms) {
          if (!map.has(t)) map.set(t, map.size);
          expect(hash.intern(t)).toBe(map.get(t));
        }
        expect(hash.size).toBe(map.size);
        for (const [t, id] of map) expect(hash.get(t)).toBe(id);
        expect(hash.get('not there!')).toBe(map.get('not there!') ?? -1);
        expect(hash.list()).toEqual([...map.keys()]);
      }),
    );
  });

  it('finds terms from slices of a text, lower-casing ASCII', () => {
    const hash = new TermHash();
    const id = hash.intern('hello');
    expect(hash.getSlice('say HeLLo!', 4, 9, true)).toBe(id);
    expect(hash.getSlice('say HeLLo!', 4, 9, false)).toBe(-1);
    expect(hash.internSlice('a World', 2, 7, true)).toBe(1);
    expect(hash.term(1)).toBe('world');
  });

  it('agrees with the hashes the analyzer computes while scanning', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcXYZ09 -') }), (text) => {
        const out = { data: new Int32Array(4), whole: 0 };
        const n = scanAscii(text, out);
        for (let i = 0; i < n; i++) {
          const [start, end, upper, h] = out.data.subarray(4 * i, 4 * i + 4);
          expect(h).toBe(hashSlice(text, start, end, upper === 1));
        }
        if (n >= 0) expect(out.whole).toBe(hashSlice(text, 0, text.length, false));
      }),
    );
  });

  it('keeps any text (one byte a character when it fits, else two): terms, order and lookups as strings would', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 8 }), { maxLength: 60 }), (terms) => {
        const hash = new TermHash();
        const distinct = [...new Set(terms)];
        for (const t of terms) hash.intern(t);
        expect(hash.list()).toEqual(distinct);
        for (let a = 0; a < distinct.length; a++) {
          expect(hash.get(distinct[a])).toBe(a);
          for (let b = 0; b < distinct.length; b++) expect(Math.sign(hash.compare(a, b))).toBe(Math.sign(compareUtf8(distinct[a], distinct[b])));
        }
      }),
      { seed: 11 },
    );
  });

  it('holds no string per term: its characters end to end in one buffer, 4 bytes of offset each, and no hash', () => {
    const hash = new TermHash();
    for (let i = 0; i < 10_000; i++) hash.intern(`product-${i}`);
    // characters (about 12 a term) + offset + table slots, no string headers
    expect(hash.bytes()).toBeLessThan(10_000 * (12 + 4 + 16) * 1.3);
    expect(hash.term(9_999)).toBe('product-9999');
    // found again after the table was grown (the hashes made again from the characters)
    for (let i = 0; i < 10_000; i++) expect(hash.get(`product-${i}`)).toBe(i);
    expect(hash.get('product-10000')).toBe(-1);
  });

  it('reads back what it wrote (index file), then takes new terms', () => {
    const hash = new TermHash();
    for (const t of ['alpha', 'Beta', 'gamma\u00e9', '\u4e2d\u6587', 'a'.repeat(100)]) hash.intern(t);
    hash.internSlice('say HELLO', 4, 9, true);
    const w = new StateWriter();
    hash.writeState(w);
    const sections = w.sections.map(sectionBytes);
    const read = new TermHash();
    read.readState(new StateReader(w.meta, sections));
    expect(read.list()).toEqual(hash.list());
    expect(read.get('\u4e2d\u6587')).toBe(3);
    expect(read.getSlice('HeLLo', 0, 5, true)).toBe(5);
    for (let i = 0; i < 100; i++) expect(read.intern(`new${i}`)).toBe(6 + i);
    expect(read.term(3)).toBe('\u4e2d\u6587');
    expect(read.term(105)).toBe('new99');
  });

  describe('long terms (more than 36 bytes: their first 16 in memory, the rest in chunks, spilled to disk with a spill directory)', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'term-hash-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    // terms sharing long prefixes, of any length around the limits (16, 36 bytes; wide terms twice as many bytes), some beyond Latin-1
    const term = fc
      .tuple(fc.constantFrom('', 'a'.repeat(15), 'a'.repeat(16), 'abcdefghijklmnop', 'abcdefghijklmnopqrstuvwxyz0123456789'), fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '\u00e9', '\u4e2d'), maxLength: 40 }))
      .map(([prefix, rest]) => prefix + rest);

    it.each([
      ['in memory', false],
      ['spilled', true],
    ])('terms, lookups (folded slices too) and order as strings would, before and after an index file (%s)', (_, spill) => {
      fc.assert(
        fc.property(fc.array(term, { maxLength: 60 }), (terms) => {
          const spillDir = spill ? new SpillTarget(dir) : undefined;
          const hash = new TermHash(spillDir);
          const distinct = [...new Set(terms)];
          for (const t of terms) hash.intern(t);
          const check = (h: TermHash) => {
            expect(h.list()).toEqual(distinct);
            for (let a = 0; a < distinct.length; a++) {
              expect(h.get(distinct[a])).toBe(a);
              expect(h.get(distinct[a] + 'a')).toBe(distinct.indexOf(distinct[a] + 'a'));
              const upper = `<${distinct[a].toUpperCase()}>`;
              if (!/[^a-z]/.test(distinct[a])) expect(h.getSlice(upper, 1, upper.length - 1, true)).toBe(a);
              for (let b = 0; b < distinct.length; b++) expect(Math.sign(h.compare(a, b))).toBe(Math.sign(compareUtf8(distinct[a], distinct[b])));
              // its code units without a string; nothing written into an array too short
              const units = new Uint16Array(distinct[a].length + 3).fill(7);
              expect(h.codeUnits(a, units)).toBe(distinct[a].length);
              expect(String.fromCharCode(...units.subarray(0, distinct[a].length))).toBe(distinct[a]);
              if (distinct[a].length > 0) {
                const short = new Uint16Array(distinct[a].length - 1).fill(7);
                expect(h.codeUnits(a, short)).toBe(distinct[a].length);
                expect(short.every((u) => u === 7)).toBe(true);
              }
            }
          };
          check(hash);
          const w = new StateWriter();
          hash.writeState(w);
          const read = new TermHash(spillDir);
          read.readState(new StateReader(w.meta, w.sections.map(sectionBytes)));
          check(read);
          const more = 'z'.repeat(50);
          expect(read.intern(more)).toBe(distinct.length);
          expect(read.term(distinct.length)).toBe(more);
        }),
        { seed: 5, numRuns: 60 },
      );
    });

    it('holds 32 bytes of a long term in memory when spilled, and at most one chunk of tails being filled (a 15-word description as a keyword took 120)', () => {
      const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
      const text = (i: number) => `${i} ${Array.from({ length: 15 }, (_, w) => words[(i * 7 + w * (i % 5 + 1)) % words.length]).join(' ')}`;
      const n = 50_000;
      const hash = new TermHash(new SpillTarget(dir));
      const inMemory = new TermHash();
      for (let i = 0; i < n; i++) {
        hash.intern(text(i));
        inMemory.intern(text(i));
      }
      let characters = 0;
      for (let i = 0; i < n; i++) characters += text(i).length;
      // 32 bytes + offset + table slots a term, and the chunk of tails being filled (4 MB at most)
      expect(hash.bytes()).toBeLessThan(n * (32 + 4 + 16) * 1.3 + 4 * 1024 * 1024);
      expect(inMemory.bytes()).toBeGreaterThan(characters);
      expect(readdirSync(dir)).toEqual([]); // (a spill file has no name)
      for (const i of [0, 7, 12_345, n - 1]) {
        expect(hash.term(i)).toBe(text(i));
        expect(hash.get(text(i))).toBe(i);
      }
    });

    it('finds or adds a long term reading no other long term from disk but one of the same hash (the hash is in its reference)', () => {
      const hash = new TermHash(new SpillTarget(dir));
      const text = (i: number) => `${'x'.repeat(40)}-${String(i).padStart(6, '0')}`; // one length, one prefix
      for (let i = 0; i < 5_000; i++) hash.intern(text(i));
      const reads = jest.spyOn(ByteChunks.prototype, 'copy');
      try {
        expect(hash.get(text(999_999))).toBe(-1);
        expect(hash.intern(text(5_000))).toBe(5_000);
        expect(reads).not.toHaveBeenCalled();
        expect(hash.get(text(1_234))).toBe(1_234); // the term itself: its rest read once to compare
        expect(reads).toHaveBeenCalledTimes(1);
      } finally {
        reads.mockRestore();
      }
    });
  });
});
