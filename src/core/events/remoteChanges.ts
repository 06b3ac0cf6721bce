/**
 * Changes made through other processes that share this gateway's store (Store.onRemoteChange: other
 * workers, other gateways on the same DATA_DIR), handled as if made here: an entity change reaches
 * the live subscriptions' feed (with the source before it, so scopes `in`/`out` hold), and a deleted
 * API key is forgotten at once (its cached lookup dropped, its live subscriptions ended).
 */
import type { RemoteChange } from '../../store/port';
import type { CoreDeps } from '../deps';
import type { EntityChange } from './changeFeed';

/** The change as the feed carries it; null when there is nothing to tell (a delete of what was never seen). */
export function entityChangeOf(change: Extract<RemoteChange, { kind: 'entity' }>): EntityChange | null {
  const { action, collection, _id, source, previous } = change;
  if (action === 'delete' || source === null) return previous === null ? null : { action: 'delete', collection, _id, _source: previous };
  if (action === 'create' || previous === null) return { action: 'create', collection, _id, _source: source };
  return { action, collection, _id, _source: source, previous };
}

/** Follows the store's remote changes until the returned function is called. */
export function followRemoteChanges(deps: CoreDeps): () => void {
  if (deps.store.onRemoteChange === undefined) return () => undefined;
  return deps.store.onRemoteChange((change) => {
    if (change.kind === 'apiKeyDeleted') return deps.authenticator.forgetKey(change._id, 'remote');
    const entityChange = entityChangeOf(change);
    if (entityChange !== null) deps.feed.publish(entityChange, 'remote');
  });
}
