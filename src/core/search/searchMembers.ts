/**
 * The members of a search body beyond the query and the page (README "Search"): their JSON types
 * are checked here, as Elasticsearch's SearchSourceBuilder.parseXContent reads them; what they
 * mean (field patterns, the collapse field's type, the post_filter query) is the store's to check.
 */
import { isPlainObject } from '../args';
import { fail, ok, type Result } from '../errors';
import type { SearchRequest } from '../../store/port';

const invalidType = (name: string, expected: string): Result<never> => fail('api.assert.invalid_type', { name, expected });
const invalidArgument = (name: string, reason: string): Result<never> => fail('api.assert.invalid_argument', { name, reason });

/** `track_total_hits`: true, false, or an integer of at least -1 (-1 is false, as in Elasticsearch). */
function trackTotalHits(value: unknown): Result<boolean | number> {
  if (typeof value === 'boolean') return ok(value);
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return invalidType('track_total_hits', 'true, false or an integer');
  if (value < -1) return invalidArgument('track_total_hits', `[track_total_hits] parameter must be positive or equals to -1, got ${value}`);
  return ok(value === -1 ? false : value);
}

function nonNegative(name: string, value: unknown): Result<number> {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) return invalidType(name, 'a non-negative integer');
  if (value < 0) return invalidArgument(name, `[${name}] must be a non-negative integer, got ${value}`);
  return ok(value);
}

/** A list of field patterns or `{field, format?, include_unmapped?}` objects (`fields`, `docvalue_fields`). */
function fieldList(name: string, value: unknown): Result<unknown[]> {
  const list = typeof value === 'string' || isPlainObject(value) ? [value] : value;
  if (!Array.isArray(list)) return invalidType(name, 'an array of field names or {field, format} objects');
  for (const item of list) if (typeof item !== 'string' && !isPlainObject(item)) return invalidType(name, 'an array of field names or {field, format} objects');
  return ok(list);
}

function storedFields(value: unknown): Result<string | string[]> {
  if (typeof value === 'string') return ok(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return ok(value as string[]);
  return invalidType('stored_fields', 'a field name or an array of field names');
}

/** Copies the body's fetch and collection members onto the request, each checked for its JSON type. */
export function parseSearchMembers(body: Record<string, unknown>, request: SearchRequest): Result<SearchRequest> {
  if (body.track_total_hits !== undefined) {
    const track = trackTotalHits(body.track_total_hits);
    if (!track.ok) return track;
    request.track_total_hits = track.value;
  }
  if (body.terminate_after !== undefined) {
    const after = nonNegative('terminate_after', body.terminate_after);
    if (!after.ok) return after;
    request.terminate_after = after.value;
  }
  if (body.min_score !== undefined) {
    if (typeof body.min_score !== 'number' || !Number.isFinite(body.min_score)) return invalidType('min_score', 'a number');
    request.min_score = body.min_score;
  }
  if (body.post_filter !== undefined) {
    if (!isPlainObject(body.post_filter)) return fail('services.storage.invalid_search_query', { reason: '"post_filter" must be an object (a query clause)' });
    request.post_filter = body.post_filter;
  }
  if (body.explain !== undefined) {
    if (typeof body.explain !== 'boolean') return invalidType('explain', 'a boolean');
    request.explain = body.explain;
  }
  if (body.collapse !== undefined) {
    if (!isPlainObject(body.collapse)) return invalidType('collapse', 'an object ({field, inner_hits?})');
    request.collapse = body.collapse;
  }
  for (const name of ['fields', 'docvalue_fields'] as const) {
    if (body[name] === undefined) continue;
    const list = fieldList(name, body[name]);
    if (!list.ok) return list;
    request[name] = list.value;
  }
  if (body.stored_fields !== undefined) {
    const stored = storedFields(body.stored_fields);
    if (!stored.ok) return stored;
    request.stored_fields = stored.value;
  }
  return ok(request);
}

/** The members only entity searches take: an API key search refuses them (its hits show a key's public fields only). */
export const ENTITY_ONLY_MEMBERS = ['fields', 'docvalue_fields', 'stored_fields', 'explain', 'collapse'] as const;

/** A 400 naming the first entity-only member of an API key search, if any. */
export function refuseEntityOnlyMembers(request: SearchRequest): Result<SearchRequest> {
  for (const name of ENTITY_ONLY_MEMBERS) {
    if (request[name] !== undefined) return fail('services.storage.invalid_search_query', { reason: `unsupported body key "${name}" in an API key search (entity searches only)` });
  }
  return ok(request);
}
