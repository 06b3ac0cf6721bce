import { InvertedIndex } from '../invertedIndex';
import { IndexMapping } from '../mapping';
import { combinedFieldAsBoolean, combinedFieldMatches, combinedFreq, combinedNorm } from './combinedField';
import { CombinedFieldQuery } from './query';

describe('CombinedFieldQuery', () => {
  const index = new InvertedIndex();
  const mapping = new IndexMapping();
  index.addSource('a', { title: 'fox fox', body: 'the quick fox' }, mapping);
  index.addSource('b', { title: 'dog' }, mapping);
  const query: CombinedFieldQuery = { type: 'combinedField', fields: [{ field: 'body', weight: 1 }, { field: 'title', weight: 2 }], terms: ['fox'] };

  it('sums weighted frequencies and weighted lengths (rounded, encoded as a norm byte)', () => {
    expect(combinedFreq(query, index, 0)).toBe(1 + 2 * 2);
    expect(combinedNorm(query, index, 0)).toBe(3 + 2 * 2);
    expect(combinedNorm({ ...query, fields: [{ field: 'body', weight: 1.25 }, { field: 'title', weight: 1 }] }, index, 0)).toBe(Math.round(3 * 1.25 + 2));
  });

  it('matches the documents holding a term in any field; no scorer when no pair is in the index', () => {
    expect(combinedFieldMatches(query, index, 1, true)?.docList()).toEqual(Int32Array.of(0));
    expect(combinedFieldMatches({ ...query, terms: ['cat'] }, index, 1, true)).toBeNull();
    expect(combinedFieldAsBoolean(query).clauses.map((c) => c.query)).toEqual([
      { type: 'term', field: 'body', term: 'fox' },
      { type: 'term', field: 'title', term: 'fox' },
    ]);
  });
});
