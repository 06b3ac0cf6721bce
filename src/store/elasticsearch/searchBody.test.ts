import { buildCountBody, buildSearchBody, restrictedQuery } from './searchBody';

const tenant = { terms: { allowTenantIds: ['acme', '*'] } };

describe('search bodies', () => {
  it('adds the tenant filter as a bool.filter around the query, and track_total_hits: true', () => {
    expect(buildSearchBody({ from: 20, size: 5, query: { match: { name: 'south' } } }, tenant)).toEqual({
      from: 20,
      size: 5,
      track_total_hits: true,
      query: { bool: { must: [{ match: { name: 'south' } }], filter: [tenant] } },
    });
  });

  it('sends the time budget in milliseconds and pattern queries unchanged', () => {
    const regexp = { regexp: { name: { value: 'fr(a|e).*', flags: 'ALL', case_insensitive: true, max_determinized_states: 5000 } } };
    expect(buildSearchBody({ from: 0, size: 1, query: regexp, timeout: 1500 }, null)).toEqual({ from: 0, size: 1, track_total_hits: true, query: regexp, timeout: '1500ms' });
    expect(() => buildSearchBody({ from: 0, size: 1, timeout: -3 }, null)).toThrow('timeout');
  });

  it('filters match_all when there is no query', () => {
    expect(buildSearchBody({ from: 0, size: 10 }, tenant).query).toEqual({ bool: { must: [{ match_all: {} }], filter: [tenant] } });
  });

  it('sends the query as it is for admins (no filter), and no query at all for {}', () => {
    expect(buildSearchBody({ from: 0, size: 10, query: { term: { code: 'FR' } } }, null)).toEqual({ from: 0, size: 10, track_total_hits: true, query: { term: { code: 'FR' } } });
    expect(buildSearchBody({ from: 0, size: 10 }, null)).toEqual({ from: 0, size: 10, track_total_hits: true });
  });

  it('passes sort, search_after and _source through (a sort string as a one-element array)', () => {
    expect(buildSearchBody({ from: 0, size: 2, sort: [{ id: 'asc' }], search_after: ['fr'], _source: ['name'] }, null)).toEqual({
      from: 0,
      size: 2,
      track_total_hits: true,
      sort: [{ id: 'asc' }],
      search_after: ['fr'],
      _source: ['name'],
    });
    expect(buildSearchBody({ from: 0, size: 2, sort: 'id' }, null).sort).toEqual(['id']);
  });

  it('refuses, before building, what must not be sent', () => {
    expect(() => buildSearchBody({ from: 0, size: 10, query: { script: { script: 'x' } } }, null)).toThrow('script');
  });

  it("sends highlight as it is for admins, and under a filter with the caller's query as highlight_query", () => {
    const highlight = { pre_tags: ['<b>'], post_tags: ['</b>'], fields: { name: { number_of_fragments: 0 } } };
    const query = { match: { name: 'south' } };
    expect(buildSearchBody({ from: 0, size: 10, query, highlight }, null).highlight).toEqual(highlight);
    expect(buildSearchBody({ from: 0, size: 10, query, highlight }, tenant).highlight).toEqual({ ...highlight, highlight_query: query });
    expect(buildSearchBody({ from: 0, size: 10, highlight }, tenant).highlight).toEqual({ ...highlight, highlight_query: { match_all: {} } });
    // the caller's own highlight_query is kept
    const own = { ...highlight, highlight_query: { match: { name: 'north' } } };
    expect(buildSearchBody({ from: 0, size: 10, query, highlight: own }, tenant).highlight).toEqual(own);
  });

  it('refuses a highlight the engine refuses, before anything is sent', () => {
    expect(() => buildSearchBody({ from: 0, size: 10, highlight: { fields: { name: { type: 'fvh' } } } }, null)).toThrow('highlighter type [fvh] is not supported');
    expect(() => buildSearchBody({ from: 0, size: 10, highlight: { highlight_query: { script: {} } } }, null)).toThrow();
  });

  it('builds count bodies the same way', () => {
    expect(buildCountBody({ match: { name: 'x' } }, tenant)).toEqual({ query: { bool: { must: [{ match: { name: 'x' } }], filter: [tenant] } } });
    expect(buildCountBody(undefined, null)).toEqual({});
    expect(restrictedQuery(undefined, tenant)).toEqual({ bool: { must: [{ match_all: {} }], filter: [tenant] } });
  });
});
