/** server:getConfig */
import { getConfig } from './getConfig';
import { dispatch, serverDeps } from './testing/serverDeps';

describe('server:getConfig', () => {
  it('answers the settings the composition root gave (already without secrets: src/publicConfig.ts)', async () => {
    expect(await dispatch(serverDeps(), 'server', 'getConfig', { jwt: 't' })).toMatchObject({ status: 200, result: { port: 7512, limits: { maxBodyBytes: 1024 } } });
    expect((await dispatch(serverDeps({ withoutFacts: true }), 'server', 'getConfig', { jwt: 't' })).result).toEqual({});
  });

  it('needs authentication', async () => {
    expect(await dispatch(serverDeps(), 'server', 'getConfig')).toMatchObject({ status: 401, result: null });
  });

  it('answers a copy: a caller cannot change what the next one reads', () => {
    const deps = serverDeps();
    const first = getConfig(deps);
    if (first.ok) (first.value.limits as Record<string, unknown>).maxBodyBytes = 1;
    const again = getConfig(deps);
    expect(again.ok && (again.value.limits as Record<string, unknown>).maxBodyBytes).toBe(1024);
  });
});
