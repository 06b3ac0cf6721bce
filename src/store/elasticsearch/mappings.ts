/**
 * What an index is created with: settings and the explicit mapping of the common fields, with
 * dynamic mapping for every other field (DESIGN.md "Elasticsearch store").
 *
 * - Entities: the embedded store's ENTITY_MAPPING (`id`, `entityType`, `slug`, `allowTenantIds`
 *   keyword; `modified` date); the rest is mapped dynamically by Elasticsearch, which is what the
 *   embedded engine imitates (text + `.keyword`, long, float, boolean, date detection).
 * - API keys: API_KEY_MAPPING (`userId`, `tenantId`, `roles`, `fingerprint` keyword).
 * - Slug reservations: a closed mapping (dynamic: false) of four fields.
 *
 * Settings, and why:
 * - `number_of_shards: 1`: BM25 statistics (document count, document frequency, average field
 *   length) are per shard. With one shard they are the whole collection's, exactly as in the
 *   embedded engine, so a query gets the same scores on both stores (without `dfs_query_then_fetch`,
 *   whose extra round trip every search would pay). One shard holds tens of millions of small
 *   entities; reads scale out with replicas.
 * - `auto_expand_replicas: "0-1"`: no replica on a single node (the index stays green), one replica
 *   as soon as a second node joins.
 * - `mapping.ignore_malformed: true` (entities): a value that does not fit a field's existing type
 *   (a string in a long field) is left out of that field instead of failing the whole write, as the
 *   embedded engine does; the document is stored and its other fields indexed.
 */
import { EXPLICIT_TYPES, type Mapping } from '../embedded/engine/mapping';
import { API_KEY_MAPPING, ENTITY_MAPPING } from '../embedded/embeddedStore';

export interface IndexDefinition {
  settings: Record<string, unknown>;
  mappings: Record<string, unknown>;
}

type Properties = Record<string, { type?: string; properties?: Properties }>;

/** Explicit fields as Elasticsearch properties; dotted names become object properties. */
export function explicitProperties(mapping: Mapping): Properties {
  const root: Properties = {};
  const declare = (field: string, type: string) => {
    const parts = field.split('.');
    let level = root;
    for (const part of parts.slice(0, -1)) {
      const node = (level[part] ??= { properties: {} });
      level = node.properties ??= {};
    }
    level[parts[parts.length - 1]] = { type };
  };
  for (const type of EXPLICIT_TYPES) for (const field of mapping[type] ?? []) declare(field, type);
  return root;
}

/** The `mappings` of an index for a Mapping: its explicit fields, and whether others are mapped as they come. */
function mappingsOf(mapping: Mapping): { dynamic: boolean; properties: Properties } {
  return { dynamic: mapping.dynamic !== false, properties: explicitProperties(mapping) };
}

const SHARDING = { number_of_shards: 1, auto_expand_replicas: '0-1' };

export function entityIndexDefinition(): IndexDefinition {
  return {
    settings: { index: { ...SHARDING, mapping: { ignore_malformed: true } } },
    mappings: mappingsOf(ENTITY_MAPPING),
  };
}

export function apiKeyIndexDefinition(): IndexDefinition {
  return {
    settings: { index: { ...SHARDING } },
    mappings: mappingsOf(API_KEY_MAPPING),
  };
}

export function slugIndexDefinition(): IndexDefinition {
  return {
    settings: { index: { ...SHARDING } },
    mappings: {
      dynamic: false,
      properties: { collection: { type: 'keyword' }, slug: { type: 'keyword' }, owner: { type: 'keyword' }, reservedAt: { type: 'long' } },
    },
  };
}
