/**
 * auth:checkRights: whether the caller's roles allow an action, `{allowed}` (Kuzzle's
 * authController.checkRights), from the body: a request payload `{controller, action, ...}`. The
 * answer is the action's own role rule (ApiAction.allows: the writes need "writer" or "admin";
 * everything else any authenticated caller); rules that depend on the data (which tenant's entity,
 * whose API key) are checked when the action runs. An action this gateway does not have: false.
 */
import { objectBody } from '../args';
import { fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import type { CoreDeps } from '../deps';
import type { Principal } from '../principal';
import { UNKNOWN_FACTS } from '../server/serverFacts';

export interface RightsQuestion {
  controller: string;
  action: string;
}

export function checkRights(deps: CoreDeps, principal: Principal, { controller, action }: RightsQuestion): Result<{ allowed: boolean }> {
  const found = (deps.server ?? UNKNOWN_FACTS).actions.find((a) => a.controller === controller && a.action === action);
  if (found === undefined) return ok({ allowed: false });
  return ok({ allowed: found.public === true || found.allows === undefined || found.allows(principal) });
}

export const checkRightsOperation = defineOperation<RightsQuestion, { allowed: boolean }>({
  controller: 'auth',
  action: 'checkRights',
  addressesCollection: false,
  contract: {
    summary: "Check the caller's rights",
    description: "Whether the caller's roles allow an action (the action's role rule; rules that depend on the data are checked when it runs). An action this gateway does not have: `false`.",
    body: {
      required: true,
      schema: {
        type: 'object',
        description: 'A request payload: its `controller` and `action` are read, other fields ignored.',
        required: ['controller', 'action'],
        properties: { controller: { type: 'string', minLength: 1, examples: ['document'] }, action: { type: 'string', minLength: 1, examples: ['create'] } },
      },
      examples: { create: { summary: 'May I create entities?', value: { controller: 'document', action: 'create', collection: 'countries' } } },
    },
    result: { type: 'object', required: ['allowed'], additionalProperties: false, properties: { allowed: { type: 'boolean' } } },
    resultExample: { allowed: true },
    errors: ['api.assert.body_required', 'api.assert.invalid_type', 'api.assert.missing_argument'],
  },
  parse(req) {
    const body = objectBody(req.body, true);
    if (!body.ok) return body;
    const { controller, action } = body.value;
    // (Kuzzle's checks: both strings, else missing_argument naming body.controller / body.action)
    if (typeof controller !== 'string' || controller === '') return fail('api.assert.missing_argument', { name: 'body.controller' });
    if (typeof action !== 'string' || action === '') return fail('api.assert.missing_argument', { name: 'body.action' });
    return ok({ controller, action });
  },
  run: checkRights,
});
