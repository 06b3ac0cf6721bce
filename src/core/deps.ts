/** What the core's operations are given by the composition root: nothing global, nothing looked up. */
import type { Store } from '../store/port';
import type { Authenticator } from './auth/authenticate';
import type { TokenService } from './auth/tokens';
import type { ChangeFeed } from './events/changeFeed';
import type { RateLimits } from './rateLimit/rateLimits';
import type { ServerFacts } from './server/serverFacts';

export interface CoreDeps {
  store: Store;
  tokens: TokenService;
  authenticator: Authenticator;
  feed: ChangeFeed;
  /** RATE_LIMIT and RATE_LIMIT_AUTH_FAILURES (rateLimit/admission.ts); absent: no limit. */
  rateLimits?: RateLimits;
  /** What the server controller tells of this gateway (version, settings without secrets, actions); absent: UNKNOWN_FACTS. */
  server?: ServerFacts;
  settings: {
    /** The logical index name of every entity collection (`index` in envelopes). */
    indexName: string;
    /** Longest API key lifetime in ms; undefined = no maximum. */
    apiKeyMaxTtl?: number;
    /** How long an API key lookup may be trusted (and how often live subscriptions re-check theirs). */
    apiKeyCacheMs: number;
    /** A search's time budget when it sets no `timeout`, and the longest it may set (SEARCH_TIMEOUT), in ms. */
    searchTimeoutMs: number;
  };
  now: () => number;
  newId: () => string;
}
