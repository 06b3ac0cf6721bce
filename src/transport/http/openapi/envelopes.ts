/**
 * The envelope of every /v4 answer (core/envelope.ts) as OpenAPI responses: an operation's success
 * (its `result`), and its errors grouped by status, each status listing the catalogue ids the
 * operation may answer with it, with an example of each.
 */
import { AUTHENTICATION_ERRORS, COMMON_ERRORS, ERROR_OBJECT_SCHEMA, errorsOf, type JsonSchema } from '../../../core/contract';
import { catalogue, type ErrorId } from '../../../core/errors';
import type { Operation } from '../../../core/operation';
import type { Components } from './components';
import { exampleError } from './errorExamples';

/** What the examples show as the configured index (INDEX_NAME's default) and a request id. */
const EXAMPLE_INDEX = 'entity';
const EXAMPLE_REQUEST_ID = '0f8e3c4a-7d3b-4d0e-9c55-2f1a8e6b9d10';

const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });

/** The fields every envelope has. */
const ENVELOPE_FIELDS = ['requestId', 'status', 'error', 'controller', 'action', 'collection', 'index', 'volatile', 'result'];

export const ERROR_ENVELOPE_SCHEMA: JsonSchema = {
  title: 'ErrorEnvelope',
  description: 'An answer refused: `error` says why, `result` is null; the HTTP status equals `status`.',
  type: 'object',
  required: ENVELOPE_FIELDS,
  additionalProperties: false,
  properties: {
    requestId: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    error: ERROR_OBJECT_SCHEMA,
    controller: nullable('string'),
    action: nullable('string'),
    collection: nullable('string'),
    index: nullable('string'),
    volatile: nullable('object'),
    result: { type: 'null' },
  },
};

/** The response headers of every /v4 answer, and those of the rate limit that applied (README "Rate limits"). */
export const HEADERS: Record<string, JsonSchema> = {
  RequestId: { description: 'The request\'s `X-Request-Id` (printable, at most 128 characters), else a new UUIDv4; the envelope\'s `requestId`.', required: true, schema: { type: 'string' } },
  RateLimitPolicy: { description: 'The limit that applied (RATE_LIMIT or RATE_LIMIT_AUTH_FAILURES), when one did: `"requests";q=600;w=60`.', schema: { type: 'string' } },
  RateLimit: { description: 'What is left of it: `"requests";r=599;t=60`.', schema: { type: 'string' } },
  RetryAfter: { description: 'Seconds to wait before the next request.', required: true, schema: { type: 'integer', minimum: 0 } },
};

const header = (name: string): JsonSchema => ({ $ref: `#/components/headers/${name}` });
const rateHeaders = { 'RateLimit-Policy': header('RateLimitPolicy'), RateLimit: header('RateLimit') };

const pascal = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
/** `DocumentSearch`, `AuthCreateApiKey`: the operation's name in the document. */
export const operationName = (op: Pick<Operation, 'controller' | 'action'>): string => pascal(op.controller) + pascal(op.action);

interface Addressed {
  controller: string;
  action: string;
  collection: string | null;
}

function exampleEnvelope({ controller, action, collection }: Addressed, status: number, error: unknown, result: unknown): Record<string, unknown> {
  return { requestId: EXAMPLE_REQUEST_ID, status, error, controller, action, collection, index: collection === null ? null : EXAMPLE_INDEX, volatile: null, result };
}

/** The 200 response of an operation: its envelope, a component named `<Operation>Response`. */
function successResponse(op: Operation, components: Components, collectionExample: string): JsonSchema {
  const contract = op.contract!;
  const addressed = op.addressesCollection ? { type: 'string' } : { type: 'null' };
  const schema = components.add(`${operationName(op)}Response`, {
    description: `The envelope of a ${op.controller}:${op.action} that succeeded.`,
    type: 'object',
    required: ENVELOPE_FIELDS,
    additionalProperties: false,
    properties: {
      requestId: { type: 'string' },
      status: { const: 200 },
      error: { type: 'null' },
      controller: { const: op.controller },
      action: { const: op.action },
      collection: addressed,
      index: addressed,
      volatile: nullable('object'),
      result: contract.result,
    },
  });
  const where = { controller: op.controller, action: op.action, collection: op.addressesCollection ? collectionExample : null };
  return {
    description: contract.summary,
    headers: { 'X-Request-Id': header('RequestId'), ...rateHeaders },
    content: { 'application/json': { schema, example: exampleEnvelope(where, 200, null, contract.resultExample) } },
  };
}

