import { DEFAULT_LIMITS } from '../limits';
import { IndexMapping } from '../mapping';
import { BuildContext } from './context';
import { anyOfQuery, dateBound, exactQuery, fieldType, longTerm } from './fieldQueries';

const mapping = new IndexMapping({ keyword: ['k'], date: ['d'] });
mapping.parse({ t: 'text', n: 1, fl: 1.5, b: true });
const ctx: BuildContext = { mapping, now: Date.parse('2024-03-15T12:00:00Z'), limits: DEFAULT_LIMITS };

describe('field queries by type', () => {
  it('resolves field types, _id included', () => {
    expect(fieldType(ctx, '_id')).toBe('id');
    expect(fieldType(ctx, 't')).toBe('text');
    expect(fieldType(ctx, 'nope')).toBeUndefined();
  });

  it('builds scored term queries on strings and booleans, points on numbers', () => {
    expect(exactQuery(ctx, 't', 'Word', 'p')).toEqual({ type: 'term', field: 't', term: 'Word' });
    expect(exactQuery(ctx, 'k', 5, 'p')).toEqual({ type: 'term', field: 'k', term: '5' });
    expect(exactQuery(ctx, 'b', 'true', 'p')).toEqual({ type: 'term', field: 'b', term: 'T' });
    expect(exactQuery(ctx, 'n', '7', 'p').type).toBe('leaf');
    expect(exactQuery(ctx, 'n', 7.5, 'p').type).toBe('matchNone');
    expect(exactQuery(ctx, 'nope', 'x', 'p').type).toBe('matchNone');
    expect(anyOfQuery(ctx, 'n', [1, 2], 'p').type).toBe('leaf');
    expect(anyOfQuery(ctx, 'n', [1.5], 'p').type).toBe('matchNone');
  });

  it('reads long and date values', () => {
    expect(longTerm('n', '12', 'p')).toBe(12);
    expect(longTerm('n', 1.5, 'p')).toBeNull();
    expect(() => longTerm('n', 'x', 'p')).toThrow('is not a valid long value for field "n" at p');
    expect(() => longTerm('n', 1e20, 'p')).toThrow('out of range');
    expect(dateBound(ctx, 'now/d', false, 'p')).toBe(Date.parse('2024-03-15T00:00:00Z'));
    expect(dateBound(ctx, 12.7, false, 'p')).toBe(12);
    expect(() => dateBound(ctx, true, false, 'p')).toThrow('is not a date');
  });
});
