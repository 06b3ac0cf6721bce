/** server:now */
import { dispatch, NOW, serverDeps } from './testing/serverDeps';

describe('server:now', () => {
  it("answers {now} from the server's clock", async () => {
    expect(await dispatch(serverDeps(), 'server', 'now', { jwt: 't' })).toMatchObject({ status: 200, error: null, result: { now: NOW }, controller: 'server', action: 'now', index: null, collection: null });
  });

  it('needs no token (kuzzle-sdk may ask before any login), and a bad one is not looked at', async () => {
    expect(await dispatch(serverDeps(), 'server', 'now')).toMatchObject({ status: 200, result: { now: NOW } });
  });

  it('tells nothing but the time', async () => {
    const { result } = await dispatch(serverDeps(), 'server', 'now');
    expect(Object.keys(result as object)).toEqual(['now']);
  });
});
