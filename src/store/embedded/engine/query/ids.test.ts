import { SearchIndex } from '../searchIndex';
import { indexAll } from '../testing';

const index = indexAll(new SearchIndex(), [
  ['a', { n: 1 }],
  ['b', { n: 2 }],
  ['1', { n: 3 }],
]);
const hits = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => [h._id, h._score]);

describe('ids', () => {
  it('matches documents by _id, constant-score, in index order', () => {
    expect(hits({ ids: { values: ['b', 'a', 'zz'] } })).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    expect(hits({ ids: { values: [1], boost: 2 } })).toEqual([['1', 2]]);
    expect(hits({ ids: { values: [] } })).toEqual([]);
  });

  it('rejects malformed values', () => {
    expect(() => hits({ ids: {} })).toThrow('needs "values"');
    expect(() => hits({ ids: { values: 'a' } })).toThrow('must be an array');
    expect(() => hits({ ids: { values: [{}] } })).toThrow('query.ids.values[0]');
  });
});
