/**
 * The fleet bus (REDIS_URL): instances on any machine, embedded or Elasticsearch-backed, tell each
 * other of the entity changes made through them and of the API keys deleted through them. Every
 * instance publishes what was done through it (`local` on the feed and on revocations) and treats
 * what others publish as `remote`: live subscriptions are told, deleted keys are refused at once.
 *
 * Instances whose store already tells them of each other's changes (the embedded store's workers and
 * gateways on one DATA_DIR: Store.changesScope) leave those to the store: each change is told once.
 * The core only sees this interface; src/bus/ implements it over Redis.
 */
import type { CoreDeps } from '../deps';
import type { EntityChange } from './changeFeed';

export interface FleetMessage {
  /** The instance that published it. */
  origin: string;
  /** Its store's changesScope, when it has one. */
  scope?: string;
  change?: EntityChange;
  /** The id of an API key deleted through it. */
  revokedKey?: string;
}

export interface FleetBus {
  /** Sends to every instance (this one hears it too, and ignores it by origin). */
  publish(message: FleetMessage): void;
  subscribe(listener: (message: FleetMessage) => void): () => void;
}

/** Joins the fleet as `self` until the returned function is called. */
export function joinFleet(deps: CoreDeps, bus: FleetBus, self: string): () => void {
  const scope = deps.store.onRemoteChange !== undefined ? deps.store.changesScope : undefined;
  const unsubscribeFeed = deps.feed.subscribe((change, origin) => {
    if (origin === 'local') bus.publish({ origin: self, ...(scope !== undefined ? { scope } : {}), change });
  });
  const unsubscribeKeys = deps.authenticator.onKeyForgotten((id, origin) => {
    if (origin === 'local') bus.publish({ origin: self, ...(scope !== undefined ? { scope } : {}), revokedKey: id });
  });
  const unsubscribeBus = bus.subscribe((message) => {
    if (message.origin === self) return;
    if (scope !== undefined && message.scope === scope) return; // the store tells of it
    if (message.change !== undefined) deps.feed.publish(message.change, 'remote');
    if (typeof message.revokedKey === 'string') deps.authenticator.forgetKey(message.revokedKey, 'remote');
  });
  return () => {
    unsubscribeFeed();
    unsubscribeKeys();
    unsubscribeBus();
  };
}
