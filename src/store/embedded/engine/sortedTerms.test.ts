import fc from 'fast-check';
import { Budget } from './budget/budget';
import { SortedTerms } from './sortedTerms';
import { compareUtf8 } from './strings';
import { TermHash } from './termHash';

const dictOf = (strings: string[]) => {
  const dict = new TermHash();
  for (const s of strings) dict.intern(s);
  return dict;
};

describe('SortedTerms', () => {
  it('keeps the dictionary in code point order as terms arrive', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: 'binary' }), { maxLength: 20 }), { maxLength: 6 }), (batches) => {
        const strings: string[] = [];
        const dict = new TermHash();
        const view = new SortedTerms(dict);
        for (const batch of batches) {
          for (const s of batch) {
            if (!strings.includes(s)) strings.push(s);
            dict.intern(s);
          }
          view.refresh();
          const inOrder = Array.from({ length: view.size }, (_, i) => view.term(i));
          expect(inOrder).toEqual([...strings].sort(compareUtf8));
          for (let i = 0; i < view.size; i++) expect(strings[view.id(i)]).toBe(view.term(i));
        }
      }),
      { seed: 7 },
    );
  });

  it('sorts a large dictionary in runs, pausing between them within a budget', () => {
    const strings = Array.from({ length: 40_000 }, (_, i) => `t${(i * 7919) % 40_000}`);
    const view = new SortedTerms(dictOf(strings));
    const steps = view.refreshSteps(new Budget(Infinity, 0)); // every check pauses
    let pauses = 0;
    while (!steps.next().done) pauses++;
    expect(pauses).toBeGreaterThan(2);
    expect(Array.from({ length: view.size }, (_, i) => view.term(i))).toEqual([...strings].sort(compareUtf8));
  });

  it('pauses every 1,024 terms made or merged, long terms that share their first bytes among them', () => {
    // 40,000 terms: three runs of 16,384 at most, each made 1,024 terms at a time, then two merges of 1,024 terms a step
    const strings = Array.from({ length: 40_000 }, (_, i) => `${'a'.repeat(40)}${(i * 7919) % 40_000}`);
    const view = new SortedTerms(dictOf(strings));
    const steps = view.refreshSteps(new Budget(Infinity, 0)); // every check pauses
    let pauses = 0;
    while (!steps.next().done) pauses++;
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(40_000 / 1024) + Math.floor((32_768 + 40_000) / 1024) - 3);
    expect(Array.from({ length: view.size }, (_, i) => view.term(i))).toEqual([...strings].sort(compareUtf8));
  });

  it('takes a few new terms in among many with few comparisons (galloping), in order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), { minLength: 1, maxLength: 60 }), (added) => {
        const old = Array.from({ length: 3000 }, (_, i) => `m${(i * 7919) % 3000}`);
        const dict = dictOf(old);
        const view = new SortedTerms(dict);
        view.refresh();
        const fresh = added.filter((t) => dict.get(t) < 0);
        for (const t of fresh) dict.intern(t);
        const compare = jest.spyOn(dict, 'compare');
        view.refresh();
        // a walk of the old order would compare about 3,000 pairs
        expect(compare.mock.calls.length).toBeLessThanOrEqual(fresh.length * 2 * (Math.log2(3000) + 1));
        expect(Array.from({ length: view.size }, (_, i) => view.term(i))).toEqual([...old, ...fresh].sort(compareUtf8));
      }),
      { seed: 11, numRuns: 60 },
    );
  });

  it('finds bounds', () => {
    const strings = ['b', 'd', 'a', '\u{1F600}', '\uFFFF'];
    const view = new SortedTerms(dictOf(strings));
    view.refresh();
    expect(Array.from({ length: view.size }, (_, i) => view.term(i))).toEqual(['a', 'b', 'd', '\uFFFF', '\u{1F600}']);
    expect(view.lowerBound('b')).toBe(1);
    expect(view.lowerBound('b', true)).toBe(2);
    expect(view.lowerBound('c')).toBe(2);
    expect(view.lowerBound('\u{1F600}')).toBe(4);
    expect(view.lowerBound('z')).toBe(3);
  });
});
