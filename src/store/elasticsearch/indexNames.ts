/**
 * Index names of the Elasticsearch store (DESIGN.md "Elasticsearch store"):
 * - entities: `<prefix>-<collection>`, one index per entity type (`gateway-countries`,
 *   `gateway-business-units`);
 * - API keys: `<prefix>-api-keys`;
 * - slug reservations: `<prefix>_slugs` (see slugReservations.ts).
 *
 * A collection is a hyphenated lowercase plural (`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`), so it never
 * holds `_`: `<prefix>_slugs` cannot be an entity index. The one collision left is the entity type
 * `apiKey`, whose collection `api-keys` would land on the API key index: its entities go to
 * `<prefix>-api-keys_entities` instead (again a name no other collection can produce).
 */
export const COLLECTION_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
export const PREFIX_PATTERN = /^[a-z0-9][a-z0-9_-]{0,99}$/;
const MAX_COLLECTION_LENGTH = 100;
const API_KEYS = 'api-keys';

export interface IndexNames {
  readonly prefix: string;
  /** The index of one entity collection. Throws on a malformed collection (the core validates them first). */
  entities(collection: string): string;
  readonly apiKeys: string;
  readonly slugs: string;
  /** Patterns covering every index of this prefix (for tools and tests: listing, deleting). */
  readonly patterns: string[];
}

export function indexNames(prefix: string): IndexNames {
  if (!PREFIX_PATTERN.test(prefix)) throw new Error(`invalid index prefix "${prefix}": 1 to 100 lowercase letters, digits, "-" or "_", not starting with "-" or "_"`);
  return {
    prefix,
    entities(collection: string): string {
      if (collection.length > MAX_COLLECTION_LENGTH || !COLLECTION_PATTERN.test(collection)) throw new Error(`invalid collection "${collection}"`);
      return collection === API_KEYS ? `${prefix}-${API_KEYS}_entities` : `${prefix}-${collection}`;
    },
    apiKeys: `${prefix}-${API_KEYS}`,
    slugs: `${prefix}_slugs`,
    patterns: [`${prefix}-*`, `${prefix}_slugs`],
  };
}
