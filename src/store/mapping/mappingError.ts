/**
 * A mapping a store refuses, or a document that does not fit a declared mapping; the core answers
 * 400 with the catalogue id `services.storage.<kind>` and these props (core/errors.ts toApiError).
 */

/** invalid_mapping: {reason}; mapping_conflict: {field, from, to}; strict_dynamic_mapping: {field, within}; document_parse_failed: {field, type, id, reason?}; nested_objects_limit: {limit, id}. */
export type MappingErrorKind = 'invalid_mapping' | 'mapping_conflict' | 'strict_dynamic_mapping' | 'document_parse_failed' | 'nested_objects_limit';

export class MappingError extends Error {
  constructor(
    readonly kind: MappingErrorKind,
    readonly props: Record<string, string>,
  ) {
    super(describe(kind, props));
    this.name = 'MappingError';
  }
}

function describe(kind: MappingErrorKind, p: Record<string, string>): string {
  switch (kind) {
    case 'invalid_mapping':
      return `Failed to parse mapping: ${p.reason}`;
    case 'mapping_conflict':
      return `mapper [${p.field}] cannot be changed from type [${p.from}] to [${p.to}]`;
    case 'strict_dynamic_mapping':
      return `mapping set to strict, dynamic introduction of [${p.field}] within [${p.within}] is not allowed`;
    case 'document_parse_failed':
      return `failed to parse field [${p.field}] of type [${p.type}] in document with id '${p.id}'`;
    case 'nested_objects_limit':
      return `The number of nested documents has exceeded the allowed limit of [${p.limit}]. This limit can be set by changing the [index.mapping.nested_objects.limit] index level setting.`;
  }
}
