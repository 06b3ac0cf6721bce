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
