/** What a subscription filters on: the raw WebSocket body, or GraphQL's query/filters arguments. */
import { subscriptionFilterOfArgs, subscriptionFilterOfBody } from './subscriptionFilter';

describe('subscriptionFilterOfBody (raw WebSocket realtime:subscribe)', () => {
  it('no body, null or {} matches everything', () => {
    for (const body of [undefined, null, {}]) expect(subscriptionFilterOfBody(body)).toEqual({ ok: true, value: {} });
  });

  it('a body with query is the query DSL; an empty or null query matches everything', () => {
    expect(subscriptionFilterOfBody({ query: { term: { code: 'FR' } } })).toEqual({ ok: true, value: { query: { term: { code: 'FR' } } } });
    expect(subscriptionFilterOfBody({ query: null })).toEqual({ ok: true, value: {} });
    expect(subscriptionFilterOfBody({ query: {} })).toEqual({ ok: true, value: { query: {} } });
  });

  it('any other body is Koncorde filters, as Kuzzle SDKs send them', () => {
    expect(subscriptionFilterOfBody({ equals: { code: 'FR' } })).toEqual({ ok: true, value: { filters: { equals: { code: 'FR' } } } });
    // (an Elasticsearch clause is then an unknown Koncorde keyword: koncordeFilters.ts says so)
    expect(subscriptionFilterOfBody({ term: { code: 'FR' } })).toEqual({ ok: true, value: { filters: { term: { code: 'FR' } } } });
  });

  it('refuses a body that is not an object, and a query that is not one', () => {
    for (const body of [[], 'x', 3, true]) expect(subscriptionFilterOfBody(body)).toMatchObject({ ok: false, error: { id: 'api.assert.invalid_type' } });
    expect(subscriptionFilterOfBody({ query: 'x' })).toMatchObject({ ok: false, error: { id: 'services.storage.invalid_search_query' } });
  });

  it('a key named __proto__ is a filter keyword like any other (never a prototype)', () => {
    const body = JSON.parse('{"__proto__": {"x": 1}}');
    const result = subscriptionFilterOfBody(body);
    expect(result).toEqual({ ok: true, value: { filters: body } });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('subscriptionFilterOfArgs (GraphQL entityChanged)', () => {
  it('neither: everything; query: the query DSL; filters: Koncorde filters ({} everything)', () => {
    expect(subscriptionFilterOfArgs(undefined, null)).toEqual({ ok: true, value: {} });
    expect(subscriptionFilterOfArgs({ match: { name: 'x' } }, undefined)).toEqual({ ok: true, value: { query: { match: { name: 'x' } } } });
    expect(subscriptionFilterOfArgs(null, { exists: 'code' })).toEqual({ ok: true, value: { filters: { exists: 'code' } } });
    expect(subscriptionFilterOfArgs(null, {})).toEqual({ ok: true, value: {} });
  });

  it('both given is a 400 naming them', () => {
    const both = subscriptionFilterOfArgs({ match_all: {} }, { exists: 'code' });
    expect(both).toMatchObject({ ok: false, error: { id: 'api.assert.invalid_argument', status: 400 } });
    if (!both.ok) expect(both.error.message).toContain('either query');
  });

  it('refuses filters or a query that are not objects', () => {
    expect(subscriptionFilterOfArgs(null, [1])).toMatchObject({ ok: false, error: { id: 'api.assert.invalid_type' } });
    expect(subscriptionFilterOfArgs('x', null)).toMatchObject({ ok: false, error: { id: 'services.storage.invalid_search_query' } });
  });
});
