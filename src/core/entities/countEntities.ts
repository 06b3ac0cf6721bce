/** document:count: how many visible entities of one type match a query. */
import { objectBody } from '../args';
import { parseSearchRequest } from '../search/searchRequest';
import { fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import { visibilityFilter, type Principal } from '../principal';
import type { CountResult, QueryDsl } from '../../store/port';
import type { CoreDeps } from '../deps';
import type { JsonSchema } from '../contract';
import { QUERY_ERRORS, SEARCH_BODY_SCHEMA } from '../search/searchContract';
import { parseAddress } from './address';
import { ADDRESS_ERRORS } from './entityContract';
import type { EntityType } from './entityType';
import { invalidQuery } from './searchEntities';

export interface CountEntitiesInput {
  type: EntityType;
  query?: QueryDsl;
}

/** The body: `{query?}`, no other key (parse reads its keys from here). */
const COUNT_BODY_SCHEMA = {
  title: 'CountBody',
  type: 'object',
  additionalProperties: false,
  properties: { query: (SEARCH_BODY_SCHEMA.properties as Record<string, JsonSchema>).query },
} satisfies JsonSchema;
const COUNT_BODY_KEYS = Object.keys(COUNT_BODY_SCHEMA.properties);

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
  contract: {
    summary: 'Count the entities of one type',
    description: "How many entities of the type visible to the caller's tenant match the query (all of them without one).",
    body: { required: false, schema: COUNT_BODY_SCHEMA, examples: { prefix: { summary: 'Codes starting with F', value: { query: { prefix: { 'code.keyword': 'F' } } } }, all: { summary: 'Every visible entity', value: {} } } },
    result: {
      title: 'CountResult',
      type: 'object',
      required: ['count'],
      additionalProperties: false,
      properties: { count: { type: 'integer', minimum: 0 }, timed_out: { const: true, description: 'Present when the count stopped at its time budget (`count` is then a lower bound).' } },
    },
    resultExample: { count: 12 },
    errors: [...ADDRESS_ERRORS, 'api.assert.invalid_type', ...QUERY_ERRORS],
  },
  parse(req, deps) {
    const type = parseAddress(req, deps);
    if (!type.ok) return type;
    const body = objectBody(req.body, false);
    if (!body.ok) return body;
    for (const key of Object.keys(body.value)) {
      if (!COUNT_BODY_KEYS.includes(key)) return fail('services.storage.invalid_search_query', { reason: `unsupported body key "${key}" for count (allowed: ${COUNT_BODY_KEYS.join(', ')})` });
    }
    const checked = parseSearchRequest(body.value, {});
    if (!checked.ok) return checked;
    return ok({ type: type.value, query: checked.value.query });
  },
  run: countEntities,
});
