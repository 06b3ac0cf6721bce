import { findScript, parseSearchRequest } from './searchRequest';

const errorId = (r: ReturnType<typeof parseSearchRequest>) => (r.ok ? undefined : r.error.id);

describe('parseSearchRequest', () => {
  it('defaults to the first 10 of everything', () => {
    expect(parseSearchRequest({}, {})).toEqual({ ok: true, value: { from: 0, size: 10 } });
    expect(parseSearchRequest(undefined, {})).toEqual({ ok: true, value: { from: 0, size: 10 } });
  });

  it('takes from/size from the arguments over the body', () => {
    const r = parseSearchRequest({ from: 5, size: 5, query: { match_all: {} } }, { from: '20', size: '3' });
    expect(r).toEqual({ ok: true, value: { from: 20, size: 3, query: { match_all: {} } } });
  });

  it.each([
    [{ size: 'abc' }, 'api.assert.invalid_type'],
    [{ from: '-1' }, 'api.assert.invalid_type'],
    [{ from: '1.5' }, 'api.assert.invalid_type'],
    [{ from: '9995', size: '10' }, 'services.storage.get_limit_exceeded'],
  ])('refuses arguments %p with %s', (args, id) => {
    expect(errorId(parseSearchRequest({}, args))).toBe(id);
  });

  it('allows from + size = 10000 exactly', () => {
    expect(parseSearchRequest({}, { from: '9990', size: '10' }).ok).toBe(true);
  });

  it.each([
    [{ track_scores: true }, 'track_scores'],
    [{ aggs: { a: { terms: { script: 'doc.x' } } } }, 'aggs.a.terms.script'],
    [{ query: { bool: { must: [{ script: { script: 'x' } }] } } }, 'query.bool.must[0].script'],
    [{ sort: [{ _script: {} }], query: { function_score: { script_score: {} } } }, 'script_score'],
  ])('refuses %p naming %s', (body, name) => {
    const r = parseSearchRequest(body, {});
    expect(errorId(r)).toBe('services.storage.invalid_search_query');
    if (!r.ok) expect(r.error.message).toContain(name);
  });

  it('passes highlight on to the store, and refuses one that is not an object', () => {
    const highlight = { fields: { name: {} } };
    expect(parseSearchRequest({ highlight }, {})).toEqual({ ok: true, value: { from: 0, size: 10, highlight } });
    const r = parseSearchRequest({ highlight: ['name'] }, {});
    expect(errorId(r)).toBe('services.storage.invalid_search_query');
    if (!r.ok) expect(r.error.message).toContain('"highlight" must be an object');
  });

  it('passes aggs (or aggregations) on to the store, and refuses both at once or a non-object', () => {
    const aggs = { regions: { terms: { field: 'region.keyword' } } };
    expect(parseSearchRequest({ aggs, size: 0 }, {})).toEqual({ ok: true, value: { from: 0, size: 0, aggs } });
    expect(parseSearchRequest({ aggregations: aggs }, {})).toEqual({ ok: true, value: { from: 0, size: 10, aggs } });
    const both = parseSearchRequest({ aggs, aggregations: aggs }, {});
    expect(errorId(both)).toBe('services.storage.invalid_search_query');
    if (!both.ok) expect(both.error.message).toContain('Found two aggregation definitions');
    expect(errorId(parseSearchRequest({ aggs: [] }, {}))).toBe('services.storage.invalid_search_query');
  });

  it('refuses a body that is not an object', () => {
    expect(errorId(parseSearchRequest([], {}))).toBe('api.assert.invalid_type');
    expect(errorId(parseSearchRequest('q', {}))).toBe('api.assert.invalid_type');
  });
});

describe('findScript', () => {
  it('names the first script key, depth first in document order', () => {
    expect(findScript({ a: [{ b: 1 }, { c: { script: 1 } }], script_fields: {} }, '')).toBe('a[1].c.script');
    expect(findScript({ query: { bool: { must: [{ x: 1 }] } } }, 'body')).toBeUndefined();
    expect(findScript([{ script_score: null }], 'sort')).toBe('sort[0].script_score');
  });

  it('walks 200,000 levels without recursion', () => {
    let deep: unknown = { script: 'x' };
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findScript(deep, '')).toBe(`${'[0]'.repeat(200_000)}.script`);
    let clean: unknown = 1;
    for (let i = 0; i < 200_000; i++) clean = { bool: { must: [clean] } };
    expect(parseSearchRequest({ query: clean }, {}).ok).toBe(true);
  });
});
