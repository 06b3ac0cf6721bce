/**
 * The catalogue's errors as GraphQL errors: `extensions.code` is the error id, plus `status`,
 * the numeric Kuzzle `errorCode` and `requestId`. Anything unexpected is masked.
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { ApiError, isInternal, toApiError, type Result } from '../../core/errors';
import { LIMIT_EXTENSION } from './limits';

export function toGraphQLError(error: ApiError, requestId: string): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { code: error.id, status: error.status, errorCode: error.code, requestId, ...(Object.keys(error.props).length ? { props: error.props } : {}) },
  });
}

/** A Result's value, or the GraphQL error for its failure. */
export function unwrap<T>(result: Result<T>, requestId: string): T {
  if (result.ok) return result.value;
  throw toGraphQLError(result.error, requestId);
}

/** GraphQL's own refusals of a request (Apollo's codes): answered 400, and given that status. */
const REQUEST_ERRORS = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'OPERATION_RESOLUTION_FAILURE', 'BAD_REQUEST']);

/**
 * Apollo's and graphql-ws's last word on every error: errors of ours and GraphQL's own (syntax,
 * validation, bad variables) pass; anything else a resolver threw is an internal error.
 */
export function formatError(formatted: GraphQLFormattedError, error: unknown, report: (err: unknown) => void): GraphQLFormattedError {
  const limit = formatted.extensions?.[LIMIT_EXTENSION];
  if (typeof limit === 'string') {
    const { [LIMIT_EXTENSION]: _marker, ...extensions } = formatted.extensions ?? {};
    return { ...formatted, extensions: { ...extensions, code: limit, status: 400 } };
  }
  const code = formatted.extensions?.code;
  if (typeof code === 'string' && REQUEST_ERRORS.has(code) && formatted.extensions?.status === undefined) {
    return { ...formatted, extensions: { ...formatted.extensions, status: 400 } };
  }
  const original = unwrapResolverError(error);
  if (original instanceof ApiError) return formatted;
  if (original instanceof GraphQLError || (formatted.extensions?.code !== undefined && formatted.extensions.code !== 'INTERNAL_SERVER_ERROR')) {
    return formatted;
  }
  // Thrown, not returned: a store failure (503, 400) or an internal error (masked, reported).
  const mapped = toApiError(original);
  if (isInternal(mapped)) report(original);
  return {
    message: mapped.message,
    path: formatted.path,
    locations: formatted.locations,
    extensions: { code: mapped.id, status: mapped.status, errorCode: mapped.code, requestId: formatted.extensions?.requestId },
  };
}

/** Adds the operation's requestId to every error that has none (parse and validation errors). */
export function withRequestId(errors: readonly GraphQLFormattedError[], requestId: string): GraphQLFormattedError[] {
  return errors.map((e) => (e.extensions?.requestId !== undefined ? e : { ...e, extensions: { ...e.extensions, requestId } }));
}
