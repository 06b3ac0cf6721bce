/**
 * The search body of DESIGN.md "Search": an allow-list of top-level keys, no `script` anywhere,
 * from/size from the arguments (which win) or the body, and the 10,000-document window.
 */
import { isPlainObject, nonNegativeInt } from '../args';
import { fail, type Result } from '../errors';
import type { SearchRequest } from '../../store/port';
import { parseSearchMembers } from './searchMembers';
import { parseTimeout } from './timeValue';

export const ALLOWED_BODY_KEYS = [
  'query', 'sort', 'search_after', 'from', 'size', 'track_total_hits', '_source', 'timeout', 'highlight', 'aggs', 'aggregations',
  'fields', 'docvalue_fields', 'stored_fields', 'terminate_after', 'min_score', 'post_filter', 'explain', 'collapse',
] as const;
export const MAX_RESULT_WINDOW = 10_000;
export const DEFAULT_PAGE_SIZE = 10;

/** Keys refused anywhere in a search body: Elasticsearch's scripting entry points. */
const SCRIPT_KEYS = new Set(['script', 'script_score', 'script_fields']);

/**
 * Path of the first `script` key in a JSON value (depth first, in document order), if any.
 * Iterative, paths written only for the key found: a client's JSON may nest as deep as
 * MAX_JSON_DEPTH (GraphQL variables and literals reach here too).
 */
export function findScript(value: unknown, path: string): string | undefined {
  // each node: its value, its parent node, and its key (or index) there
  const values: unknown[] = [value];
  const parents: number[] = [-1];
  const names: (string | number)[] = [path];
  const stack: number[] = [0];
  while (stack.length > 0) {
    const node = stack.pop() as number;
    const name = names[node];
    if (typeof name === 'string' && node > 0 && SCRIPT_KEYS.has(name)) return pathOf(node, parents, names);
    const item = values[node];
    if (typeof item !== 'object' || item === null) continue;
    if (Array.isArray(item)) {
      // (an array's elements by index: a `terms` query may hold 65,536 strings, none of them visited)
      for (let i = item.length - 1; i >= 0; i--) {
        const child: unknown = item[i];
        if (typeof child !== 'object' || child === null) continue;
        stack.push(values.length);
        values.push(child);
        parents.push(node);
        names.push(i);
      }
      continue;
    }
    const keys = Object.keys(item);
    for (let i = keys.length - 1; i >= 0; i--) {
      const child = (item as Record<string | number, unknown>)[keys[i]];
      // (scalars matter only under a script key)
      if ((typeof child !== 'object' || child === null) && !SCRIPT_KEYS.has(keys[i])) continue;
      stack.push(values.length);
      values.push(child);
      parents.push(node);
      names.push(keys[i]);
    }
  }
  return undefined;
}

function pathOf(node: number, parents: number[], names: (string | number)[]): string {
  const steps: (string | number)[] = [];
  for (let at = node; at > 0; at = parents[at]) steps.push(names[at]);
  let out = names[0] as string;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    out = typeof step === 'number' ? `${out}[${step}]` : out ? `${out}.${step}` : step;
  }
  return out;
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
  if (body.highlight !== undefined && !isPlainObject(body.highlight)) {
    return fail('services.storage.invalid_search_query', { reason: '"highlight" must be an object' });
  }
  const aggs = body.aggs ?? body.aggregations;
  if (body.aggs !== undefined && body.aggregations !== undefined) {
    return fail('services.storage.invalid_search_query', { reason: 'Found two aggregation definitions: "aggs" and "aggregations" (give one)' });
  }
  if (aggs !== undefined && !isPlainObject(aggs)) {
    return fail('services.storage.invalid_search_query', { reason: '"aggs" must be an object of named aggregations' });
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
  // its options are the store's to check (the engine's highlight/options.ts, which the Elasticsearch store uses too)
  if (body.highlight !== undefined) request.highlight = body.highlight as Record<string, unknown>;
  // aggregations are the store's to check (the engine's aggregations/parse.ts, which the Elasticsearch store uses too)
  if (aggs !== undefined) request.aggs = aggs as Record<string, unknown>;
  // its ceiling (SEARCH_TIMEOUT) is checked where the settings are: searchEntities
  const timeout = parseTimeout(body.timeout, Infinity);
  if (!timeout.ok) return timeout;
  if (timeout.value !== undefined) request.timeout = timeout.value;
  return parseSearchMembers(body, request);
}
