/** server:info */
import { caller, dispatch, serverDeps } from './testing/serverDeps';

describe('server:info', () => {
  it("answers Kuzzle's serverInfo shape with what is true of this gateway", async () => {
    const envelope = await dispatch(serverDeps(), 'server', 'info', { jwt: 't' });
    expect(envelope).toMatchObject({ status: 200, error: null });
    const { kuzzle, services } = (envelope.result as any).serverInfo;
    expect(kuzzle).toMatchObject({ application: { name: 'entity-gateway', version: '9.9.9' }, version: '9.9.9', nodeVersion: 'v20.0.0', uptime: '90.5s', plugins: {} });
    expect(services).toEqual({ publicStorage: { backend: 'embedded', status: 'green' } });
    // every action, by controller, as Kuzzle lists its routes
    expect(kuzzle.api.routes.document.search).toEqual({ controller: 'document', action: 'search' });
    expect(kuzzle.api.routes.realtime.subscribe).toEqual({ controller: 'realtime', action: 'subscribe' });
    expect(Object.keys(kuzzle.api.routes.server).sort()).toEqual(['getConfig', 'healthCheck', 'info', 'now']);
    expect(Object.keys(kuzzle.api.routes.auth).sort()).toEqual(['checkRights', 'checkToken', 'createApiKey', 'deleteApiKey', 'getCurrentUser', 'searchApiKeys']);
  });

  it('says red for a store that does not answer, and works without facts', async () => {
    const { result } = await dispatch(serverDeps({ ready: false, withoutFacts: true }), 'server', 'info', { jwt: 't' });
    expect((result as any).serverInfo.services.publicStorage.status).toBe('red');
    expect((result as any).serverInfo.kuzzle.version).toBe('unknown');
  });

  it('needs authentication', async () => {
    expect(await dispatch(serverDeps(), 'server', 'info')).toMatchObject({ status: 401, error: { id: 'security.rights.unauthorized' }, result: null });
  });

  it('holds no setting, secret or principal', async () => {
    const deps = serverDeps({ facts: { config: { auth: { secret: 'x'.repeat(40) } } }, principal: caller({ userId: 'someone-secretive' }) });
    const text = JSON.stringify(await dispatch(deps, 'server', 'info', { jwt: 't' }));
    expect(text).not.toContain('xxxx');
    expect(text).not.toContain('someone-secretive');
  });
});
