import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Budget } from './budget/budget';
import { READS_PER_CHECK } from './budget/checkEvery';
import { SpillTarget, diskReads } from './persist/diskFile';
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
    // 40,000 terms: runs of 1,024 at most, each made at once, then merges of 1,024 terms a step (at least those of the last two levels)
    const strings = Array.from({ length: 40_000 }, (_, i) => `${'a'.repeat(40)}${(i * 7919) % 40_000}`);
    const view = new SortedTerms(dictOf(strings));
    const steps = view.refreshSteps(new Budget(Infinity, 0)); // every check pauses
    let pauses = 0;
    while (!steps.next().done) pauses++;
    expect(pauses).toBeGreaterThanOrEqual(Math.floor(40_000 / 1024) + Math.floor((32_768 + 40_000) / 1024) - 3);
    expect(Array.from({ length: view.size }, (_, i) => view.term(i))).toEqual([...strings].sort(compareUtf8));
  });

  it('pauses after READS_PER_CHECK reads from disk when the long terms it sorts are spilled, however few terms that is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sorted-terms-'));
    try {
      // names of 40 a's and a number (bench:abuse's): each comparison of two reads the rest of both from the spill file
      const strings = Array.from({ length: 20_000 }, (_, i) => `${'a'.repeat(40)}${(i * 7919) % 20_000}`);
      const dict = new TermHash(new SpillTarget(dir));
      for (const s of strings) dict.intern(s);
      const view = new SortedTerms(dict);
      const readsBefore = diskReads();
      const steps = view.refreshSteps(new Budget(Infinity, 0)); // every look at the budget pauses
      let pauses = 0;
      while (!steps.next().done) pauses++;
      const reads = diskReads() - readsBefore;
      expect(reads).toBeGreaterThan(20_000);
      // without counting the reads: about 20,000 / 1,024 made + 2 x 20,000 x log2(20) / 1,024 compared
      expect(pauses).toBeGreaterThanOrEqual(Math.floor(reads / READS_PER_CHECK) - 20);
      expect(Array.from({ length: view.size }, (_, i) => view.term(i))).toEqual([...strings].sort(compareUtf8));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** 40,000 short terms added out of order, their view, and a count of the term strings the dictionary makes. */
  const shuffledTerms = () => {
    const strings = Array.from({ length: 40_000 }, (_, i) => `t${(i * 7919) % 40_000}`);
    const dict = dictOf(strings);
    const view = new SortedTerms(dict);
    return { strings, dict, view, made: jest.spyOn(dict, 'term') };
  };

  it('makes each term once when several searches need the order at the same time, each pausing within its own budget', () => {
    const { strings, view, made } = shuffledTerms();
    // eight searches take turns, as the scheduler runs them, one step each
    const searches = Array.from({ length: 8 }, () => view.refreshSteps(new Budget(Infinity, 0)));
    const done = new Set<number>();
    while (done.size < searches.length) {
      searches.forEach((steps, i) => {
        if (!done.has(i) && steps.next().done) done.add(i);
      });
    }
    expect(made.mock.calls.length).toBe(40_000);
    expect(Array.from({ length: view.size }, (_, i) => view.term(i))).toEqual([...strings].sort(compareUtf8));
  });

  it('keeps the sort where it was when the search driving it runs out of time or is stopped: the next search finishes it, no term read twice', () => {
    const { strings, dict, view, made } = shuffledTerms();
    let now = 0;
    const late = view.refreshSteps(new Budget(5, 0, () => now));
    late.next();
    const before = made.mock.calls.length;
    expect(before).toBeGreaterThan(0);
    now = 10; // past its deadline: its next check throws
    expect(() => late.next()).toThrow('search time budget exceeded');
    const stopped = view.refreshSteps(new Budget(Infinity, 0));
    stopped.next();
    stopped.return(undefined); // refused or abandoned: the sort stays paused
    view.refresh();
    // every term's string made once for the sort (the runs), none again after the timeout
    expect(made.mock.calls.length).toBe(40_000);
    dict.intern('a new term');
    view.refresh();
    expect(Array.from({ length: view.size }, (_, i) => view.term(i))).toEqual([...strings, 'a new term'].sort(compareUtf8));
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
