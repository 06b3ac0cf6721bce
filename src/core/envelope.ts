/** The response envelope of spec 2.1, shared by every operation and every non-GraphQL transport. */
import type { ErrorObject, Result } from './errors';
import type { Principal } from './principal';
import type { RateState } from './rateLimit/rateLimits';

/** Where an envelope carries the rate limit that applied to its request (a symbol: never serialized). */
export const RATE_STATE: unique symbol = Symbol('rateState');
/** Where an envelope carries who made the request, once authenticated (the access log; a symbol: never serialized). */
export const CALLER: unique symbol = Symbol('caller');

export interface Envelope {
  requestId: string;
  status: number;
  error: ErrorObject | null;
  controller: string | null;
  action: string | null;
  collection: string | null;
  index: string | null;
  volatile: Record<string, unknown> | null;
  result: unknown;
  /** For the RateLimit headers of HTTP answers (README "Rate limits"). */
  [RATE_STATE]?: RateState;
  /** The authenticated caller (absent: not authenticated, or a public operation), for the access log. */
  [CALLER]?: Principal;
}

/** The envelope of one answer to a request; `addressed` operations name the request's collection and index. */
export function buildEnvelope(
  req: { requestId: string; controller: string; action: string; collection: string | null; volatile: Record<string, unknown> | null },
  outcome: Result<unknown>,
  index: string | null,
  addressed: boolean,
): Envelope {
  return {
    requestId: req.requestId,
    status: outcome.ok ? 200 : outcome.error.status,
    error: outcome.ok ? null : outcome.error.toObject(),
    controller: req.controller,
    action: req.action,
    collection: addressed ? req.collection : null,
    index: addressed ? index : null,
    volatile: req.volatile,
    result: outcome.ok ? outcome.value : null,
  };
}