/** Where the example of each error happens: an operation that answers it. */
const EXAMPLE_SITES: Record<string, Addressed> = {
  document: { controller: 'document', action: 'search', collection: 'countries' },
  writes: { controller: 'document', action: 'create', collection: 'countries' },
  auth: { controller: 'auth', action: 'createApiKey', collection: null },
};

function siteOf(id: ErrorId): Addressed {
  if (id === 'security.token.ttl_exceeded' || id === 'api.assert.missing_argument') return EXAMPLE_SITES.auth;
  if (id.startsWith('services.storage.') && !id.includes('not_')) return id === 'services.storage.document_already_exists' ? EXAMPLE_SITES.writes : EXAMPLE_SITES.document;
  return id === 'security.rights.forbidden' || id === 'api.assert.body_required' || id === 'services.storage.not_found' ? EXAMPLE_SITES.writes : EXAMPLE_SITES.document;
}

/** `components.examples`: one envelope of each catalogue error, named by its id. */
export const errorExamples = (): Record<string, JsonSchema> =>
  Object.fromEntries(
    (Object.keys(catalogue) as ErrorId[]).map((id) => {
      const error = exampleError(id);
      return [id, { summary: `${error.status} ${id}`, value: exampleEnvelope(siteOf(id), error.status, error, null) }];
    }),
  );

/** The errors every operation (that needs a token) answers alike, by status: one shared response each (`components.responses`). */
const SHARED = new Set([...COMMON_ERRORS, ...AUTHENTICATION_ERRORS]);

function errorResponse(status: number, ids: readonly ErrorId[], components: Components): JsonSchema {
  return {
    description: ids.map((id) => `\`${id}\``).join(', '),
    headers: { 'X-Request-Id': header('RequestId'), ...rateHeaders, ...(status === 429 ? { 'Retry-After': header('RetryAfter') } : {}) },
    content: {
      'application/json': {
        schema: { allOf: [components.use(ERROR_ENVELOPE_SCHEMA)], properties: { status: { const: status }, error: { properties: { id: { enum: ids }, status: { const: status } } } } },
        examples: Object.fromEntries(ids.map((id) => [id, { $ref: `#/components/examples/${id}` }])),
      },
    },
  };
}

/** `components.responses`: the shared error responses (Error401, Error429, Error500, Error503...). */
export function sharedErrorResponses(components: Components): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const [status, ids] of byStatus([...SHARED])) out[`Error${status}`] = errorResponse(status, ids, components);
  return out;
}

function byStatus(ids: readonly ErrorId[]): Map<number, ErrorId[]> {
  const map = new Map<number, ErrorId[]>();
  for (const id of ids) map.set(catalogue[id].status, [...(map.get(catalogue[id].status) ?? []), id]);
  return new Map([...map].sort(([a], [b]) => a - b));
}

/** The error responses of an operation, by status: the ids it may answer with each (a shared response when they are the shared ones). */
function errorResponses(op: Operation, components: Components): Record<string, JsonSchema> {
  const shared = byStatus([...SHARED]);
  const responses: Record<string, JsonSchema> = {};
  for (const [status, ids] of byStatus(errorsOf(op.contract!, op.public === true))) {
    const same = shared.get(status);
    const isShared = same !== undefined && same.length === ids.length && ids.every((id) => same.includes(id));
    responses[String(status)] = isShared ? { $ref: `#/components/responses/Error${status}` } : errorResponse(status, ids, components);
  }
  return responses;
}

/** Every response of an operation. */
export const operationResponses = (op: Operation, components: Components, collectionExample: string): Record<string, JsonSchema> => ({
  '200': successResponse(op, components, collectionExample),
  ...errorResponses(op, components),
});
