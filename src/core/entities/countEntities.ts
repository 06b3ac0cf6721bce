/** document:count: how many visible entities of one type match a query. */
import { objectBody } from '../args';
import { parseSearchRequest } from '../search/searchRequest';
import { fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import { visibilityFilter, type Principal } from '../principal';
import type { CountResult, QueryDsl } from '../../store/port';
import type { CoreDeps } from '../deps';
import { parseAddress } from './address';
import type { EntityType } from './entityType';
import { invalidQuery } from './searchEntities';

export interface CountEntitiesInput {
  type: EntityType;
  query?: QueryDsl;
}

export async function countEntities(deps: CoreDeps, principal: Principal, input: CountEntitiesInput): Promise<Result<CountResult>> {
  try {
    return ok(await deps.store.entities.count(input.type.collection, input.query, visibilityFilter(principal)));
  } catch (err) {
    return invalidQuery(err);
  }
}

export const countEntitiesOperation = defineOperation<CountEntitiesInput, CountResult>({
  controller: 'document',
  action: 'count',
  addressesCollection: true,
  parse(req, deps) {
    const type = parseAddress(req, deps);
    if (!type.ok) return type;
    const body = objectBody(req.body, false);
    if (!body.ok) return body;
    for (const key of Object.keys(body.value)) {
      if (key !== 'query') return fail('services.storage.invalid_search_query', { reason: `unsupported body key "${key}" for count (allowed: query)` });
    }
    const checked = parseSearchRequest(body.value, {});
    if (!checked.ok) return checked;
    return ok({ type: type.value, query: checked.value.query });
  },
  run: countEntities,
});
