/**
 * What a live subscription filters on: the query DSL (`query`), Koncorde filters (`filters`, the way
 * Kuzzle clients write them), or nothing (every change the subscriber may see).
 * - Raw WebSocket `realtime:subscribe`: the body. `{query: …}` is the query DSL; any other non-empty
 *   object is Koncorde filters (`realtime.subscribe('entity', 'countries', {equals: {code: 'FR'}})`
 *   sends `body: {equals: …}`); `{}` or no body matches everything.
 * - GraphQL `entityChanged(query:, filters:)`: one or the other, not both.
 */
import { isPlainObject } from '../args';
import { fail, ok, type Result } from '../errors';
import type { QueryDsl } from '../../store/port';

export interface SubscriptionFilter {
  query?: QueryDsl;
  filters?: Record<string, unknown>;
}

const given = (v: unknown): boolean => v !== undefined && v !== null;

function queryOf(query: unknown): Result<SubscriptionFilter> {
  if (!given(query)) return ok({});
  if (!isPlainObject(query)) return fail('services.storage.invalid_search_query', { reason: '"query" must be an object' });
  return ok({ query: query as QueryDsl });
}

/** The body of a raw WebSocket subscribe. */
export function subscriptionFilterOfBody(body: unknown): Result<SubscriptionFilter> {
  if (!given(body)) return ok({});
  if (!isPlainObject(body)) return fail('api.assert.invalid_type', { name: 'body', expected: 'a JSON object: Koncorde filters, or {query: <query DSL>}' });
  if (Object.prototype.hasOwnProperty.call(body, 'query')) return queryOf(body.query);
  return ok(Object.keys(body).length === 0 ? {} : { filters: body });
}

/** The arguments of GraphQL's entityChanged. */
export function subscriptionFilterOfArgs(query: unknown, filters: unknown): Result<SubscriptionFilter> {
  if (given(query) && given(filters)) {
    return fail('api.assert.invalid_argument', { name: 'filters', reason: 'give either query (the query DSL) or filters (Koncorde filters), not both' });
  }
  if (!given(filters)) return queryOf(query);
  if (!isPlainObject(filters)) return fail('api.assert.invalid_type', { name: 'filters', expected: 'a JSON object (Koncorde filters)' });
  return ok(Object.keys(filters).length === 0 ? {} : { filters });
}
