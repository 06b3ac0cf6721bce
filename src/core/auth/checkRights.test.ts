/** auth:checkRights */
import { caller, dispatch, serverDeps } from '../server/testing/serverDeps';
import { operations } from '../operations';
import { isAdmin, isWriter, type Principal } from '../principal';

const allowed = async (principal: Principal, body: unknown) => (await dispatch(serverDeps({ principal }), 'auth', 'checkRights', { jwt: 't', body })).result;

const WRITES = ['document:create', 'document:replace', 'document:update', 'document:delete', 'document:mCreate'];
/** Mapping changes: admin only (a mapping is shared by every tenant). */
const ADMIN_ONLY = ['collection:updateMapping', 'collection:create'];

describe('auth:checkRights', () => {
  it('writes need the writer or admin role; everything else any authenticated caller', async () => {
    const reader = caller({ roles: [] });
    for (const principal of [reader, caller({ roles: ['writer'] }), caller({ roles: ['admin'], tenantId: null })]) {
      for (const { controller, action } of operations) {
        const name = `${controller}:${action}`;
        const expected = ADMIN_ONLY.includes(name) ? isAdmin(principal) : !WRITES.includes(name) || isWriter(principal);
        expect([`${controller}:${action}`, await allowed(principal, { controller, action })]).toEqual([`${controller}:${action}`, { allowed: expected }]);
      }
    }
    expect(await allowed(reader, { controller: 'realtime', action: 'subscribe', collection: 'countries', body: { equals: { a: 1 } } })).toEqual({ allowed: true });
  });

  it('the writes are exactly the operations whose role rule is isWriter', () => {
    expect(operations.filter((op) => op.allows === isWriter).map((op) => `${op.controller}:${op.action}`).sort()).toEqual([...WRITES].sort());
    expect(operations.filter((op) => op.allows === isAdmin).map((op) => `${op.controller}:${op.action}`).sort()).toEqual([...ADMIN_ONLY].sort());
    expect(operations.filter((op) => op.allows !== undefined && op.allows !== isWriter && op.allows !== isAdmin)).toEqual([]);
  });

  it('an action this gateway does not have is not allowed', async () => {
    for (const body of [{ controller: 'admin', action: 'resetDatabase' }, { controller: 'document', action: 'deleteByQuery' }, { controller: '__proto__', action: 'constructor' }, { controller: 'document', action: 'toString' }]) {
      expect(await allowed(caller({ roles: ['admin'] }), body)).toEqual({ allowed: false });
    }
  });

  it('refuses a body without controller or action, as Kuzzle does', async () => {
    const deps = serverDeps();
    expect(await dispatch(deps, 'auth', 'checkRights', { jwt: 't' })).toMatchObject({ status: 400, error: { id: 'api.assert.body_required' } });
    expect(await dispatch(deps, 'auth', 'checkRights', { jwt: 't', body: { action: 'search' } })).toMatchObject({ status: 400, error: { id: 'api.assert.missing_argument', props: { name: 'body.controller' } } });
    expect(await dispatch(deps, 'auth', 'checkRights', { jwt: 't', body: { controller: 'document', action: 5 } })).toMatchObject({ status: 400, error: { id: 'api.assert.missing_argument', props: { name: 'body.action' } } });
    expect(await dispatch(deps, 'auth', 'checkRights', { jwt: 't', body: [] })).toMatchObject({ status: 400, error: { id: 'api.assert.invalid_type' } });
  });

  it('needs authentication: an anonymous caller cannot probe the rules', async () => {
    expect(await dispatch(serverDeps(), 'auth', 'checkRights', { body: { controller: 'document', action: 'search' } })).toMatchObject({ status: 401, result: null });
  });
});
