/**
 * The REST paths under /v4/ (spec 4.1, 4.2 and DESIGN.md), as a table: method + path pattern ->
 * controller/action and where the path's parameters go.
 */

export interface RouteMatch {
  controller: string;
  action: string;
  collection: string | null;
  _id: string | null;
}

type Segments = string[];
type Matcher = (method: string, s: Segments) => RouteMatch | null;

const entity = (action: string, collection: string, _id: string | null = null): RouteMatch => ({ controller: 'document', action, collection, _id });
const auth = (action: string, _id: string | null = null): RouteMatch => ({ controller: 'auth', action, collection: null, _id });
const server = (action: string): RouteMatch => ({ controller: 'server', action, collection: null, _id: null });

/** Kuzzle's GET routes of the server controller and of the caller's own user (lib/api/httpRoutes.js), under /v4/. */
const KUZZLE_GETS = new Map<string, RouteMatch>([
  ['_now', server('now')],
  ['_serverInfo', server('info')],
  ['_healthCheck', server('healthCheck')],
  ['_getConfig', server('getConfig')],
  ['_me', auth('getCurrentUser')],
]);

/** Routes, by the segments after /v4/. */
const matchers: Matcher[] = [
  (m, s) => {
    if (s[0] !== 'entity' || s.length < 2 || s.length > 3) return null;
    const [, collection, third] = s;
    if (s.length === 2) return m === 'POST' ? entity('create', collection) : null;
    if (m === 'POST') {
      if (third === 'search') return entity('search', collection);
      if (third === 'count') return entity('count', collection);
      if (third === '_bulk') return entity('mCreate', collection);
      return null;
    }
    if (m === 'GET') return entity('get', collection, third);
    if (m === 'PUT') return entity('replace', collection, third);
    if (m === 'PATCH') return entity('update', collection, third);
    if (m === 'DELETE') return entity('delete', collection, third);
    return null;
  },
  (m, s) => {
    if (s[0] !== 'api-keys' || s.length !== 2) return null;
    if (m === 'POST' && s[1] === '_create') return auth('createApiKey');
    if (m === 'POST' && s[1] === '_search') return auth('searchApiKeys');
    if (m === 'DELETE') return auth('deleteApiKey', s[1]);
    return null;
  },
  (m, s) => (m === 'POST' && s.length === 1 && s[0] === '_checkToken' ? auth('checkToken') : null),
  (m, s) => (m === 'POST' && s.length === 1 && s[0] === '_checkRights' ? auth('checkRights') : null),
  (m, s) => (m === 'GET' && s.length === 1 ? (KUZZLE_GETS.get(s[0]) ?? null) : null),
];

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
  let segments: Segments;
  try {
    segments = path.split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  if (segments.some((s) => s === '')) return null;
  for (const matcher of matchers) {
    const found = matcher(method, segments);
    if (found) return found;
  }
  return null;
}
