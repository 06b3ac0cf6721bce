/**
 * One example of each catalogue error, as a client receives it: the props fill the message's
 * placeholders as the code that raises it would. A record of every ErrorId: an id added to the
 * catalogue without an example here does not compile.
 */
import { ApiError, type ErrorId, type ErrorObject, type ErrorProps } from '../../../core/errors';

const EXAMPLE_PROPS: Record<ErrorId, ErrorProps> = {
  'core.fatal.unexpected_error': {},
  'security.rights.unauthorized': {},
  'security.rights.forbidden': { reason: 'writing entities needs the "writer" or "admin" role' },
  'security.token.invalid': { reason: 'signature verification failed' },
  'security.token.expired': {},
  'security.token.ttl_exceeded': { value: '30d', max: 86400000 },
  'api.assert.invalid_type': { name: 'size', expected: 'a non-negative integer' },
  'api.assert.invalid_argument': { name: 'collection', reason: '"country" is singular: use "countries"' },
  'api.assert.missing_argument': { name: 'description' },
  'api.assert.body_required': {},
  'api.assert.body_too_deep': { limit: 1000 },
  'api.assert.koncorde_dsl_error': { reason: 'unknown keyword "equal"', keyword: 'equal', path: 'equal' },
  'api.process.action_not_found': { what: 'Route "GET /v4/nothing"' },
  'api.process.too_many_requests': { reason: 'more than 600 requests in 60 s (RATE_LIMIT)', policy: 'requests', limit: 600, window: 60, remaining: 0, reset: 17, retryAfter: 17 },
  'services.storage.get_limit_exceeded': { limit: 10000 },
  'services.storage.not_found': { what: 'country', id: 'atlantis' },
  'services.storage.document_already_exists': { what: 'country "atlantis"' },
  'services.storage.not_connected': {},
  'services.storage.invalid_search_query': { reason: 'unsupported query clause "script"' },
  'services.storage.too_many_clauses': { limit: 4096, detail: '' },
  'services.storage.too_many_terms': { count: 70000, limit: 65536 },
  'services.storage.regex_too_long': { length: 1200, clause: 'regexp', limit: 1000 },
  'services.storage.too_complex_to_determinize': { pattern: '"(.*a){20}"', limit: 10000 },
  'services.storage.query_too_deep': { path: 'query.bool.must[0].bool', limit: 30 },
  'services.storage.max_analyzed_offset': { length: 1200000, field: 'description', id: 'atlantis', limit: 1000000 },
  'services.storage.too_many_buckets': { limit: 65536 },
  'services.storage.invalid_mapping': { reason: 'No handler for type [strnig] declared on field [code]' },
  'services.storage.mapping_conflict': { field: 'code', from: 'keyword', to: 'text' },
  'services.storage.strict_dynamic_mapping': { field: 'colour', within: '_doc' },
  'services.storage.document_parse_failed': { field: 'price', type: 'long', id: 'atlantis' },
  'services.storage.search_rejected': { running: 2, queued: 1000, retryAfter: 1 },
  'services.storage.nested_objects_limit': { limit: '10000', id: 'atlantis' },
  'network.http.request_too_large': { limit: 1048576 },
  'network.http.body_parse_failed': { reason: 'Unexpected token } in JSON at position 12' },
};

/** The error object of an example of `id`. */
export const exampleError = (id: ErrorId): ErrorObject => new ApiError(id, EXAMPLE_PROPS[id]).toObject();
