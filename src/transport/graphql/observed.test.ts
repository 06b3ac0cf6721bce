import { getOperationAST, GraphQLError, parse } from 'graphql';
import { ApiError } from '../../core/errors';
import { toGraphQLError } from './errors';
import { graphqlRecord, observeErrors, observeOperation, observeRefusal, rootField, type GraphQLObservation } from './observed';

const operation = (query: string) => getOperationAST(parse(query))!;
const fresh = (): GraphQLObservation => ({ startedAt: 0, requestId: 'r', client: null });

describe('GraphQL observations', () => {
  it("name an operation by its type and root field (never an alias), 'multiple' for more", () => {
    expect(rootField(operation('{ mine: search(type: "countries") { total } }'))).toBe('search');
    expect(rootField(operation('{ a: count(type: "x") b: count(type: "y") }'))).toBe('multiple');
    expect(rootField(operation('{ ... on Query { me { id } } }'))).toBe('multiple');
    const o = fresh();
    observeOperation(o, operation('mutation Make { createApiKey(description: "d") { id } }'));
    expect(o).toMatchObject({ operation: 'mutation', field: 'createApiKey', operationName: 'Make' });
    expect(graphqlRecord(o, 200)).toMatchObject({ transport: 'graphql', controller: 'mutation', action: 'createApiKey', known: true, status: 200 });
    expect(graphqlRecord(fresh(), 400)).toMatchObject({ known: false, status: 400, controller: undefined });
  });

  it("take the first error's status and code, raw or formatted; an unexpected error is a 500", () => {
    const raw = fresh();
    observeErrors(raw, [toGraphQLError(new ApiError('security.token.invalid', { reason: 'x' }), 'r')]);
    expect([raw.status, raw.error]).toEqual([401, 'security.token.invalid']);
    const formatted = fresh();
    observeErrors(formatted, [{ message: 'm', extensions: { code: 'GRAPHQL_VALIDATION_FAILED', status: 400 } }]);
    expect([formatted.status, formatted.error]).toEqual([400, 'GRAPHQL_VALIDATION_FAILED']);
    const internal = fresh();
    observeErrors(internal, [new GraphQLError('boom', { originalError: new Error('boom') })]);
    expect(internal.status).toBe(500);
    const none = fresh();
    observeErrors(none, []);
    expect(none.status).toBeUndefined();
  });

  it('note a rate limit refusal with its policy', () => {
    const o = fresh();
    observeRefusal(o, new ApiError('api.process.too_many_requests', { reason: 'r', policy: 'requests' }));
    expect(graphqlRecord(o, 200)).toMatchObject({ status: 429, error: 'api.process.too_many_requests', limitedBy: 'requests' });
  });
});
