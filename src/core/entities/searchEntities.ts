/** document:search (spec 4.1): visible entities of one type, Elasticsearch order and scores, exact total. */
import { fail, ok, toApiError, type Now, type Result } from '../errors';
import { defineOperation } from '../operation';
import { visibilityFilter, type Principal } from '../principal';
import { parseSearchRequest } from '../search/searchRequest';
import { InvalidQueryError, type SearchRequest, type SearchResult } from '../../store/port';
import type { CoreDeps } from '../deps';
import { PAGE_ARGS, SEARCH_BODY_SCHEMA, SEARCH_ERRORS } from '../search/searchContract';
import { parseAddress } from './address';
import { ADDRESS_ERRORS, ENTITY_SEARCH_RESULT_SCHEMA, EXAMPLE_ENTITY } from './entityContract';
import type { EntityType } from './entityType';

export interface SearchEntitiesInput {
  type: EntityType;
  request: SearchRequest;
}

export const invalidQuery = (err: unknown): Result<never> => {
  if (err instanceof InvalidQueryError) return { ok: false, error: toApiError(err) };
  throw err;
};

/**
 * The search's time budget: its `timeout`, at most SEARCH_TIMEOUT (a longer one is refused, not
 * shortened), else SEARCH_TIMEOUT; set on the request, which both stores honour.
 */
export function withTimeBudget(request: SearchRequest, maxMs: number): Result<SearchRequest> {
  if (request.timeout === undefined) request.timeout = maxMs;
  else if (request.timeout > maxMs) return fail('api.assert.invalid_argument', { name: 'timeout', reason: `${request.timeout} ms is above the gateway's search time budget of ${maxMs} ms (SEARCH_TIMEOUT)` });
  return ok(request);
}

/** A search's answer: the store's, or `{total, aggregations}` alone for a `size: 0` search with aggregations. */
export type SearchAnswer = SearchResult | AggregationsAnswer;

export interface AggregationsAnswer {
  total: number;
  aggregations: Record<string, unknown>;
  timed_out?: true;
}

/** A `size: 0` search with aggregations answers its total and aggregations only (no `hits`). */
export function shapeAnswer(request: SearchRequest, result: SearchResult): SearchAnswer {
  if (request.size !== 0 || request.aggs === undefined) return result;
  const answer: AggregationsAnswer = { total: result.total, aggregations: result.aggregations ?? {} };
  if (result.timed_out === true) answer.timed_out = true;
  return answer;
}

/** At once when the store answers at once (see Now). */
export function searchEntities(deps: CoreDeps, principal: Principal, input: SearchEntitiesInput): Now<Result<SearchAnswer>> {
  const budget = withTimeBudget(input.request, deps.settings.searchTimeoutMs);
  if (!budget.ok) return budget;
  const found = deps.store.entities.search(input.type.collection, input.request, visibilityFilter(principal));
  return found instanceof Promise ? found.then((result) => ok(shapeAnswer(input.request, result)), invalidQuery) : ok(shapeAnswer(input.request, found));
}

export const searchEntitiesOperation = defineOperation<SearchEntitiesInput, SearchAnswer>({
  controller: 'document',
  action: 'search',
  addressesCollection: true,
  contract: {
    summary: 'Search the entities of one type',
    description:
      "The entities of the type visible to the caller's tenant that match the query DSL (Elasticsearch 8), in Elasticsearch's order and with its scores. `total` is exact. A well-formed plural with no entities yet answers an empty page.",
    args: PAGE_ARGS,
    body: {
      required: false,
      schema: SEARCH_BODY_SCHEMA,
      examples: {
        match: { summary: 'A full-text match', value: { query: { match: { name: 'south' } } } },
        typos: { summary: 'Typos, highlighted', value: { query: { match: { name: { query: 'frnace', fuzziness: 'AUTO' } } }, highlight: { fields: { name: {} } } } },
        sorted: { summary: 'Sorted, a page of 5 after a hit', value: { sort: [{ 'code.keyword': 'asc' }], search_after: ['FR'], size: 5 } },
        facets: { summary: 'Counts by region, no hits', value: { size: 0, aggs: { regions: { terms: { field: 'region.keyword' } } } } },
      },
    },
    result: ENTITY_SEARCH_RESULT_SCHEMA,
    resultExample: { hits: [{ _id: 'atlantis', _score: 1.4, _source: EXAMPLE_ENTITY }], total: 1 },
    errors: [...ADDRESS_ERRORS, ...SEARCH_ERRORS],
  },
  parse(req, deps) {
    const type = parseAddress(req, deps);
    if (!type.ok) return type;
    const request = parseSearchRequest(req.body, req.args);
    if (!request.ok) return request;
    // the body as sent, with the page (which the arguments may set), says all the request says
    if (req.bodyText !== null) request.value.key = `${request.value.from} ${request.value.size} ${req.bodyText}`;
    return ok({ type: type.value, request: request.value });
  },
  run: searchEntities,
});
