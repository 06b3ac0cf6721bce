/**
 * Entity changes, published by the core after each acknowledged write; live subscriptions
 * (GraphQL, raw WebSocket realtime) listen here. In-process: each instance sees its own writes.
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

export type ChangeListener = (change: EntityChange) => void;

export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: EntityChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // A failing listener must not affect the write nor the other listeners.
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
