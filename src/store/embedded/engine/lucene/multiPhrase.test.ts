import { Budget, runToEnd } from '../budget/budget';
import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { expectedIdf, expectedScore } from '../testing';
import { evaluate } from './evaluate';
import { toScores } from './execute';
import { multiPhraseMatches, multiPhraseSteps } from './multiPhrase';
import { MultiPhraseQuery, countClauses, queryKey } from './query';
import { rewrite } from './rewrite';

const f = Math.fround;

describe('MultiPhraseQuery', () => {
  const mapping = new IndexMapping({});
  const index = new InvertedIndex();
  const docs = ['new york', 'new zealand', 'york new', 'newark', 'new new york'];
  docs.forEach((t, i) => index.addSource(String(i), { t }, mapping));
  const t = index.field('t')!;
  const multi = (termArrays: string[][], slop = 0): MultiPhraseQuery => ({ type: 'multiPhrase', field: 't', termArrays, positions: termArrays.map((_, i) => i), slop });
  const run = (query: MultiPhraseQuery) => {
    const matches = multiPhraseMatches(t, query, 1, true);
    return matches === null ? null : [...toScores(matches)];
  };
  // N = 5 documents, lengths 2 2 2 1 3: avgdl = 10 / 5; df: new 4, york 3, zealand 1
  const stats = { N: 5, avgdl: 2 };

  it('matches any of the terms of a position, scored with the summed idf of every term found at every position', () => {
    const idf = f(expectedIdf(5, 4) + expectedIdf(5, 3) + expectedIdf(5, 1));
    const score = (dl: number) => expectedScore({ ...stats, n: 0, freq: 1, dl, idf });
    expect(run(multi([['new'], ['york', 'zealand', 'absent']]))).toEqual([
      [0, score(2)],
      [1, score(2)],
      [4, score(3)],
    ]);
  });

  it('has no scorer when a position has none of its terms in the index', () => {
    expect(run(multi([['new'], ['paris', 'rome']]))).toBeNull();
    expect(evaluate(multi([['absent'], ['york']]), index, 1, true)).toBeNull();
  });

  it('weighs sloppy matches by 1 / (1 + distance), repeats across positions included', () => {
    // "york new": the reversed pair costs 2; "new york": exact
    const reversed = run(multi([['york'], ['new', 'newark']], 2));
    expect(reversed?.map(([doc]) => doc)).toEqual([0, 2, 4]);
    const idf = f(expectedIdf(5, 3) + expectedIdf(5, 4) + expectedIdf(5, 1));
    // a term at two positions counts twice (MultiPhraseWeight collects the statistics in a list)
    const twice = f(expectedIdf(5, 4) + expectedIdf(5, 4) + expectedIdf(5, 3));
    expect(run(multi([['new'], ['new', 'york']]))).toEqual([[0, expectedScore({ ...stats, n: 0, freq: 1, dl: 2, idf: twice })], [4, expectedScore({ ...stats, n: 0, freq: 2, dl: 3, idf: twice })]]);
    expect(reversed?.[0][1]).toBe(expectedScore({ ...stats, n: 0, freq: f(1 / 3), dl: 2, idf }));
    // "new" at both positions (a multi-term repeat): "new new york" holds it twice, "new york" once
    expect(run(multi([['new'], ['new', 'york']], 1))?.map(([doc]) => doc)).toEqual([0, 4]);
  });

  it('rewrites as Lucene does: one position is a disjunction of its terms, none matches nothing', () => {
    const one = rewrite(multi([['york', 'zealand']]));
    expect(one.type).toBe('bool');
    expect([...toScores(evaluate(one, index, 1, true)!).keys()]).toEqual([0, 1, 2, 4]);
    expect(rewrite(multi([])).type).toBe('matchNone');
    const two = multi([['new'], ['york']]);
    expect(rewrite(two)).toBe(two);
  });

  it('counts one clause per position and has its own identity', () => {
    expect(countClauses(multi([['new'], ['york', 'zealand']]))).toBe(2);
    expect(queryKey(multi([['new'], ['york']]))).not.toBe(queryKey(multi([['new'], ['york']], 1)));
    expect(queryKey(multi([['new'], ['york']]))).not.toBe(queryKey({ type: 'phrase', field: 't', terms: ['new', 'york'], positions: [0, 1], slop: 0 }));
  });

  it('checks the search budget while it looks up many terms and reads many documents', () => {
    const big = new InvertedIndex();
    for (let i = 0; i < 3000; i++) big.addSource(String(i), { t: `x a${i}` }, mapping);
    const f = big.field('t')!;
    const query = multi([['x'], Array.from({ length: 3000 }, (_, i) => `a${i}`)]);
    let now = 0;
    const steps = multiPhraseSteps(f, query, 1, true, new Budget(Infinity, 0, () => now++));
    let pauses = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) pauses++;
    expect(pauses).toBeGreaterThan(2);
    expect(next.value?.size).toBe(3000);
    expect(() => runToEnd(multiPhraseSteps(f, query, 1, true, new Budget(0, Infinity, () => now++)))).toThrow('search time budget exceeded');
  });

  it('skips removed documents', () => {
    const small = new InvertedIndex();
    ['new york', 'new zealand'].forEach((text, i) => small.addSource(String(i), { t: text }, mapping));
    small.remove('0');
    const matches = multiPhraseMatches(small.field('t')!, multi([['new'], ['york', 'zealand']]), 1, false);
    expect([...matches!.docList()]).toEqual([1]);
  });
});
