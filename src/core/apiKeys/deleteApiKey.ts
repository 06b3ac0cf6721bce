/** auth:deleteApiKey: the key stops working at once on this instance (and within API_KEY_CACHE_MS on others). */
import { requiredId } from '../args';
import { fail, ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import { isAdmin, type Principal } from '../principal';
import type { CoreDeps } from '../deps';
import { DELETED_SCHEMA } from '../contract';

export async function deleteApiKey(deps: CoreDeps, principal: Principal, id: string): Promise<Result<{ _id: string }>> {
  const key = await deps.store.apiKeys.getKey(id);
  // Another user's key is reported as absent: its existence is not the caller's business.
  if (key === null || (!isAdmin(principal) && key.userId !== principal.userId)) {
    return fail('services.storage.not_found', { what: 'API key', id });
  }
  await deps.store.apiKeys.deleteKey(id);
  deps.authenticator.forgetKey(id);
  return ok({ _id: id });
}

export const deleteApiKeyOperation = defineOperation<string, { _id: string }>({
  controller: 'auth',
  action: 'deleteApiKey',
  addressesCollection: false,
  contract: {
    summary: 'Delete an API key',
    description: "The key stops working at once on this instance (within API_KEY_CACHE_MS on others). Another user's key is 404 unless the caller is an admin.",
    addressesDocument: true,
    result: DELETED_SCHEMA,
    resultExample: { _id: 'ci-pipeline' },
    errors: ['api.assert.invalid_argument', 'services.storage.not_found'],
  },
  parse: (req) => requiredId('_id', req._id ?? req.args._id),
  run: deleteApiKey,
});
