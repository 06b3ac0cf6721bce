/** Object-type resolvers: entities by their `entityType`, hits, keys. Entities are resolved from their `_source`. */
import type { Doc, Hit } from '../../../store/port';
import type { EntityChange } from '../../../core/events/changeFeed';

/** entityType -> GraphQL type, for the types with a GraphQL type of their own. */
const TYPED: Record<string, string> = { country: 'Country' };

export const entityTypeResolvers = {
  Entity: {
    __resolveType: (doc: Doc) => TYPED[String(doc.entityType)] ?? 'GenericEntity',
  },
  Country: { data: (doc: Doc) => doc },
  GenericEntity: { data: (doc: Doc) => doc },
  SearchHit: {
    id: (hit: Hit) => hit._id,
    score: (hit: Hit) => hit._score,
    entity: (hit: Hit) => hit._source,
    source: (hit: Hit) => hit._source,
  },
  ApiKeyHit: {
    id: (hit: Hit) => hit._id,
    score: (hit: Hit) => hit._score,
    key: (hit: Hit) => ({ id: hit._id, ...hit._source }),
  },
  EntityChange: {
    action: (change: EntityChange) => change.action.toUpperCase(),
    id: (change: EntityChange) => change._id,
    entity: (change: EntityChange) => change._source,
  },
};
