import fc from 'fast-check';
import { TermHash } from './termHash';
import { NumberHash } from './numberHash';
import { FREQ_OVERFLOW_MARK, TermPostings } from './termPostings';

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
});

