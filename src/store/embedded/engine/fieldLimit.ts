/**
 * MAX_FIELDS (Elasticsearch's index.mapping.total_fields.limit) for a writer that keeps a mapping
 * but no index (store/embedded/entityWriter.ts): the check SearchIndex.checkFields makes before a
 * write is committed, with the same message.
 */
import { InvalidDocumentError, type Doc } from '../../port';
import type { IndexMapping } from './mapping';

/** Throws InvalidDocumentError when mapping these documents would take `mapping` past `limit` fields; else the number of fields they add. */
export function checkFieldLimit(mapping: IndexMapping, limit: number, sources: readonly Doc[]): number {
  const room = limit - mapping.fieldCount;
  const added = mapping.newFieldCount(sources, room);
  if (added > room) throw new InvalidDocumentError(`Limit of total fields [${limit}] has been exceeded while adding new fields [${added}] (MAX_FIELDS, index.mapping.total_fields.limit in Elasticsearch)`);
  return added;
}
