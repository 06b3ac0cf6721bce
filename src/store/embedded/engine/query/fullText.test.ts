import { readAnalyzer, readInertParams, readLenient, readOperator, readSlop, readZeroTerms } from './fullText';

describe('full-text parameters', () => {
  it('read defaults and values', () => {
    expect(readOperator('match', {}, 'p')).toBe('or');
    expect(readOperator('match', { operator: 'And' }, 'p')).toBe('and');
    expect(readZeroTerms('match', {}, 'p')).toBe('none');
    expect(readZeroTerms('match', { zero_terms_query: 'ALL' }, 'p')).toBe('all');
    expect(readLenient('match', {}, 'p')).toBeNull();
    expect(readLenient('match', { lenient: true }, 'p')).toBe(true);
    expect(readSlop('match', { slop: 3 }, 'p')).toBe(3);
  });

  it('accept the named analyzers and check inert parameters', () => {
    expect(readAnalyzer('match', { analyzer: 'standard' }, 'p')?.name).toBe('standard');
    expect(readAnalyzer('match', { analyzer: 'english' }, 'p')?.name).toBe('english');
    expect(readAnalyzer('match', {}, 'p')).toBeNull();
    expect(() => readAnalyzer('match', { analyzer: 'french' }, 'p')).toThrow('[match] analyzer [french] not found at p.analyzer (built-in analyzers: standard, simple, whitespace, stop, keyword, english, cjk)');
    expect(() => readInertParams('match', { max_expansions: 0 }, 'p')).toThrow('max_expansions');
    expect(() => readInertParams('match', { prefix_length: 2, fuzzy_transpositions: false }, 'p')).not.toThrow();
  });
});
