/**
 * What the GraphQL transports tell the RequestObserver of an operation (transport/observe.ts):
 * its type and root field (the schema's names, never an alias: a bounded set), its name, its
 * caller, and its status: the first error's (the catalogue's status Apollo's answers carry in
 * `extensions.status`), else the HTTP status.
 */
import { Kind, type GraphQLError, type GraphQLFormattedError, type OperationDefinitionNode } from 'graphql';
import type { ApiError } from '../../core/errors';
import type { Principal } from '../../core/principal';
import type { RequestRecord } from '../observe';
import { formatError } from './errors';

export interface GraphQLObservation {
  startedAt: number;
  requestId: string;
  client: string | null;
  /** `query`, `mutation` or `subscription`, once the document is valid. */
  operation?: string;
  /** The root field, `multiple` for several (or fragments at the root). */
  field?: string;
  operationName?: string;
  caller?: Principal;
  status?: number;
  error?: string;
  limitedBy?: string;
}

/** The operation's root field, or `multiple`. */
export function rootField(operation: OperationDefinitionNode): string {
  const selections = operation.selectionSet.selections;
  if (selections.length === 1 && selections[0].kind === Kind.FIELD) return selections[0].name.value;
  return 'multiple';
}

/** Notes the operation once resolved (a valid document). */
export function observeOperation(observed: GraphQLObservation | undefined, operation: OperationDefinitionNode): void {
  if (observed === undefined) return;
  observed.operation = operation.operation;
  observed.field = rootField(operation);
  observed.operationName = operation.name?.value;
}

/** Notes the answer's errors (formatted ones, or raw ones from graphql-js, formatted here as they will be). */
export function observeErrors(observed: GraphQLObservation | undefined, errors: readonly (GraphQLFormattedError | GraphQLError)[] | undefined): void {
  if (observed === undefined || errors === undefined || errors.length === 0) return;
  const first = errors[0];
  const formatted = 'toJSON' in first ? formatError(first.toJSON(), first, () => undefined) : first;
  const status = formatted.extensions?.status;
  observed.status = typeof status === 'number' ? status : 500;
  const code = formatted.extensions?.code;
  observed.error = typeof code === 'string' ? code : undefined;
}

/** Notes a request refused before it ran (too deep, a bad body, a rate limit). */
export function observeRefusal(observed: GraphQLObservation | undefined, error: ApiError): void {
  if (observed === undefined) return;
  observed.status = error.status;
  observed.error = error.id;
  const policy = error.props.policy;
  if (error.id === 'api.process.too_many_requests' && typeof policy === 'string') observed.limitedBy = policy;
}

/** The record of an operation; `httpStatus` when its answer's errors tell none (graphql-ws: 200). */
export function graphqlRecord(o: GraphQLObservation, httpStatus: number, method?: string, path?: string): RequestRecord {
  return {
    transport: 'graphql',
    method,
    path,
    controller: o.operation,
    action: o.field,
    known: o.operation !== undefined && o.field !== undefined,
    status: o.status ?? httpStatus,
    error: o.error,
    limitedBy: o.limitedBy,
    requestId: o.requestId,
    client: o.client,
    caller: o.caller,
    operationName: o.operationName,
    startedAt: o.startedAt,
  };
}
