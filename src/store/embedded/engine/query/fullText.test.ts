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

  it('accept only the standard analyzer and check inert parameters', () => {
    expect(() => readAnalyzer('match', { analyzer: 'standard' }, 'p')).not.toThrow();
    expect(() => readAnalyzer('match', { analyzer: 'english' }, 'p')).toThrow('analyzer "english" is not supported at p.analyzer');
    expect(() => readInertParams('match', { max_expansions: 0 }, 'p')).toThrow('max_expansions');
    expect(() => readInertParams('match', { prefix_length: 2, fuzzy_transpositions: false }, 'p')).not.toThrow();
  });
});
