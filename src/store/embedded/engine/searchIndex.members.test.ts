import { InvalidQueryError, SearchRequest } from '../../port';
import { SearchIndex } from './searchIndex';

// tenants a and b; the visibility filter of tenant a: its own and shared ('*') entities
const DOCS: [string, Record<string, unknown>][] = [
  ['fr', { name: 'France', region: 'Europe', population: 68, founded: '1958-10-04', rate: 1.1, tenants: ['a'] }],
  ['de', { name: 'Germany', region: 'Europe', population: 84, founded: '1949-05-23', rate: 2.5, tenants: ['*'] }],
  ['za', { name: 'South Africa', region: 'Africa', population: 60, founded: '1910-05-31', rate: 0.5, tenants: ['a'] }],
  ['ng', { name: 'Nigeria', region: 'Africa', population: 220, founded: '1960-10-01', rate: 3.5, tenants: ['b'] }],
  ['eg', { name: 'Egypt Africa', region: 'Africa', population: 110, founded: '1953-06-18', rate: 4, tenants: ['b'] }],
  ['xx', { name: 'Nowhere', tenants: ['a'] }],
];
const index = new SearchIndex({ keyword: ['tenants'] });
for (const [id, source] of DOCS) index.put(id, source);
const TENANT_A = { terms: { tenants: ['a', '*'] } };

const search = (request: Partial<SearchRequest>, filter: Record<string, unknown> | null = TENANT_A) => index.search({ from: 0, size: 10, ...request }, filter);
const ids = (request: Partial<SearchRequest>, filter: Record<string, unknown> | null = TENANT_A) => search(request, filter).hits.map((h) => h._id);
const refused = (request: Partial<SearchRequest>) => {
  try {
    search(request);
  } catch (err) {
    if (err instanceof InvalidQueryError) return err.message;
    throw err;
  }
  throw new Error('not refused');
};

describe('SearchIndex: _source, stored_fields, fields, docvalue_fields', () => {
  it('leaves _source out with _source: false and stored_fields', () => {
    for (const request of [{ _source: false }, { stored_fields: '_none_' }, { stored_fields: ['name'] }]) {
      const [hit] = search({ ...request, size: 1 }).hits;
      expect(hit).not.toHaveProperty('_source');
      expect(Object.keys(hit)).toEqual(['_id', '_score']);
    }
    expect(search({ stored_fields: ['name'], _source: ['name'], size: 1 }).hits[0]._source).toEqual({ name: 'France' });
    expect(search({ _source: { includes: ['na*'], excludes: ['name'] }, size: 1 }).hits[0]._source).toEqual({});
  });

  it('answers fields as their mapping reads them, multi-fields and date formats included', () => {
    const [fr] = search({ query: { ids: { values: ['fr'] } }, fields: ['name*', 'population', { field: 'founded', format: 'dd/MM/yyyy' }, 'rate'], _source: false }).hits;
    expect(fr.fields).toEqual({ name: ['France'], 'name.keyword': ['France'], population: [68], founded: ['04/10/1958'], rate: [1.1] });
    const [de] = search({ query: { ids: { values: ['de'] } }, docvalue_fields: ['tenants', 'founded', 'rate', 'region.keyword'] }).hits;
    expect(de.fields).toEqual({ tenants: ['*'], founded: ['1949-05-23T00:00:00.000Z'], rate: [2.5], 'region.keyword': ['Europe'] });
    expect(de._source).toBeDefined();
  });

  it('refuses doc values of a text field, a format on a number, unknown parameters', () => {
    expect(refused({ docvalue_fields: ['name'] })).toMatch(/fielddata is unsupported on fields of type \[text\]/);
    expect(refused({ fields: [{ field: 'population', format: 'yyyy' }] })).toMatch(/does not support custom formats/);
    expect(refused({ fields: [{ field: 'name', include_unmapped: true }] })).toMatch(/unsupported parameter "include_unmapped"/);
    expect(refused({ stored_fields: '_none_', _source: true })).toMatch(/cannot be disabled if \[_source\] is requested/);
  });
});

