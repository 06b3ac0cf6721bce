import { SearchIndex } from '../searchIndex';
import { indexAll } from '../testing';

const index = indexAll(new SearchIndex(), [
  ['a', { name: 'x', tags: ['t'], modifier: { id: 'u1' } }],
  ['b', { name: '', long: 'y'.repeat(300), modifier: { slug: 's' } }],
  ['c', { other: 1, tags: [], nothing: null }],
]);
const ids = (query: Record<string, unknown>) => index.search({ query, from: 0, size: 10 }).hits.map((h) => h._id);

describe('exists', () => {
  it('matches documents with a value, empty strings included', () => {
    expect(ids({ exists: { field: 'name' } })).toEqual(['a', 'b']);
    expect(ids({ exists: { field: 'tags' } })).toEqual(['a']);
    expect(ids({ exists: { field: 'nothing' } })).toEqual([]);
  });

  it('does not see keyword values above ignore_above', () => {
    expect(ids({ exists: { field: 'long' } })).toEqual(['b']);
    expect(ids({ exists: { field: 'long.keyword' } })).toEqual([]);
  });

  it('resolves patterns and objects', () => {
    expect(ids({ exists: { field: 'modifier' } })).toEqual(['a', 'b']);
    expect(ids({ exists: { field: 'modifier.i*' } })).toEqual(['a']);
    expect(ids({ exists: { field: '_id' } })).toEqual(['a', 'b', 'c']);
    expect(ids({ exists: { field: 'unknown' } })).toEqual([]);
  });

  it('scores the boost', () => {
    expect(index.search({ query: { exists: { field: 'modifier', boost: 3 } }, from: 0, size: 10 }).hits.map((h) => h._score)).toEqual([3, 3]);
  });

  it('rejects a missing or non-string field', () => {
    expect(() => ids({ exists: {} })).toThrow('[exists] at query.exists needs a "field"');
    expect(() => ids({ exists: { field: 1 } })).toThrow('must be a string');
  });
});
