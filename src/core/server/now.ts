/**
 * server:now: the server's clock, `{now: <ms since Epoch>}` (Kuzzle's serverController.now). No
 * authentication needed: kuzzle-sdk's `server.now()` may run before any login, and the clock tells
 * nothing about anyone.
 */
import { ok, type Result } from '../errors';
import { defineOperation } from '../operation';
import type { CoreDeps } from '../deps';

export const serverNow = (deps: CoreDeps): Result<{ now: number }> => ok({ now: deps.now() });

export const serverNowOperation = defineOperation<undefined, { now: number }>({
  controller: 'server',
  action: 'now',
  addressesCollection: false,
  public: true,
  contract: {
    summary: "The server's clock",
    description: 'ms since Epoch. No token needed.',
    result: { type: 'object', required: ['now'], additionalProperties: false, properties: { now: { type: 'integer' } } },
    resultExample: { now: 1767225600000 },
    errors: [],
  },
  parse: () => ok(undefined),
  run: serverNow,
});
