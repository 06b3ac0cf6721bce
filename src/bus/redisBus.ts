/**
 * The fleet bus over Redis pub/sub (ioredis): one channel, `<prefix>:fleet`, one JSON message per
 * change or revocation. Two connections, as Redis wants (one subscribed, one to publish); ioredis
 * reconnects by itself, and messages published while this instance is disconnected are lost (pub/sub
 * keeps nothing): what that means for subscribers is in the README ("Several instances").
 *
 * Messages are checked before they reach the core: anything that is not a well-formed change or
 * revocation is dropped (whoever can write to Redis must not be able to crash or confuse a gateway).
 */
import Redis from 'ioredis';
import type { FleetBus, FleetMessage } from '../core/events/fleet';
import type { EntityChange } from '../core/events/changeFeed';

const ACTIONS = new Set(['create', 'update', 'replace', 'delete']);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The message, or null when it is not one this bus sends. */
export function parseFleetMessage(text: string): FleetMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || typeof value.origin !== 'string') return null;
  if (value.scope !== undefined && typeof value.scope !== 'string') return null;
  const message: FleetMessage = { origin: value.origin, ...(typeof value.scope === 'string' ? { scope: value.scope } : {}) };
  if (value.revokedKey !== undefined) {
    if (typeof value.revokedKey !== 'string') return null;
    message.revokedKey = value.revokedKey;
  }
  if (value.change !== undefined) {
    const c = value.change;
    if (!isObject(c) || typeof c.action !== 'string' || !ACTIONS.has(c.action) || typeof c.collection !== 'string' || typeof c._id !== 'string' || !isObject(c._source)) return null;
    if (c.previous !== undefined && !isObject(c.previous)) return null;
    message.change = c as unknown as EntityChange;
  }
  return message.change === undefined && message.revokedKey === undefined ? null : message;
}

export interface RedisBusOptions {
  url: string;
  /** Channel prefix: instances with the same prefix form one fleet. */
  prefix: string;
  /** Told of connection errors (ioredis retries on its own). */
  onError?: (err: Error) => void;
}

export class RedisBus implements FleetBus {
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly channel: string;
  private readonly listeners = new Set<(message: FleetMessage) => void>();

  constructor(options: RedisBusOptions) {
    this.channel = `${options.prefix}:fleet`;
    // maxRetriesPerRequest null: a publish waits for the connection to come back rather than failing
    const connect = () => new Redis(options.url, { maxRetriesPerRequest: null, lazyConnect: true });
    this.pub = connect();
    this.sub = connect();
    for (const client of [this.pub, this.sub]) client.on('error', (err: Error) => options.onError?.(err));
    this.sub.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      const message = parseFleetMessage(text);
      if (message === null) return;
      for (const listener of this.listeners) {
        try {
          listener(message);
        } catch {
          // one listener's failure is its own
        }
      }
    });
  }

  /**
   * Connects and subscribes: true once subscribed, false if that took longer than `timeoutMs` (the
   * clients keep trying, and subscribe as soon as Redis answers).
   */
  async start(timeoutMs = 5000): Promise<boolean> {
    this.pub.connect().catch(() => undefined);
    this.sub.connect().catch(() => undefined);
    const subscribed = this.sub.subscribe(this.channel).then(
      () => true,
      () => false,
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const result = await Promise.race([subscribed, late]);
    clearTimeout(timer);
    return result;
  }

  publish(message: FleetMessage): void {
    this.pub.publish(this.channel, JSON.stringify(message)).catch(() => undefined); // errors are reported by 'error'
  }

  subscribe(listener: (message: FleetMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Says goodbye to Redis (QUIT) when it answers within half a second; cuts the connections in any case (an unreachable Redis must not hold a stopping gateway). */
  async close(): Promise<void> {
    this.listeners.clear();
    await Promise.allSettled(
      [this.sub, this.pub].map((client) => {
        if (client.status !== 'ready') {
          client.disconnect();
          return undefined;
        }
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise((resolve) => (timer = setTimeout(resolve, 500)));
        return Promise.race([client.quit(), late]).finally(() => {
          clearTimeout(timer);
          client.disconnect();
        });
      }),
    );
  }
}
