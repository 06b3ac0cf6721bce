/**
 * Live entity changes for one subscriber: one type, only what the subscriber's tenant may see,
 * optionally only entities matching a query DSL object, as a search of the collection would find
 * them at the time of the change (the store's matcher: same field types, real `_id`, `now` at the
 * write), or matching Koncorde filters as Kuzzle tests them (koncordeFilters.ts). A filter only
 * narrows: what the subscriber may not see never matches. Each notification has Kuzzle's scope:
 * - `in`: the entity matches after the change (created, or updated/replaced and still or now
 *   matching);
 * - `out`: it matched before the change and does not after (updated/replaced out of the filter, or
 *   out of the subscriber's sight by its `allowTenantIds`; deleted).
 * An entity the subscriber cannot see, before nor after, never produces a notification; an `out`
 * one carries the entity as it is now when the subscriber may see it, else as it was (never what
 * it cannot see). `scope` (`all`, the default, `in` or `out`) keeps only those of one kind.
 * The subscription ends when the token that opened it stops being valid: at its expiry, at once
 * when its API key is deleted on this instance, and within API_KEY_CACHE_MS when deleted on another.
 */
import { ApiError, fail, ok, toApiError, type Result } from '../errors';
import { canSee, type Principal } from '../principal';
import { InvalidQueryError, type Doc, type QueryDsl } from '../../store/port';
import type { CoreDeps } from '../deps';
import type { EntityType } from '../entities/entityType';
import type { EntityChange } from './changeFeed';
import { koncordeFiltersOf } from './koncordeFilters';

export type ChangeScope = 'in' | 'out';
export const SCOPES = ['all', 'in', 'out'] as const;
export type ScopeFilter = (typeof SCOPES)[number];

export interface EntityChangesSpec {
  type: EntityType;
  query?: QueryDsl;
  /** Koncorde filters instead of a query (subscriptionFilter.ts); `{}` matches everything. */
  filters?: Record<string, unknown>;
  /** Which notifications: `all` (default), `in` or `out`. */
  scope?: ScopeFilter;
}

/** Kuzzle's `scope` argument: all, in or out (default all). */
export function parseScope(value: unknown): Result<ScopeFilter> {
  if (value === undefined || value === null) return ok('all');
  if (typeof value === 'string' && (SCOPES as readonly string[]).includes(value.toLowerCase())) return ok(value.toLowerCase() as ScopeFilter);
  return fail('api.assert.invalid_argument', { name: 'scope', reason: 'must be "all", "in" or "out"' });
}

export interface ChangeSubscriber {
  /** A change to notify, with its scope and the entity to show (see above). */
  onChange(change: EntityChange, scope: ChangeScope, source: Doc): void;
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
  let matches: (id: string, doc: Doc) => boolean = () => true;
  let release = () => {};
  if (spec.filters !== undefined && Object.keys(spec.filters).length > 0) {
    const compiled = koncordeFiltersOf(deps.feed).compile(spec.type.collection, spec.filters);
    if (!compiled.ok) return compiled;
    ({ matches, release } = compiled.value);
  } else if (spec.query !== undefined && Object.keys(spec.query).length > 0) {
    try {
      matches = deps.store.entities.matcher(spec.type.collection, spec.query);
    } catch (err) {
      if (err instanceof InvalidQueryError) return { ok: false, error: toApiError(err) };
      throw err;
    }
  }
  const wanted = spec.scope ?? 'all';
  const visibleMatch = (id: string, doc: Doc | undefined): boolean => doc !== undefined && canSee(principal, doc.allowTenantIds) && matches(id, doc);
  const timers: NodeJS.Timeout[] = [];
  let closed = false;
  const unsubscribeFeed = deps.feed.subscribe((change) => {
    if (closed || change.collection !== spec.type.collection) return;
    const after = change.action === 'delete' ? undefined : change._source;
    const before = change.action === 'delete' ? change._source : change.previous;
    let scope: ChangeScope;
    let shown: Doc;
    if (visibleMatch(change._id, after)) {
      scope = 'in';
      shown = after as Doc;
    } else if (visibleMatch(change._id, before)) {
      scope = 'out';
      shown = after !== undefined && canSee(principal, after.allowTenantIds) ? after : (before as Doc);
    } else {
      return;
    }
    if (wanted === 'all' || wanted === scope) subscriber.onChange(change, scope, shown);
  });
  const unsubscribeRevocations = deps.authenticator.onKeyForgotten((id) => {
    if (id === principal.apiKeyId) void recheck();
  });
  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribeFeed();
    unsubscribeRevocations();
    release();
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
