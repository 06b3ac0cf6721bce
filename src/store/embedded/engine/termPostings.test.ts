import fc from 'fast-check';
import { StateReader, StateWriter, sectionBytes } from './persist/state';
import { TermHash } from './termHash';
import { NumberHash } from './numberHash';
import { FREQ_OVERFLOW_MARK, TermPostings } from './termPostings';

/** `postings` and its dictionary written to an index file's state and read back. */
function roundTrip(postings: TermPostings<string>): TermPostings<string> {
  const w = new StateWriter();
  (postings.dict as TermHash).writeState(w);
  postings.writeState(w);
  const r = new StateReader(w.meta, w.sections.map(sectionBytes));
  const read = new TermPostings<string>(postings.withFreqs, new TermHash());
  (read.dict as TermHash).readState(r);
  read.readState(r);
  return read;
}

describe('TermPostings', () => {
  it('keeps the documents of each term and frequencies in order, small and large lists alike', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 12 }), { maxLength: 400 }), (docs) => {
        const postings = new TermPostings<string>(true, new TermHash());
        const expected = new Map<number, Map<number, number>>();
        docs.forEach((terms, doc) => {
          for (const term of terms) {
            const t = postings.intern(`t${term}`);
            postings.add(t, doc);
            const perDoc = expected.get(t) ?? new Map<number, number>();
            perDoc.set(doc, (perDoc.get(doc) ?? 0) + 1);
            expected.set(t, perDoc);
          }
        });
        for (const [t, perDoc] of expected) {
          expect([...postings.docs(t)]).toEqual([...perDoc.keys()]);
          expect([...(postings.freqs(t) as Uint8Array)]).toEqual([...perDoc.values()]);
          expect(postings.df[t]).toBe(perDoc.size);
          expect(postings.maxFreq[t]).toBe(Math.max(...perDoc.values()));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('appends reserved batches (as refresh does)', () => {
    const postings = new TermPostings<string>(false, new TermHash());
    const a = postings.intern('a');
    const b = postings.intern('b');
    for (let batch = 0; batch < 50; batch++) {
      postings.reserve(a, 10);
      postings.reserve(b, 1);
      for (let i = 0; i < 10; i++) postings.push(a, batch * 10 + i);
      postings.push(b, batch);
    }
    expect(postings.docs(a).length).toBe(500);
    expect([...postings.docs(a)].every((d, i) => d === i)).toBe(true);
    expect([...postings.docs(b)]).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(postings.freqs(a)).toBeNull();
    postings.removeOne(a);
    expect(postings.df[a]).toBe(499);
    expect(postings.docs(a).length).toBe(500); // the tombstone stays
  });

  it('keeps frequencies beyond one byte exact', () => {
    const postings = new TermPostings<number>(true, new NumberHash());
    const t = postings.intern(7);
    for (let i = 0; i < 70000; i++) postings.add(t, 3);
    expect((postings.freqs(t) as Uint8Array)[0]).toBe(FREQ_OVERFLOW_MARK);
    expect(postings.overflowFreq(t, 3)).toBe(70000);
    expect(postings.maxFreq[t]).toBe(70000);
    expect(postings.id(7)).toBe(t);
    expect(postings.id(8)).toBe(-1);
  });

  it('one byte a frequency: 255 marks the exact value kept aside, per document', () => {
    const postings = new TermPostings<string>(true, new TermHash());
    const t = postings.intern('x');
    for (let doc = 0; doc < 8; doc++) for (let i = 0; i < 250 + doc; i++) postings.add(t, doc);
    const freqs = postings.freqs(t) as Uint8Array;
    const exact = [...freqs].map((f, i) => (f === FREQ_OVERFLOW_MARK ? postings.overflowFreq(t, i) : f));
    expect(exact).toEqual([250, 251, 252, 253, 254, 255, 256, 257]);
    expect([...freqs].slice(4)).toEqual([254, 255, 255, 255]);
    expect(postings.maxFreq[t]).toBe(257);
  });

  it('keeps the counts one byte a term while every term has fewer than 128 postings, wider once one has more, the same counts before and after an index file', () => {
    const postings = new TermPostings<string>(false, new TermHash());
    for (let doc = 0; doc < 5_000; doc++) postings.add(postings.intern(`id${doc}`), doc);
    const shared = postings.intern('shared');
    const counts = (p: TermPostings<string>) => [p.df[p.id('id0')], p.len[p.id('id4999')], p.df[p.id('shared')], p.len[p.id('shared')]];
    const widths: number[] = [];
    for (const [upTo, width] of [[127, 1], [128, 2], [32_767, 2], [32_768, 4]] as const) {
      for (let doc = postings.len[shared]; doc < upTo; doc++) postings.add(shared, 1 + 2 * doc);
      widths.push(postings.df.BYTES_PER_ELEMENT);
      expect(postings.len.BYTES_PER_ELEMENT).toBe(width);
      for (const p of [postings, roundTrip(postings)]) {
        expect(counts(p)).toEqual([1, 1, upTo, upTo]);
        expect(p.df.BYTES_PER_ELEMENT).toBe(width);
        expect([...p.docs(shared)].slice(-2)).toEqual([2 * upTo - 3, 2 * upTo - 1]);
      }
    }
    expect(widths).toEqual([1, 2, 2, 4]);
    postings.removeOne(shared);
    expect(postings.df[shared]).toBe(32_767);
    expect(postings.len[shared]).toBe(32_768);
  });

  describe('a list of every document from 0 on, each once (a view of arrays shared by all such lists)', () => {
    /** A field of `n` documents: `every` in each, `other` in the odd ones (twice in the last when `twice`). */
    function build(n: number, breakAt: number, how: 'gap' | 'twice' | 'none'): { postings: TermPostings<string>; every: number } {
      const postings = new TermPostings<string>(true, new TermHash());
      const every = postings.intern('every');
      const other = postings.intern('other');
      for (let doc = 0; doc < n; doc++) {
        if (!(how === 'gap' && doc === breakAt)) postings.add(every, doc);
        if (how === 'twice' && doc === breakAt) postings.add(every, doc);
        if (doc % 2 === 1) postings.add(other, doc);
      }
      return { postings, every };
    }
    it('takes no memory of its own, gives the same documents and frequencies, before and after an index file, and takes more', () => {
      const { postings, every } = build(10_000, -1, 'none');
      const other = postings.id('other');
      // the other list's own 5,000 postings (4 + 1 bytes each, room included); none for the 10,000 of `every`
      expect(postings.bytes()).toBeLessThan(5_000 * 5 * 1.6 + 2_000);
      for (const p of [postings, roundTrip(postings)]) {
        expect([...p.docs(every)]).toEqual(Array.from({ length: 10_000 }, (_, i) => i));
        expect([...(p.freqs(every) as Uint8Array)].every((f) => f === 1)).toBe(true);
        expect([...p.docs(other)]).toEqual(Array.from({ length: 5_000 }, (_, i) => 2 * i + 1));
        expect(p.df[every]).toBe(10_000);
        expect(p.maxFreq[every]).toBe(1);
        for (let doc = 10_000; doc < 20_000; doc++) p.add(every, doc);
        expect([...p.docs(every)]).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
      }
    });

    it.each([['gap' as const], ['twice' as const]])('a posting that breaks the run (%s) gives the list arrays of its own, the shared ones untouched', (how) => {
      const { postings, every } = build(3_000, 1_234, how);
      const docs = [...postings.docs(every)];
      const freqs = [...(postings.freqs(every) as Uint8Array)];
      const expectedDocs = Array.from({ length: 3_000 }, (_, i) => i).filter((doc) => how !== 'gap' || doc !== 1_234);
      expect(docs).toEqual(expectedDocs);
      expect(freqs).toEqual(expectedDocs.map((doc) => (how === 'twice' && doc === 1_234 ? 2 : 1)));
      expect(postings.maxFreq[every]).toBe(how === 'twice' ? 2 : 1);
      expect([...roundTrip(postings).docs(every)]).toEqual(expectedDocs);
      // another list still shares the arrays, which hold what they held
      const { postings: again, every: e } = build(2_000, -1, 'none');
      expect([...again.docs(e)]).toEqual(Array.from({ length: 2_000 }, (_, i) => i));
      expect([...(again.freqs(e) as Uint8Array)].every((f) => f === 1)).toBe(true);
    });
  });

  describe('a term of one posting (an id, a slug: a view of the shared array at its document)', () => {
    const roundTripFresh = (postings: TermPostings<string>): TermPostings<string> => {
      const w = new StateWriter();
      (postings.dict as TermHash).writeState(w);
      postings.writeState(w);
      const r = new StateReader(w.meta, w.sections.map(sectionBytes));
      let read: TermPostings<string> | undefined;
      // a module of its own: its shared arrays are made by reading the file, not left by the writer
      jest.isolateModules(() => {
        const fresh = require('./termPostings') as typeof import('./termPostings');
        read = new fresh.TermPostings<string>(true, new TermHash());
      });
      (read!.dict as TermHash).readState(r);
      read!.readState(r);
      return read!;
    };
    const n = 20_000;
    function build(): TermPostings<string> {
      const postings = new TermPostings<string>(true, new TermHash());
      for (let doc = 0; doc < n; doc++) postings.add(postings.intern(`id${doc}`), doc);
      return postings;
    }
    const postingsOf = (p: TermPostings<string>, t: number) => {
      const docs = p.docsArray(t);
      const start = p.docsStart(t);
      return Array.from({ length: p.len[t] }, (_, i) => docs[start + i]);
    };

    it('takes no arena room; the same documents and frequencies before and after an index file', () => {
      const postings = build();
      // the per-term arrays alone: df and len (1 byte each: counts of one posting), maxFreq and at (4
      // bytes each) and cap (2), grown by doubling
      expect(postings.bytes()).toBeLessThan(n * 12 * 2);
      for (const p of [postings, roundTripFresh(postings)]) {
        for (const doc of [0, 1, 9_999, n - 1]) {
          const t = p.id(`id${doc}`);
          expect([...p.docs(t)]).toEqual([doc]);
          expect(postingsOf(p, t)).toEqual([doc]);
          expect([...(p.freqs(t) as Uint8Array)]).toEqual([1]);
          expect(p.df[t]).toBe(1);
          expect(p.maxFreq[t]).toBe(1);
        }
      }
    });

    it('one posting at document 0 then a batch of the next documents (one entity, a search, then a bulk load): a view of the shared arrays, no room of its own', () => {
      const p = new TermPostings<string>(true, new TermHash());
      const every = p.intern('products');
      p.add(every, 0);
      const before = p.bytes();
      p.reserve(every, 4_095);
      for (let doc = 1; doc < 4_096; doc++) p.push(every, doc);
      expect(p.bytes() - before).toBeLessThan(1_000);
      expect([...p.docs(every)]).toEqual(Array.from({ length: 4_096 }, (_, i) => i));
      expect([...(p.freqs(every) as Uint8Array)].every((f) => f === 1)).toBe(true);
      // at another document, the same batch takes arrays of its own
      const other = p.intern('other');
      p.add(other, 7);
      p.reserve(other, 300);
      for (let doc = 8; doc < 308; doc++) p.push(other, doc);
      expect([...p.docs(other)]).toEqual(Array.from({ length: 301 }, (_, i) => 7 + i));
      expect([...roundTripFresh(p).docs(every)]).toEqual(Array.from({ length: 4_096 }, (_, i) => i));
    });

    it('a second posting, a repeat in its document or a batch of many moves it out, the shared arrays untouched', () => {
      for (const p of [build(), roundTripFresh(build())]) {
        const [a, b, c, d] = [10, 11, 12, 13].map((doc) => p.id(`id${doc}`));
        p.add(a, 500_000); // a second document
        p.add(b, 11); // the same document again
        p.reserve(c, 300); // a batch past the arena's largest segment (as refresh does)
        for (let i = 0; i < 300; i++) p.push(c, n + i);
        p.add(p.intern('new'), n + 5); // a new term of one posting, then a repeat (bumpFreq)
        p.add(p.id('new'), n + 5);
        const batched = p.intern('batched'); // as refresh does: room for one document, then its three occurrences
        p.reserve(batched, 1);
        p.push(batched, n + 6);
        p.bumpFreq(batched, n + 6);
        p.bumpFreq(batched, n + 6);
        expect([...p.docs(batched)]).toEqual([n + 6]);
        expect([...(p.freqs(batched) as Uint8Array)]).toEqual([3]);
        expect([...p.docs(a)]).toEqual([10, 500_000]);
        expect([...(p.freqs(a) as Uint8Array)]).toEqual([1, 1]);
        expect([...p.docs(b)]).toEqual([11]);
        expect([...(p.freqs(b) as Uint8Array)]).toEqual([2]);
        expect(p.maxFreq[b]).toBe(2);
        expect([...p.docs(c)]).toEqual([12, ...Array.from({ length: 300 }, (_, i) => n + i)]);
        expect([...p.docs(p.id('new'))]).toEqual([n + 5]);
        expect([...(p.freqs(p.id('new')) as Uint8Array)]).toEqual([2]);
        // the others still read their own document and a frequency of 1
        expect([...p.docs(d)]).toEqual([13]);
        expect([...(p.freqs(d) as Uint8Array)]).toEqual([1]);
        expect([...p.docs(p.id('id14'))]).toEqual([14]);
        const again = roundTripFresh(p);
        expect([...again.docs(a)]).toEqual([10, 500_000]);
        expect([...(again.freqs(b) as Uint8Array)]).toEqual([2]);
        expect([...again.docs(d)]).toEqual([13]);
      }
    });
  });
});