describe('SearchIndex: track_total_hits, terminate_after, min_score, post_filter', () => {
  it('counts exactly, not at all, or up to a bound', () => {
    expect(search({}).total).toBe(4);
    expect(search({ track_total_hits: false })).toMatchObject({ total: -1 });
    expect(search({ track_total_hits: false }).hits.map((h) => h._id)).toEqual(ids({}));
    expect(search({ track_total_hits: 2 })).toMatchObject({ total: 2, total_relation: 'gte' });
    expect(search({ track_total_hits: 4 })).toMatchObject({ total: 4, total_relation: 'eq' });
    expect(search({ query: { match: { name: 'africa' } }, track_total_hits: 0 })).toMatchObject({ total: 0, total_relation: 'gte' });
    expect(search({ track_total_hits: true })).not.toHaveProperty('total_relation');
  });

  it("never counts another tenant's entities, tracked or not", () => {
    expect(search({ track_total_hits: 100 })).toMatchObject({ total: 4, total_relation: 'eq' });
    expect(ids({ track_total_hits: false, size: 100 }).sort()).toEqual(['de', 'fr', 'xx', 'za']);
  });

  it('stops after terminate_after hits, with terminated_early', () => {
    const result = search({ terminate_after: 2, aggs: { regions: { terms: { field: 'region.keyword' } } } });
    expect(result).toMatchObject({ total: 2, terminated_early: true });
    expect(result.hits.map((h) => h._id)).toEqual(['fr', 'de']);
    // the aggregations saw the documents before the hit that stopped collection
    expect(result.aggregations).toMatchObject({ regions: { buckets: [{ key: 'Europe', doc_count: 2 }] } });
    expect(search({ terminate_after: 10 })).toMatchObject({ total: 4, terminated_early: false });
  });

  it('leaves out hits scoring under min_score, from the total and the aggregations', () => {
    const all = search({ query: { match: { name: 'south africa' } } });
    const [best] = all.hits;
    const result = search({ query: { match: { name: 'south africa' } }, min_score: (best._score as number) - 0.0001, aggs: { r: { terms: { field: 'region.keyword' } } } });
    expect(result.hits.map((h) => h._id)).toEqual([best._id]);
    expect(result.total).toBe(1);
    expect(result.aggregations).toMatchObject({ r: { buckets: [{ key: 'Africa', doc_count: 1 }] } });
  });

  it('post_filter filters the hits and the total, not the aggregations, and never widens the tenant filter', () => {
    const result = search({ post_filter: { term: { 'region.keyword': 'Africa' } }, aggs: { r: { terms: { field: 'region.keyword' } } } });
    expect(result.hits.map((h) => h._id)).toEqual(['za']);
    expect(result.total).toBe(1);
    expect(result.aggregations).toMatchObject({ r: { buckets: [{ key: 'Europe', doc_count: 2 }, { key: 'Africa', doc_count: 1 }] } });
    expect(ids({ post_filter: { bool: { should: [{ match_all: {} }, { terms: { tenants: ['b'] } }] } }, size: 100 })).not.toContain('ng');
  });
});

describe('SearchIndex: collapse', () => {
  it('answers one hit per value, with the value in fields and inner hits', () => {
    const result = search({ query: { match: { name: 'africa germany france' } }, collapse: { field: 'region.keyword', inner_hits: { name: 'more', size: 5, sort: [{ population: 'desc' }] } } });
    expect(result.total).toBe(3);
    const [first, second] = result.hits;
    expect(first.fields?.['region.keyword']).toHaveLength(1);
    const europe = result.hits.find((h) => h.fields?.['region.keyword'][0] === 'Europe');
    expect(europe?.inner_hits?.more.hits.total).toBe(2);
    expect(europe?.inner_hits?.more.hits.hits.map((h) => h._id)).toEqual(['de', 'fr']);
    expect(second).toBeDefined();
    // the group of Africa holds the caller's entity only
    const africa = result.hits.find((h) => h.fields?.['region.keyword'][0] === 'Africa');
    expect(africa?.inner_hits?.more.hits.hits.map((h) => h._id)).toEqual(['za']);
  });

  it('collapses on numbers, missing values together, in sort order', () => {
    const result = search({ sort: [{ population: 'asc' }], collapse: { field: 'population' } });
    expect(result.hits.map((h) => h.fields?.population[0])).toEqual([60, 68, 84, null]);
  });

  it('refuses text, unmapped and multi-valued fields, and unsupported parameters', () => {
    expect(refused({ collapse: { field: 'name' } })).toBe('collapse is not supported for the field [name] of the type [text]');
    expect(refused({ collapse: { field: 'nope' } })).toBe('no mapping found for `nope` in order to collapse on');
    expect(refused({ collapse: { field: 'region.keyword', max_concurrent_group_searches: 4 } })).toMatch(/unsupported collapse parameter/);
    expect(refused({ collapse: { field: 'region.keyword', inner_hits: { size: 101 } } })).toMatch(/Inner result window is too large/);
    const multi = new SearchIndex({ keyword: ['tags'] });
    multi.put('a', { tags: ['x', 'y'] });
    expect(() => multi.search({ from: 0, size: 10, collapse: { field: 'tags' } })).toThrow('failed to collapse tags, the collapse field must be single valued');
  });
});
