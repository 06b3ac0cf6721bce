import { Budget, UNLIMITED, runToEnd } from '../budget/budget';
import { InvertedIndex } from '../invertedIndex';
import { evaluate } from '../lucene/evaluate';
import { toScores } from '../lucene/execute';
import { IndexMapping } from '../mapping';
import { multiPhrasePrefix, prefixExpansions } from './multiPhrasePrefix';

describe('MultiPhrasePrefixQuery', () => {
  const mapping = new IndexMapping({ text: ['t'] });
  const index = new InvertedIndex();
  ['new york', 'newark', 'news of new zealand', 'york', 'NEWT'].forEach((t, i) => index.addSource(String(i), { t }, mapping));
  const field = index.field('t')!;

  it('expands a prefix to the first terms of the dictionary starting with it, in UTF-8 order', () => {
    expect(runToEnd(prefixExpansions(field, 'new', 50, UNLIMITED))).toEqual(['new', 'newark', 'news', 'newt']);
    expect(runToEnd(prefixExpansions(field, 'new', 2, UNLIMITED))).toEqual(['new', 'newark']);
    expect(runToEnd(prefixExpansions(field, 'new', 0, UNLIMITED))).toEqual(['new']); // Elasticsearch adds a term before checking the limit
    expect(runToEnd(prefixExpansions(field, 'x', 50, UNLIMITED))).toEqual([]);
    expect(runToEnd(prefixExpansions(field, '', 2, UNLIMITED))).toEqual(['new', 'newark']);
  });

  it('skips the terms no live document holds any more', () => {
    const small = new InvertedIndex();
    ['newark', 'news'].forEach((t, i) => small.addSource(String(i), { t }, mapping));
    small.remove('0');
    expect(runToEnd(prefixExpansions(small.field('t')!, 'new', 1, UNLIMITED))).toEqual(['news']);
  });

  it('pauses when its slice is over, and stops at the deadline', () => {
    const big = new InvertedIndex();
    for (let i = 0; i < 10_000; i++) big.addSource(String(i), { t: `w${i}` }, mapping);
    const f = big.field('t')!;
    let now = 0;
    const steps = prefixExpansions(f, 'w', 100_000, new Budget(Infinity, 0, () => now++));
    let pauses = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) pauses++;
    expect(next.value).toHaveLength(10_000);
    expect(pauses).toBeGreaterThan(0);
    expect(() => runToEnd(prefixExpansions(f, 'w', 100_000, new Budget(0, Infinity, () => now++)))).toThrow('search time budget exceeded');
  });

  it('rewrites to a MultiPhraseQuery whose last position holds the expansions', () => {
    const leaf = multiPhrasePrefix({ field: 't', tokens: ['new', 'y'], slop: 0, maxExpansions: 50 });
    runToEnd(leaf.prepare!(index, UNLIMITED));
    expect(leaf.expand!(index)).toEqual({ type: 'multiPhrase', field: 't', termArrays: [['new'], ['york']], positions: [0, 1], slop: 0 });
    expect([...toScores(evaluate(leaf, index, 1, false)!).keys()]).toEqual([0]);
    expect([...leaf.docs(index)]).toEqual([0]);
    expect(multiPhrasePrefix({ field: 't', tokens: ['zz'], slop: 0, maxExpansions: 50 }).expand!(index).type).toBe('matchNone');
    expect(multiPhrasePrefix({ field: 'absent', tokens: ['new'], slop: 0, maxExpansions: 50 }).expand!(index).type).toBe('matchNone');
  });

  it('has an identity of its field, tokens, slop and max_expansions', () => {
    const key = (slop: number, maxExpansions: number) => multiPhrasePrefix({ field: 't', tokens: ['new'], slop, maxExpansions }).key;
    expect(key(0, 50)).toBe(key(0, 50));
    expect(key(0, 50)).not.toBe(key(1, 50));
    expect(key(0, 50)).not.toBe(key(0, 5));
  });
});
