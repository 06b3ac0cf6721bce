import { InvalidQueryError, type SearchRequest } from '../port';
import { checkCountQuery, checkSearchRequest } from './queryCheck';

const req = (extra: Partial<SearchRequest> & Record<string, unknown> = {}): SearchRequest => ({ from: 0, size: 10, ...extra }) as SearchRequest;
const refusal = (fn: () => void): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidQueryError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('checkSearchRequest (before anything is sent)', () => {
  it('accepts the supported DSL, sorts, _source and search_after', () => {
    expect(() =>
      checkSearchRequest(
        req({
          query: { bool: { must: [{ match: { name: 'south' } }], filter: [{ range: { modified: { gte: '2020-01-01' } } }] } },
          sort: [{ 'name.keyword': 'asc' }, '_score'],
          search_after: ['a', 1],
          _source: ['name'],
        }),
        { terms: { allowTenantIds: ['acme', '*'] } },
      ),
    ).not.toThrow();
  });

  it('refuses a member outside the allow-list', () => {
    expect(refusal(() => checkSearchRequest(req({ suggest: {} }), null))).toContain('unsupported body key "suggest"');
  });

  it('checks aggs with the engine parser (same refusals as the embedded store)', () => {
    expect(() => checkSearchRequest(req({ aggs: { r: { terms: { field: 'region.keyword' } } } }), null)).not.toThrow();
    expect(refusal(() => checkSearchRequest(req({ aggs: { r: { significant_terms: { field: 'x' } } } }), null))).toContain('Unknown aggregation type [significant_terms]');
    expect(refusal(() => checkSearchRequest(req({ aggs: { r: { terms: { field: 'x', min_doc_count: 0 } } } }), null))).toContain('min_doc_count');
  });

  it.each([
    [{ more_like_this: { like: 'x' } }, 'more_like_this'],
    [{ percolate: { field: 'q' } }, 'percolate'],
    [{ query_string: { query: 'name:(x' } }, 'Cannot parse'],
    [{ bool: { must: [{ terms_set: {} }] } }, 'terms_set'],
    [{ bool: { filter: [{ script: { script: 'doc' } }] } }, 'script'],
  ])('refuses the query %p, naming %s, like the embedded store', (query, name) => {
    expect(refusal(() => checkSearchRequest(req({ query }), null))).toContain(name);
  });

  it('refuses scripted sorts and bad _source', () => {
    expect(refusal(() => checkSearchRequest(req({ sort: [{ _script: {} }] }), null))).toContain('_script');
    expect(refusal(() => checkSearchRequest(req({ _source: 5 }), null))).toContain('_source');
  });

  it('applies the rules of search_after', () => {
    expect(refusal(() => checkSearchRequest(req({ search_after: [1] }), null))).toContain('requires a sort');
    expect(refusal(() => checkSearchRequest(req({ sort: ['id'], search_after: [1, 2] }), null))).toContain('search_after has 2 value(s) but sort has 1');
    expect(refusal(() => checkSearchRequest(req({ from: 5, sort: ['id'], search_after: ['a'] }), null))).toContain('from must be 0');
  });

  it('refuses a bad window', () => {
    expect(refusal(() => checkSearchRequest(req({ from: -1 }), null))).toContain('from');
    expect(refusal(() => checkSearchRequest(req({ size: 1.5 }), null))).toContain('size');
  });

  it('checks counts too', () => {
    expect(() => checkCountQuery(undefined, null)).not.toThrow();
    expect(refusal(() => checkCountQuery({ more_like_this: { like: 'x' } }, null))).toContain('more_like_this');
  });
});
