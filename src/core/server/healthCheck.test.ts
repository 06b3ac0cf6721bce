/** server:healthCheck */
import { parseServices } from './healthCheck';
import { dispatch, serverDeps } from './testing/serverDeps';

describe('server:healthCheck', () => {
  it('green when the store answers', async () => {
    expect(await dispatch(serverDeps(), 'server', 'healthCheck')).toMatchObject({ status: 200, result: { status: 'green', services: { storageEngine: 'green' } } });
  });

  it('red when the store does not answer, or fails to say', async () => {
    for (const ready of [false, new Error('connect ECONNREFUSED')]) {
      expect(await dispatch(serverDeps({ ready }), 'server', 'healthCheck')).toMatchObject({ status: 200, result: { status: 'red', services: { storageEngine: 'red' } } });
    }
  });

  it('keeps the services named by `services` (a list or an array); unknown names are left out', async () => {
    expect((await dispatch(serverDeps(), 'server', 'healthCheck', { args: { services: 'memoryStorage' } })).result).toEqual({ status: 'green', services: {} });
    expect((await dispatch(serverDeps({ ready: false }), 'server', 'healthCheck', { args: { services: 'internalCache, storageEngine' } })).result).toEqual({ status: 'red', services: { storageEngine: 'red' } });
    expect((await dispatch(serverDeps(), 'server', 'healthCheck', { args: { services: ['storageEngine'] } })).result).toEqual({ status: 'green', services: { storageEngine: 'green' } });
  });

  it('refuses a services argument of another type', async () => {
    expect(await dispatch(serverDeps(), 'server', 'healthCheck', { args: { services: 3 } })).toMatchObject({ status: 400, error: { id: 'api.assert.invalid_type' } });
    expect(parseServices([1])).toMatchObject({ ok: false });
  });

  it("is public, as GET /readyz is, and says nothing of the store's error", async () => {
    const envelope = await dispatch(serverDeps({ ready: new Error('password=hunter2') }), 'server', 'healthCheck');
    expect(envelope.status).toBe(200);
    expect(JSON.stringify(envelope)).not.toContain('hunter2');
  });
});
