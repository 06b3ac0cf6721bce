/**
 * The REST paths under /v4/, as one declarative table: method + path template -> controller/action,
 * the path's parameters (`{collection}`, `{_id}`) going where the request carries them. The same
 * table is matched here (matchRoute) and read by the OpenAPI document (openapi/document.ts).
 */

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The parameters a path may hold: the request's collection and its `_id`. */
export type PathParam = 'collection' | '_id';

export interface RouteDef {
  method: RouteMethod;
  /** Below /v4, written as OpenAPI writes paths: `/entity/{collection}/search`. */
  path: string;
  controller: string;
  action: string;
}

export interface RouteMatch {
  controller: string;
  action: string;
  collection: string | null;
  _id: string | null;
}

/**
 * Every route, in matching order: a path's literal segments are tried before a parameter takes
 * the same place (`POST /entity/countries/search` is a search, `GET /entity/countries/search`
 * the entity whose `_id` is "search"). `server:openapi` is answered by the HTTP transport itself
 * (openapi/route.ts); every other route by the operation of its controller:action.
 */
export const ROUTES: readonly RouteDef[] = [
  { method: 'POST', path: '/entity/{collection}/search', controller: 'document', action: 'search' },
  { method: 'POST', path: '/entity/{collection}/count', controller: 'document', action: 'count' },
  { method: 'POST', path: '/entity/{collection}/_bulk', controller: 'document', action: 'mCreate' },
  { method: 'GET', path: '/entity/{collection}/_mapping', controller: 'collection', action: 'getMapping' },
  { method: 'PUT', path: '/entity/{collection}/_mapping', controller: 'collection', action: 'updateMapping' },
  // Kuzzle's route of collection:create (PUT /<index>/<collection>)
  { method: 'PUT', path: '/entity/{collection}', controller: 'collection', action: 'create' },
  { method: 'POST', path: '/entity/{collection}', controller: 'document', action: 'create' },
  { method: 'GET', path: '/entity/{collection}/{_id}', controller: 'document', action: 'get' },
  { method: 'PUT', path: '/entity/{collection}/{_id}', controller: 'document', action: 'replace' },
  { method: 'PATCH', path: '/entity/{collection}/{_id}', controller: 'document', action: 'update' },
  { method: 'DELETE', path: '/entity/{collection}/{_id}', controller: 'document', action: 'delete' },
  { method: 'POST', path: '/api-keys/_create', controller: 'auth', action: 'createApiKey' },
  { method: 'POST', path: '/api-keys/_search', controller: 'auth', action: 'searchApiKeys' },
  { method: 'DELETE', path: '/api-keys/{_id}', controller: 'auth', action: 'deleteApiKey' },
  { method: 'POST', path: '/_checkToken', controller: 'auth', action: 'checkToken' },
  { method: 'POST', path: '/_checkRights', controller: 'auth', action: 'checkRights' },
  // Kuzzle's GET routes of the server controller and of the caller's own user (lib/api/httpRoutes.js)
  { method: 'GET', path: '/_me', controller: 'auth', action: 'getCurrentUser' },
  { method: 'GET', path: '/_now', controller: 'server', action: 'now' },
  { method: 'GET', path: '/_serverInfo', controller: 'server', action: 'info' },
  { method: 'GET', path: '/_healthCheck', controller: 'server', action: 'healthCheck' },
  { method: 'GET', path: '/_getConfig', controller: 'server', action: 'getConfig' },
  { method: 'GET', path: '/_openapi', controller: 'server', action: 'openapi' },
];

/** A template's segments: a literal, or the parameter it names. */
type Segment = { literal: string } | { param: PathParam };

const PARAM = /^\{(collection|_id)\}$/;

/** The segments of a path template; throws on a parameter the requests cannot carry. */
export function templateSegments(path: string): Segment[] {
  return path
    .slice(1)
    .split('/')
    .map((part) => {
      const param = PARAM.exec(part);
      if (param !== null) return { param: param[1] as PathParam };
      if (part.includes('{') || part.includes('}') || part === '') throw new Error(`route ${path}: bad segment "${part}"`);
      return { literal: part };
    });
}

/** The routes of a method and segment count, in table order, compiled once. */
const compiled = new Map<string, { route: RouteDef; segments: Segment[] }[]>();
for (const route of ROUTES) {
  const segments = templateSegments(route.path);
  const key = `${route.method} ${segments.length}`;
  const list = compiled.get(key) ?? [];
  list.push({ route, segments });
  compiled.set(key, list);
}

/** Recent answers: clients call the same few paths over and over. */
const recent = new Map<string, RouteMatch | null>();
const MAX_RECENT = 1000;

/** Matches a path below /v4/ (without the prefix, without the query string). */
export function matchRoute(method: string, path: string): RouteMatch | null {
  const key = `${method} ${path}`;
  const known = recent.get(key);
  if (known !== undefined) return known;
  const found = findRoute(method, path);
  if (recent.size >= MAX_RECENT) recent.clear();
  recent.set(key, found);
  return found;
}

function findRoute(method: string, path: string): RouteMatch | null {
  let segments: string[];
  try {
    segments = path.split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  if (segments.some((s) => s === '')) return null;
  for (const candidate of compiled.get(`${method} ${segments.length}`) ?? []) {
    const found = matchSegments(candidate.route, candidate.segments, segments);
    if (found !== null) return found;
  }
  return null;
}

function matchSegments(route: RouteDef, template: Segment[], segments: string[]): RouteMatch | null {
  const match: RouteMatch = { controller: route.controller, action: route.action, collection: null, _id: null };
  for (let i = 0; i < template.length; i++) {
    const part = template[i];
    if ('literal' in part) {
      if (part.literal !== segments[i]) return null;
    } else {
      match[part.param] = segments[i];
    }
  }
  return match;
}
