import { aggregations } from './testing';

describe('top_hits', () => {
  it('answers the best hits of each bucket by score, shaped as search hits', () => {
    const r = aggregations({ r: { terms: { field: 'region.keyword', size: 1 }, aggs: { top: { top_hits: { size: 1, _source: ['name'] } } } } }, { match: { name: 'peru' } }).r;
    expect(r.buckets[0].key).toBe('Americas');
    const hits = r.buckets[0].top.hits;
    expect(hits.total).toEqual({ value: 1, relation: 'eq' });
    expect(hits.hits).toEqual([{ _id: 'c4', _score: hits.max_score, _source: { name: 'Peru' } }]);
    expect(hits.max_score).toBeGreaterThan(0);
  });

  it('sorts on fields (no scores then), pages with from, filters _source', () => {
    const r = aggregations({ t: { top_hits: { sort: [{ pop: 'desc' }], from: 1, size: 2, _source: false } } }).t;
    expect(r.hits).toEqual({
      total: { value: 5, relation: 'eq' },
      max_score: null,
      hits: [
        { _id: 'c0', _score: null, _source: {}, sort: [68] },
        { _id: 'c1', _score: null, _source: {}, sort: [48] },
      ],
    });
  });

  it('refuses a window over 100, unknown parameters and sorts on text', () => {
    expect(() => aggregations({ t: { top_hits: { from: 50, size: 51 } } })).toThrow(/from \+ size must be less than or equal to: \[100\] but was \[101\]/);
    expect(() => aggregations({ t: { top_hits: { explain: true } } })).toThrow(/unknown field \[explain\]/);
    expect(() => aggregations({ t: { top_hits: { sort: ['name'] } } })).toThrow(/cannot be sorted on/);
  });
});
