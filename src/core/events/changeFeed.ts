/**
 * Entity changes, published by the core after each acknowledged write (`local`), and as told of the
 * changes made through other instances (`remote`: by a store shared with them, remoteChanges.ts, or
 * by the fleet bus, fleet.ts); live subscriptions (GraphQL, raw WebSocket realtime) listen here.
 */
import type { Doc } from '../../store/port';

export interface EntityChange {
  action: 'create' | 'update' | 'replace' | 'delete';
  collection: string;
  _id: string;
  /** The entity after the change (before it, for a delete). */
  _source: Doc;
  /** update, replace: the entity before the change. */
  previous?: Doc;
}

/** Made through this instance, or told of by another. */
export type ChangeOrigin = 'local' | 'remote';

export type ChangeListener = (change: EntityChange, origin: ChangeOrigin) => void;

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: EntityChange, origin: ChangeOrigin = 'local'): void {
    for (const listener of this.listeners) {
      try {
        listener(change, origin);
      } catch {
        // A failing listener must not affect the write nor the other listeners.
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
