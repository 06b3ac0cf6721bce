/** Where an entity request points: the configured index, a collection, and for some actions an id. */
import { requiredId } from '../args';
import { fail, ok, type Result } from '../errors';
import type { CoreDeps } from '../deps';
import type { ApiRequest } from '../request';
import { parseCollection, type EntityType } from './entityType';

export function parseAddress(req: ApiRequest, deps: CoreDeps): Result<EntityType> {
  if (req.index !== null && req.index !== undefined && req.index !== deps.settings.indexName) {
    return fail('services.storage.not_found', { what: 'Index', id: String(req.index) });
  }
  return parseCollection(req.collection);
}

export function parseDocumentAddress(req: ApiRequest, deps: CoreDeps): Result<{ type: EntityType; id: string }> {
  const type = parseAddress(req, deps);
  if (!type.ok) return type;
  const id = requiredId('_id', req._id ?? req.args._id);
  if (!id.ok) return id;
  return ok({ type: type.value, id: id.value });
}

export const entityNotFound = (type: EntityType, id: string) => fail<never>('services.storage.not_found', { what: type.entityType, id });
