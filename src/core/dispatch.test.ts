import type { CoreDeps } from './deps';
import { Dispatcher } from './dispatch';
import { CALLER, type Envelope } from './envelope';
import { fail, ok } from './errors';
import { defineOperation, type Operation } from './operation';
import { ANONYMOUS } from './principal';
import { makeRequest } from './request';

/** Only what the dispatcher itself reads: the authenticator and the index name. */
function dispatcherWith(operations: Operation[], authenticate: (jwt: string | null | undefined) => unknown = () => ok(ANONYMOUS)) {
  const reported: unknown[] = [];
  const deps = { authenticator: { authenticate }, settings: { indexName: 'entity' } } as unknown as CoreDeps;
  return { dispatcher: new Dispatcher(deps, operations, (err) => reported.push(err)), reported };
}

const op = (action: string, run: Operation['run'], parse: Operation['parse'] = () => ok({})): Operation =>
  defineOperation({ controller: 'test', action, addressesCollection: false, parse, run });

const request = (action: string) => makeRequest({ controller: 'test', action, requestId: 'r1', jwt: 'token' });

describe('Dispatcher', () => {
  it('answers at once when authentication and the operation answer at once', () => {
    const { dispatcher } = dispatcherWith([op('now', () => ok(42))]);
    const envelope = dispatcher.dispatch(request('now'));
    expect(envelope).not.toBeInstanceOf(Promise);
    expect(envelope).toMatchObject({ requestId: 'r1', status: 200, error: null, result: 42 });
  });

  it('answers with a promise when anything on the way is one, with the same envelope', async () => {
    const later = dispatcherWith([op('later', async () => ok(42))]);
    const fromOperation = later.dispatcher.dispatch(request('later'));
    expect(fromOperation).toBeInstanceOf(Promise);
    expect(await fromOperation).toMatchObject({ status: 200, result: 42 });

    const slowAuth = dispatcherWith([op('now', () => ok(42))], async () => ok(ANONYMOUS));
    const fromAuth = slowAuth.dispatcher.dispatch(request('now'));
    expect(fromAuth).toBeInstanceOf(Promise);
    expect(await fromAuth).toMatchObject({ status: 200, result: 42 });
  });

  it('answers a refused token, an unknown action and a refused input with their errors', async () => {
    const refused = dispatcherWith([op('now', () => ok(42))], () => fail('security.token.invalid', { reason: 'x' }));
    expect(refused.dispatcher.dispatch(request('now'))).toMatchObject({ status: 401, error: { id: 'security.token.invalid' } });
    const { dispatcher } = dispatcherWith([op('bad', () => ok(1), () => fail('api.assert.invalid_argument', { name: 'x', reason: 'y' }))]);
    expect(dispatcher.dispatch(request('missing'))).toMatchObject({ status: 404, error: { id: 'api.process.action_not_found' } });
    expect(dispatcher.dispatch(request('bad'))).toMatchObject({ status: 400, error: { id: 'api.assert.invalid_argument' } });
  });

  it('turns what an operation throws or rejects into a 500 envelope, and reports it: it never throws or rejects', async () => {
    const boom = new Error('boom');
    const { dispatcher, reported } = dispatcherWith([
      op('throwsInParse', () => ok(1), () => { throw boom; }),
      op('throwsInRun', () => { throw boom; }),
      op('rejects', async () => { throw boom; }),
    ]);
    const answers: Envelope[] = [];
    for (const action of ['throwsInParse', 'throwsInRun', 'rejects']) answers.push(await dispatcher.dispatch(request(action)));
    for (const envelope of answers) expect(envelope).toMatchObject({ status: 500, error: { id: 'core.fatal.unexpected_error' }, result: null });
    expect(reported).toEqual([boom, boom, boom]);
  });

  it('tells who made the request on the envelope (a symbol, never serialized), once authenticated, and not for public operations', async () => {
    const alice = { ...ANONYMOUS, userId: 'alice', apiKeyId: 'k1' };
    const { dispatcher } = dispatcherWith(
      [op('now', () => ok(1)), op('later', async () => ok(2)), op('bad', () => ok(1), () => fail('api.assert.invalid_argument', { name: 'x', reason: 'y' })), { ...op('open', () => ok(3)), public: true }],
      () => ok(alice),
    );
    for (const action of ['now', 'later', 'bad']) {
      const envelope = await dispatcher.dispatch(request(action));
      expect(envelope[CALLER]).toBe(alice);
      expect(JSON.stringify(envelope)).not.toContain('alice');
    }
    expect((await dispatcher.dispatch(request('open')))[CALLER]).toBeUndefined();
    const refused = dispatcherWith([op('now', () => ok(42))], () => fail('security.token.invalid', { reason: 'x' }));
    expect((refused.dispatcher.dispatch(request('now')) as Envelope)[CALLER]).toBeUndefined();
  });
});
