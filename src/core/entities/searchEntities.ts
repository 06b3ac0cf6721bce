/** document:search (spec 4.1): visible entities of one type, Elasticsearch order and scores, exact total. */
import { fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import { visibilityFilter, type Principal } from '../principal';
import { parseSearchRequest } from '../search/searchRequest';
import { InvalidQueryError, type SearchRequest, type SearchResult } from '../../store/port';
import type { CoreDeps } from '../deps';
import { parseAddress } from './address';
import type { EntityType } from './entityType';

export interface SearchEntitiesInput {
  type: EntityType;
  request: SearchRequest;
}

export const invalidQuery = (err: unknown): Result<never> => {
  if (err instanceof InvalidQueryError) return fail('services.storage.invalid_search_query', { reason: err.message });
  throw err;
};

export async function searchEntities(deps: CoreDeps, principal: Principal, input: SearchEntitiesInput): Promise<Result<SearchResult>> {
  try {
    return ok(await deps.store.entities.search(input.type.collection, input.request, visibilityFilter(principal)));
  } catch (err) {
    return invalidQuery(err);
  }
}

export const searchEntitiesOperation = defineOperation<SearchEntitiesInput, SearchResult>({
  controller: 'document',
  action: 'search',
  addressesCollection: true,
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
