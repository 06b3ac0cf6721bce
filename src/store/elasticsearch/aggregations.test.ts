import { parseAggregations } from '../embedded/engine/aggregations/parse';
import { aggregationsReceived, aggsToSend } from './aggregations';

const tenant = { terms: { allowTenantIds: ['acme', '*'] } };

describe('aggregations sent to Elasticsearch', () => {
  it('sends every aggregation as given, but global as a filter on the caller visibility', () => {
    const aggs = { r: { terms: { field: 'region.keyword' }, aggs: { a: { avg: { field: 'pop' } } } }, all: { global: {}, aggs: { n: { value_count: { field: 'pop' } } }, meta: { m: 1 } } };
    expect(aggsToSend(aggs, tenant)).toEqual({
      r: { terms: { field: 'region.keyword' }, aggs: { a: { avg: { field: 'pop' } } } },
      all: { filter: tenant, aggs: { n: { value_count: { field: 'pop' } } }, meta: { m: 1 } },
    });
    expect(aggsToSend({ all: { global: {} } }, null)).toEqual({ all: { filter: { match_all: {} } } });
  });
});

describe('aggregations received from Elasticsearch', () => {
  it('shapes top_hits hits as the port hits, at any depth, and keeps the rest', () => {
    const nodes = parseAggregations({ r: { terms: { field: 'x' }, aggs: { f: { filter: { match_all: {} }, aggs: { t: { top_hits: {} } } } } }, k: { range: { field: 'p', keyed: true, ranges: [{ key: 'a', to: 1 }] }, aggs: { t: { top_hits: { _source: false } } } } });
    const hit = { _index: 'gw-countries', _id: '1', _score: 1.5, _source: { name: 'x' } };
    const received = aggregationsReceived(nodes, {
      r: { doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets: [{ key: 'x', doc_count: 1, f: { doc_count: 1, t: { hits: { total: { value: 1, relation: 'eq' }, max_score: 1.5, hits: [hit] } } } }] },
      k: { buckets: { a: { to: 1, doc_count: 1, t: { hits: { total: { value: 1, relation: 'eq' }, max_score: null, hits: [{ _index: 'gw-countries', _id: '2', _score: null, sort: [3] }] } } } } },
    });
    expect((received as any).r.buckets[0].f.t.hits.hits).toEqual([{ _id: '1', _score: 1.5, _source: { name: 'x' } }]);
    expect((received as any).k.buckets.a.t.hits.hits).toEqual([{ _id: '2', _score: null, _source: {}, sort: [3] }]);
    expect(aggregationsReceived(parseAggregations({ c: { cardinality: { field: 'x' } } }), undefined, { c: { cardinality: { field: 'x' } } })).toEqual({ c: { value: 0 } });
  });
});
