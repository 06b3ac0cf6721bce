import { DEFAULT_LIMITS } from '../limits';
import { IndexMapping } from '../mapping';
import { analyzedQuery, AnalyzedOptions } from './analyzedQuery';

const mapping = new IndexMapping({ keyword: ['k'] });
mapping.parse({ t: 'text', n: 1 });
const ctx = { mapping, now: 0, limits: DEFAULT_LIMITS };
const options: AnalyzedOptions = { operator: 'or', phrase: false, slop: 0, lenient: false, zeroTermsQuery: 'none', where: 'p' };

describe('analyzed field queries', () => {
  it('analyzes text into term, boolean or phrase queries', () => {
    expect(analyzedQuery(ctx, 't', 'Hello', options)).toEqual({ type: 'term', field: 't', term: 'hello' });
    expect(analyzedQuery(ctx, 't', 'a B', options)).toEqual({
      type: 'bool',
      minimumShouldMatch: 0,
      clauses: [
        { occur: 'should', query: { type: 'term', field: 't', term: 'a' } },
        { occur: 'should', query: { type: 'term', field: 't', term: 'b' } },
      ],
    });
    expect(analyzedQuery(ctx, 't', 'a B', { ...options, operator: 'and' })).toMatchObject({ clauses: [{ occur: 'must' }, { occur: 'must' }] });
    expect(analyzedQuery(ctx, 't', 'a B', { ...options, phrase: true, slop: 1 })).toEqual({ type: 'phrase', field: 't', terms: ['a', 'b'], positions: [0, 1], slop: 1 });
  });

  it('handles no tokens, keywords, numbers and unmapped fields', () => {
    expect(analyzedQuery(ctx, 't', '...', options).type).toBe('matchNone');
    expect(analyzedQuery(ctx, 't', '...', { ...options, zeroTermsQuery: 'all' }).type).toBe('matchAll');
    expect(analyzedQuery(ctx, 'k', 'A B', options)).toEqual({ type: 'term', field: 'k', term: 'A B' });
    expect(() => analyzedQuery(ctx, 'n', 'x', options)).toThrow('not a valid long');
    expect(analyzedQuery(ctx, 'n', 'x', { ...options, lenient: true }).type).toBe('matchNone');
    expect(analyzedQuery(ctx, 'nope', 'x', options).type).toBe('matchNone');
  });
});
