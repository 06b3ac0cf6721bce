/** API keys as JSON Schema (core/contract.ts): what a client is shown of a key (publicKey.ts), and the one answer with its token. */
import type { JsonSchema } from '../contract';
import { hitSchema, searchResultSchema } from '../search/searchContract';

const KEY_FIELDS: Record<string, JsonSchema> = {
  description: { type: 'string' },
  expiresAt: { type: 'integer', description: 'ms since Epoch; -1: never expires.' },
  ttl: { type: 'integer', description: 'The lifetime in ms; -1: never expires.' },
  fingerprint: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'Hex SHA-256 of the token: all that is kept of it.' },
  userId: { type: 'string' },
  _service_info: {
    type: 'object',
    required: ['author', 'createdAt'],
    properties: { author: { type: ['string', 'null'] }, createdAt: { type: 'integer' }, updatedAt: { type: ['integer', 'null'] }, updater: { type: ['string', 'null'] } },
  },
};

/** A stored key as a client may see it (the fields a search's `_source` keeps): never a token (publicKey.ts publicKeySource). */
export const API_KEY_SCHEMA: JsonSchema = {
  title: 'ApiKey',
  type: 'object',
  additionalProperties: false,
  properties: KEY_FIELDS,
};

export const API_KEY_CREATED_SCHEMA: JsonSchema = {
  title: 'ApiKeyCreated',
  description: 'The new key with its `token`: the only answer that ever holds it.',
  type: 'object',
  required: ['_id', '_source'],
  additionalProperties: false,
  properties: {
    _id: { type: 'string' },
    _source: {
      type: 'object',
      required: [...Object.keys(KEY_FIELDS), 'token'],
      additionalProperties: false,
      properties: { ...KEY_FIELDS, token: { type: 'string', description: 'A bearer token until `expiresAt`; shown once.' } },
    },
  },
};

export const API_KEY_SEARCH_RESULT_SCHEMA = searchResultSchema('ApiKeySearchResult', hitSchema('ApiKeyHit', API_KEY_SCHEMA), false);

export const EXAMPLE_API_KEY = {
  description: 'CI pipeline',
  expiresAt: 1767232800000,
  ttl: 7200000,
  fingerprint: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  userId: 'alice',
  _service_info: { author: 'alice', createdAt: 1767225600000, updatedAt: null, updater: null },
};
