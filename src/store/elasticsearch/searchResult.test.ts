import { toSearchResult } from './searchResult';

describe('toSearchResult', () => {
  it("passes Elasticsearch's timed_out on", () => {
    expect(toSearchResult({ timed_out: true, hits: { total: { value: 3 }, hits: [] } })).toEqual({ hits: [], total: 3, timed_out: true });
    expect(toSearchResult({ timed_out: false, hits: { total: { value: 3 }, hits: [] } })).toEqual({ hits: [], total: 3 });
  });

  it('keeps order, scores and sort values, and reads the exact total', () => {
    const result = toSearchResult({
      hits: {
        total: { value: 12345, relation: 'eq' },
        hits: [
          { _id: 'kr', _score: 2.5, _source: { name: 'South Korea' }, sort: [2.5, 'kr'] },
          { _id: 'kp', _score: 1.25, _source: { name: 'North Korea' }, sort: [1.25, 'kp'] },
        ],
      },
    });
    expect(result).toEqual({
      total: 12345,
      hits: [
        { _id: 'kr', _score: 2.5, _source: { name: 'South Korea' }, sort: [2.5, 'kr'] },
        { _id: 'kp', _score: 1.25, _source: { name: 'North Korea' }, sort: [1.25, 'kp'] },
      ],
    });
  });

  it('answers a null score when sorted by fields, and no _source for _source: false', () => {
    const result = toSearchResult({ hits: { total: { value: 1 }, hits: [{ _id: 'a', _score: null }] } });
    expect(result).toEqual({ total: 1, hits: [{ _id: 'a', _score: null }] });
    expect(result.hits[0]).not.toHaveProperty('_source');
    expect(result.hits[0]).not.toHaveProperty('sort');
  });

  it("keeps each hit's highlight, after _source and before sort", () => {
    const result = toSearchResult({ hits: { total: { value: 1 }, hits: [{ _id: 'za', _score: 1, _source: { name: 'South Africa' }, highlight: { name: ['<em>South</em> Africa'] }, sort: [1] }] } });
    expect(result.hits[0]).toEqual({ _id: 'za', _score: 1, _source: { name: 'South Africa' }, highlight: { name: ['<em>South</em> Africa'] }, sort: [1] });
    expect(Object.keys(result.hits[0])).toEqual(['_id', '_score', '_source', 'highlight', 'sort']);
  });

  it('reads a plain number total (rest_total_hits_as_int)', () => {
    expect(toSearchResult({ hits: { total: 3, hits: [] } }).total).toBe(3);
  });
});
