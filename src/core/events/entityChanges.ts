/**
 * Live entity changes for one subscriber: one type, only what the subscriber's tenant may see,
 * optionally only entities matching a query DSL object (evaluated by the same query code as the
 * embedded store). The subscription ends when the token that opened it stops being valid: at its
 * expiry, at once when its API key is deleted on this instance, and within API_KEY_CACHE_MS when
 * deleted on another.
 */
import { ApiError, fail, ok, toApiError, type Result } from '../errors';
import { canSee, type Principal } from '../principal';
import { InvalidQueryError, type Doc, type QueryDsl } from '../../store/port';
import type { CoreDeps } from '../deps';
import type { EntityType } from '../entities/entityType';
import type { EntityChange } from './changeFeed';

export interface EntityChangesSpec {
  type: EntityType;
  query?: QueryDsl;
}

export interface ChangeSubscriber {
  onChange(change: EntityChange): void;
  /** The token stopped working: the subscription is already closed. */
  onRevoked(error: ApiError): void;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export function subscribeEntityChanges(
  deps: CoreDeps,
  principal: Principal,
  jwt: string | null,
  spec: EntityChangesSpec,
  subscriber: ChangeSubscriber,
): Result<() => void> {
  let matches: (doc: Doc) => boolean = () => true;
  if (spec.query !== undefined && Object.keys(spec.query).length > 0) {
    try {
      matches = deps.compileMatcher(spec.query);
    } catch (err) {
      if (err instanceof InvalidQueryError) return { ok: false, error: toApiError(err) };
      throw err;
    }
  }
  const timers: NodeJS.Timeout[] = [];
  let closed = false;
  const unsubscribeFeed = deps.feed.subscribe((change) => {
    if (closed || change.collection !== spec.type.collection) return;
    if (!canSee(principal, change._source.allowTenantIds) || !matches(change._source)) return;
    subscriber.onChange(change);
  });
  const unsubscribeRevocations = deps.authenticator.onKeyForgotten((id) => {
    if (id === principal.apiKeyId) void recheck();
  });
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribeFeed();
    unsubscribeRevocations();
    for (const t of timers) clearTimeout(t);
  };
  async function recheck(): Promise<void> {
    if (closed) return;
    const again = await deps.authenticator.authenticate(jwt);
    if (!again.ok && !closed) {
      close();
      subscriber.onRevoked(again.error);
    }
  }
  if (principal.expiresAt !== -1) {
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, principal.expiresAt - deps.now()) + 5);
    timers.push(setTimeout(() => void recheck(), delay));
  }
  if (principal.apiKeyId !== null) {
    const every = Math.max(1000, deps.settings.apiKeyCacheMs);
    const interval = setInterval(() => void recheck(), every);
    interval.unref();
    timers.push(interval);
  }
  for (const t of timers) t.unref();
  return ok(close);
}
