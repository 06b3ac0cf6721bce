/**
 * What an operation takes and answers, as data: its arguments, its body and its result as JSON
 * Schema (draft 2020-12, the dialect of OpenAPI 3.1), with examples, and the catalogue errors it
 * may answer. Written once beside the operation's `parse`; the HTTP transport makes its OpenAPI
 * document from it (transport/http/openapi), and contract.test.ts checks every operation's parse
 * against it (the arguments and body keys it reads, the examples it accepts).
 */
import { ID_PATTERN } from './args';
import { catalogue, type ErrorId } from './errors';
import { COLLECTION_PATTERN } from './entities/entityType';

/**
 * A JSON Schema, as plain data. A schema with a `title` is one named type, shared by every
 * operation that uses it (the OpenAPI document hoists it into its components under that title).
 */
export type JsonSchema = { [keyword: string]: unknown };

/** An argument besides the body: a REST query parameter, a raw WebSocket message's top-level field. */
export interface ArgContract {
  schema: JsonSchema;
  description: string;
  example: unknown;
}

export interface BodyContract {
  /** Whether a request without a body is refused. */
  required: boolean;
  /**
   * The body. A schema with `additionalProperties: false` lists every key parse accepts (each with
   * `examples`); its parse refuses any other key.
   */
  schema: JsonSchema;
  /** Named examples: each one a body the operation's parse accepts. */
  examples: Record<string, { summary: string; value: unknown }>;
  /** The body's other forms, by media type (REST's Content-Type), beside JSON: e.g. `_bulk`'s NDJSON. */
  alternatives?: Record<string, { schema: JsonSchema; example: string }>;
}

export interface OperationContract {
  summary: string;
  description: string;
  /** Whether the request names one document by `_id` (REST: a path parameter). */
  addressesDocument?: true;
  /** By name; none: the operation reads no argument. */
  args?: Record<string, ArgContract>;
  /** Absent: the operation reads no body. */
  body?: BodyContract;
  /** The envelope's `result` when the operation succeeds. */
  result: JsonSchema;
  resultExample: unknown;
  /**
   * The catalogue errors of the operation itself (parse and run). Those of every request are
   * not listed: malformed or oversized body, rate limit, internal error, and for operations that
   * need one, the token's (see COMMON_ERRORS, AUTHENTICATION_ERRORS).
   */
  errors: readonly ErrorId[];
}

/** What any request may be answered, before or beside its operation. */
export const COMMON_ERRORS: readonly ErrorId[] = [
  'network.http.body_parse_failed',
  'api.assert.body_too_deep',
  'network.http.request_too_large',
  'api.process.too_many_requests',
  'core.fatal.unexpected_error',
];

/** What a request that needs a token may be answered (an API key's token is looked up in the store). */
export const AUTHENTICATION_ERRORS: readonly ErrorId[] = [
  'security.rights.unauthorized',
  'security.token.invalid',
  'security.token.expired',
  'services.storage.not_connected',
];

/** Every error an operation may answer: its own, the common ones, and the token's unless it is public. */
export function errorsOf(contract: OperationContract, isPublic: boolean): ErrorId[] {
  const all = new Set<ErrorId>([...contract.errors, ...COMMON_ERRORS, ...(isPublic ? [] : AUTHENTICATION_ERRORS)]);
  return [...all];
}

/** The id of an entity or an API key (args.ts ID_PATTERN). */
export const ID_SCHEMA: JsonSchema = { type: 'string', pattern: ID_PATTERN.source, minLength: 1, maxLength: 128 };

/** What addresses a request: its collection (entity operations) and the `_id` of its document (REST: the path's parameters). */
export const ADDRESS_ARGS: Record<'collection' | '_id', ArgContract> = {
  collection: {
    schema: { type: 'string', pattern: COLLECTION_PATTERN.source, maxLength: 100 },
    description: 'The hyphenated plural of the entity type: `countries` (type `country`), `business-units` (type `businessUnit`). A singular or malformed one is 400 `api.assert.invalid_argument` naming the plural to use.',
    example: 'countries',
  },
  _id: {
    schema: ID_SCHEMA,
    description: 'The id: 1 to 128 characters of `[A-Za-z0-9_.:-]`.',
    example: 'fr',
  },
};

/** An error as every answer carries it (ErrorObject of errors.ts). */
export const ERROR_OBJECT_SCHEMA: JsonSchema = {
  title: 'ErrorObject',
  description: "The error: its catalogue id and numeric code (Kuzzle's scheme), the message, the status, and the values the message was made of.",
  type: 'object',
  required: ['id', 'code', 'message', 'status'],
  additionalProperties: false,
  properties: {
    id: { title: 'ErrorId', description: 'The closed catalogue of errors.', enum: Object.keys(catalogue) },
    code: { type: 'integer', minimum: 0 },
    message: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    props: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean', 'null'] } },
  },
};

/** What a delete answers. */
export const DELETED_SCHEMA: JsonSchema = { type: 'object', required: ['_id'], additionalProperties: false, properties: { _id: { type: 'string' } } };
