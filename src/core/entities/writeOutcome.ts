/** Store write outcomes as the catalogue's errors. */
import { fail, type Result } from '../errors';
import type { Doc, WriteOutcome } from '../../store/port';
import type { EntityType } from './entityType';

export function writeFailure(outcome: Exclude<WriteOutcome, 'ok'>, type: EntityType, id: string, doc: Doc): Result<never> {
  switch (outcome) {
    case 'id_taken':
      return fail('services.storage.document_already_exists', { what: `${type.entityType} "${id}"` });
    case 'slug_taken':
      return fail('services.storage.document_already_exists', { what: `A ${type.entityType} with slug "${String(doc.slug)}"` });
    case 'not_found':
      return fail('services.storage.not_found', { what: type.entityType, id });
  }
}
