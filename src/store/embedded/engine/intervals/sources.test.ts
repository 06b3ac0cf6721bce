import { TermSource, combineSources, containing, maxGaps, or, ordered, phrase, unordered } from './sources';

const t = (term: string) => new TermSource('body', term);
const MAX = 4096;

describe('interval sources (the rewrites of Lucene 9 Intervals)', () => {
  it('deduplicates disjunctions and repeats', () => {
    expect(String(or([t('a'), t('b'), t('a')]))).toBe('or(a,b)');
    expect(String(or([t('a')]))).toBe('a');
    expect(String(ordered([t('a'), t('a'), t('b')], MAX))).toBe('ORDERED(a,a,b)');
    expect(String(unordered([t('a'), t('b'), t('a')], MAX))).toBe('UNORDERED(a,a,b)');
    expect(String(ordered([t('a'), t('a')], MAX))).toBe('ORDERED(a,a)');
  });

  it('pulls disjunctions up under gap-sensitive sources, one-position disjuncts kept together', () => {
    const ab = ordered([t('a'), t('b')], MAX);
    expect(String(phrase([or([t('x'), ab]), t('c')], MAX))).toBe('or(BLOCK(ORDERED(a,b),c),BLOCK(x,c))');
    expect(String(phrase([or([t('x'), t('y')]), t('c')], MAX))).toBe('BLOCK(or(x,y),c)');
    expect(String(maxGaps(or([t('x'), ab]), 1))).toBe('or(MAXGAPS/1(ORDERED(a,b)),MAXGAPS/1(x))');
    expect(String(containing(or([ab, t('x')]), t('c'), MAX))).toBe('or(CONTAINING(ORDERED(a,b),c),CONTAINING(x,c))');
  });

  it("combines as Elasticsearch's IntervalBuilder does", () => {
    expect(String(combineSources([t('a'), t('b')], 0, true, MAX))).toBe('BLOCK(a,b)');
    expect(String(combineSources([t('a'), t('b')], -1, false, MAX))).toBe('UNORDERED(a,b)');
    expect(String(combineSources([t('a'), t('b')], 2, true, MAX))).toBe('MAXGAPS/2(ORDERED(a,b))');
    expect(String(combineSources([t('a')], 2, true, MAX))).toBe('a');
    expect(ordered([t('a'), t('b')], MAX).minExtent()).toBe(2);
  });
});
