/**
 * The search body of DESIGN.md "Search": an allow-list of top-level keys, no `script` anywhere,
 * from/size from the arguments (which win) or the body, and the 10,000-document window.
 */
import { isPlainObject, nonNegativeInt } from '../args';
import { fail, ok, type Result } from '../errors';
import type { SearchRequest } from '../../store/port';

export const ALLOWED_BODY_KEYS = ['query', 'sort', 'search_after', 'from', 'size', 'track_total_hits', '_source'] as const;
export const MAX_RESULT_WINDOW = 10_000;
export const DEFAULT_PAGE_SIZE = 10;

/** Path of the first `script` key in a JSON value, if any. */
function findScript(value: unknown, path: string): string | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findScript(value[i], `${path}[${i}]`);
      if (found) return found;
    }
  } else if (isPlainObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (key === 'script' || key === 'script_score' || key === 'script_fields') return here;
      const found = findScript(inner, here);
      if (found) return found;
    }
  }
  return undefined;
}

export function parseSearchRequest(rawBody: unknown, args: Record<string, unknown>): Result<SearchRequest> {
  const body = rawBody === undefined || rawBody === null ? {} : rawBody;
  if (!isPlainObject(body)) return fail('api.assert.invalid_type', { name: 'body', expected: 'a JSON object' });
  for (const key of Object.keys(body)) {
    if (!(ALLOWED_BODY_KEYS as readonly string[]).includes(key)) {
      return fail('services.storage.invalid_search_query', {
        reason: `unsupported body key "${key}" (allowed: ${ALLOWED_BODY_KEYS.join(', ')})`,
      });
    }
  }
  const script = findScript(body, '');
  if (script) return fail('services.storage.invalid_search_query', { reason: `scripts are not allowed ("${script}")` });
  if (body.query !== undefined && !isPlainObject(body.query)) {
    return fail('services.storage.invalid_search_query', { reason: '"query" must be an object' });
  }
  if (body.search_after !== undefined && !Array.isArray(body.search_after)) {
    return fail('services.storage.invalid_search_query', { reason: '"search_after" must be an array' });
  }
  const from = nonNegativeInt('from', args.from ?? body.from);
  if (!from.ok) return from;
  const size = nonNegativeInt('size', args.size ?? body.size);
  if (!size.ok) return size;
  const request: SearchRequest = { from: from.value ?? 0, size: size.value ?? DEFAULT_PAGE_SIZE };
  if (request.from + request.size > MAX_RESULT_WINDOW) {
    return fail('services.storage.get_limit_exceeded', { limit: MAX_RESULT_WINDOW });
  }
  if (body.query !== undefined) request.query = body.query as Record<string, unknown>;
  if (body.sort !== undefined) request.sort = body.sort;
  if (body.search_after !== undefined) request.search_after = body.search_after as unknown[];
  if (body._source !== undefined) request._source = body._source;
  return ok(request);
}
