/** joinFleet: what an instance publishes to the fleet bus, and what it takes from it. */
import type { CoreDeps } from '../deps';
import { Authenticator } from '../auth/authenticate';
import { ChangeFeed, type ChangeOrigin, type EntityChange } from './changeFeed';
import { joinFleet, type FleetBus, type FleetMessage } from './fleet';

/** An in-memory bus: every message goes to every subscriber, the publisher included (as Redis does). */
function memoryBus(): FleetBus & { sent: FleetMessage[] } {
  const listeners = new Set<(m: FleetMessage) => void>();
  const sent: FleetMessage[] = [];
  return {
    sent,
    publish: (m) => {
      sent.push(m);
      for (const l of listeners) l(structuredClone(m));
    },
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

function instance(store: Partial<CoreDeps['store']> = {}) {
  const feed = new ChangeFeed();
  const authenticator = new Authenticator({} as never, {} as never, { tenantClaim: 'tenantId', keyCacheMs: 1000 });
  const deps = { feed, authenticator, store } as unknown as CoreDeps;
  const heard: [EntityChange, ChangeOrigin][] = [];
  feed.subscribe((c, o) => heard.push([c, o]));
  const forgotten: [string, ChangeOrigin][] = [];
  authenticator.onKeyForgotten((id, o) => forgotten.push([id, o]));
  return { deps, heard, forgotten };
}

const change: EntityChange = { action: 'create', collection: 'countries', _id: 'fr', _source: { name: 'France' } };

describe('joinFleet', () => {
  it("publishes this instance's changes and revocations, and tells it of the others' as remote", () => {
    const bus = memoryBus();
    const [a, b] = [instance(), instance()];
    joinFleet(a.deps, bus, 'a');
    joinFleet(b.deps, bus, 'b');
    a.deps.feed.publish(change);
    a.deps.authenticator.forgetKey('k1');
    expect(bus.sent).toEqual([
      { origin: 'a', change },
      { origin: 'a', revokedKey: 'k1' },
    ]);
    expect(b.heard).toEqual([[change, 'remote']]);
    expect(b.forgotten).toEqual([['k1', 'remote']]);
    // a heard its own once, as local, not again from the bus
    expect(a.heard).toEqual([[change, 'local']]);
    expect(a.forgotten).toEqual([['k1', 'local']]);
  });

  it('never publishes again what it was told (no echo between instances)', () => {
    const bus = memoryBus();
    const [a, b, c] = [instance(), instance(), instance()];
    for (const [i, name] of [[a, 'a'], [b, 'b'], [c, 'c']] as const) joinFleet(i.deps, bus, name);
    b.deps.feed.publish(change);
    b.deps.authenticator.forgetKey('k');
    expect(bus.sent).toHaveLength(2);
    expect(a.heard).toEqual([[change, 'remote']]);
    expect(c.heard).toEqual([[change, 'remote']]);
  });

  it('leaves to the store the changes of instances that share it (one DATA_DIR): each is told once', () => {
    const bus = memoryBus();
    const shared = { onRemoteChange: () => () => undefined, changesScope: 'embedded:host:/data' };
    const [a, b, elsewhere] = [instance(shared), instance(shared), instance({ onRemoteChange: () => () => undefined, changesScope: 'embedded:other:/data' })];
    joinFleet(a.deps, bus, 'a');
    joinFleet(b.deps, bus, 'b');
    joinFleet(elsewhere.deps, bus, 'e');
    a.deps.feed.publish(change);
    expect(bus.sent).toEqual([{ origin: 'a', scope: 'embedded:host:/data', change }]);
    expect(b.heard).toEqual([]); // its store tells it (remoteChanges.ts)
    expect(elsewhere.heard).toEqual([[change, 'remote']]);
  });

  it('stops when left', () => {
    const bus = memoryBus();
    const [a, b] = [instance(), instance()];
    const leaveA = joinFleet(a.deps, bus, 'a');
    joinFleet(b.deps, bus, 'b');
    leaveA();
    a.deps.feed.publish(change);
    b.deps.feed.publish({ ...change, _id: 'de' });
    expect(bus.sent).toEqual([{ origin: 'b', change: { ...change, _id: 'de' } }]);
    expect(a.heard.map(([c, o]) => [c._id, o])).toEqual([['fr', 'local']]);
  });
});
