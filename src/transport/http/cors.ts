/**
 * CORS for every HTTP route (REST /v4, /graphql, the probes, unknown paths), in front of all of them
 * (server.ts), by the `cors` package (the one express documents), one policy from CORS_ORIGINS:
 *
 * - an allowed origin's preflight (OPTIONS) answers 204 with the route family's methods and request
 *   headers and Access-Control-Max-Age; its actual requests carry Access-Control-Allow-Origin (`*`,
 *   or the origin echoed when a list is set) and expose X-Request-Id;
 * - any other origin gets no Access-Control-* header, and its preflight is refused with a 403
 *   envelope naming the origin (never reaching a route: Apollo would answer its CSRF refusal);
 * - a list adds `Vary: Origin` to every answer, so that a cache never gives one origin's answer to
 *   another (`none`, the empty list, needs none: no answer depends on the origin).
 *
 * No credentials mode: tokens travel in Authorization, which needs none (and no cookie is read).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import cors, { type CorsOptions } from 'cors';
import { ApiError } from '../../core/errors';
import { GRAPHQL_PATH } from '../graphql/apollo';
import { requestIdFrom } from '../requestId';
import { errorEnvelope, REST_PREFIX, sendEnvelope } from './restHandler';

export type CorsOrigins = '*' | readonly string[];
export type CorsLayer = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** How long a browser may keep a preflight's answer (Chromium keeps it at most 2 hours, Firefox 24). */
export const CORS_MAX_AGE_SECONDS = 7200;
/** Request headers a page may send: the token, JSON bodies, its own request id. */
export const CORS_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'X-Request-Id'];
/** Apollo's CSRF prevention lets a GET without a JSON content type through when it carries one of these (a preflighted header). */
const APOLLO_PREFLIGHT_HEADERS = ['Apollo-Require-Preflight', 'X-Apollo-Operation-Name'];
/** Answer headers a page may read: the request id, and the rate limit's (README "Rate limits"). */
export const CORS_EXPOSED_HEADERS = ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After'];

/** The methods and request headers a preflight allows, by route family. */
export const CORS_ROUTES = {
  rest: { methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], headers: CORS_REQUEST_HEADERS },
  graphql: { methods: ['GET', 'POST'], headers: [...CORS_REQUEST_HEADERS, ...APOLLO_PREFLIGHT_HEADERS] },
  other: { methods: ['GET', 'HEAD'], headers: CORS_REQUEST_HEADERS },
} as const;

type Family = keyof typeof CORS_ROUTES;

function familyOf(url: string): Family {
  if (url.startsWith(REST_PREFIX)) return 'rest';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  // (express mounts Apollo on /graphql and below)
  return path === GRAPHQL_PATH || path.startsWith(`${GRAPHQL_PATH}/`) ? 'graphql' : 'other';
}

/** A browser's preflight: OPTIONS with the Origin and the method it asks for. */
const isPreflight = (req: IncomingMessage): boolean =>
  req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;

function refusePreflight(req: IncomingMessage, res: ServerResponse, origins: readonly string[]): void {
  const reason =
    origins.length === 0
      ? `cross-origin requests are not allowed (CORS_ORIGINS is not set)`
      : `origin "${req.headers.origin}" is not allowed (not in CORS_ORIGINS)`;
  req.resume();
  sendEnvelope(res, errorEnvelope(requestIdFrom(req.headers['x-request-id']), new ApiError('security.rights.forbidden', { reason })));
}

export function createCorsLayer(origins: CorsOrigins): CorsLayer {
  // `true` echoes the request's origin (and adds Vary: Origin); only allowed origins reach it
  const origin = origins === '*' ? '*' : true;
  const byFamily = {} as Record<Family, ReturnType<typeof cors>>;
  for (const family of Object.keys(CORS_ROUTES) as Family[]) {
    const { methods, headers } = CORS_ROUTES[family];
    const options: CorsOptions = { origin, methods: [...methods], allowedHeaders: [...headers], exposedHeaders: CORS_EXPOSED_HEADERS, maxAge: CORS_MAX_AGE_SECONDS };
    byFamily[family] = cors(options);
  }
  const apply = (req: IncomingMessage, res: ServerResponse, next: () => void) => byFamily[familyOf(req.url ?? '/')](req, res, next);
  if (origins === '*') return apply;
  const allowed = new Set(origins);
  const vary = allowed.size > 0;
  return (req, res, next) => {
    if (vary) res.setHeader('Vary', 'Origin');
    const from = req.headers.origin;
    if (from !== undefined && allowed.has(from)) return apply(req, res, next);
    if (isPreflight(req)) return refusePreflight(req, res, origins);
    next();
  };
}
