/** auth:getCurrentUser */
import { caller, dispatch, serverDeps } from '../server/testing/serverDeps';

describe('auth:getCurrentUser', () => {
  it("answers Kuzzle's {_id, _source, strategies} from the caller's token", async () => {
    const envelope = await dispatch(serverDeps({ principal: caller({ roles: ['writer'] }) }), 'auth', 'getCurrentUser', { jwt: 't' });
    expect(envelope).toMatchObject({ status: 200, error: null, controller: 'auth', action: 'getCurrentUser' });
    expect(envelope.result).toEqual({
      _id: 'alice',
      _source: { profileIds: ['writer'], roles: ['writer'], tenantId: 'acme', slug: 'alice', shortName: 'Alice', apiKeyId: null, expiresAt: 1_767_229_200_000 },
      strategies: ['jwt'],
    });
  });

  it('names the API key a caller used', async () => {
    const { result } = await dispatch(serverDeps({ principal: caller({ apiKeyId: 'ci-key', expiresAt: -1 }) }), 'auth', 'getCurrentUser', { jwt: 't' });
    expect(result).toMatchObject({ _source: { apiKeyId: 'ci-key', expiresAt: -1 }, strategies: ['apiKey'] });
  });

  it('needs authentication', async () => {
    expect(await dispatch(serverDeps(), 'auth', 'getCurrentUser')).toMatchObject({ status: 401, error: { id: 'security.rights.unauthorized' }, result: null });
  });

  it("answers copies of the principal's roles, never the token", async () => {
    const principal = caller({ roles: ['admin'] });
    const { result } = await dispatch(serverDeps({ principal }), 'auth', 'getCurrentUser', { jwt: 'the-token-itself' });
    (result as any)._source.roles.push('writer');
    expect(principal.roles).toEqual(['admin']);
    expect(JSON.stringify(result)).not.toContain('the-token-itself');
  });
});
