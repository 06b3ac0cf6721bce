/**
 * GraphQL over HTTP executed by graphql-jit: each operation is compiled once into a JavaScript
 * function (kept per parsed document: Apollo's document store hands back the same document for the
 * same query text) instead of graphql-js walking the document for every request. Same schema, same
 * resolvers, same results and errors. graphql-js still runs what graphql-jit cannot compile, and
 * documents with a variable inside a list or object literal: graphql-jit reads such literals when
 * it compiles, before variables exist (a JSON argument `{ids: {values: [$id]}}` would lose $id).
 *
 * Apollo Server 4+ has no executor option: its migration guide points to the `gateway` option,
 * which supplies the schema and an executor (no federation involved).
 */
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { BREAK, Kind, execute, getVariableValues, visit, type ASTNode, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

export type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];

/** Per document, per operation name: its compiled form, or null when graphql-js runs it. */
type Compiled = Map<string | undefined, CompiledQuery | null>;

/** Whether a variable appears inside a list or object literal. */
function hasNestedVariables(document: DocumentNode): boolean {
  let found = false;
  const inLiteral = (node: ASTNode) => {
    visit(node, {
      Variable() {
        found = true;
        return BREAK;
      },
    });
    return found ? BREAK : false; // (false: the literal's own nodes are not visited again)
  };
  visit(document, { [Kind.LIST]: inLiteral, [Kind.OBJECT]: inLiteral });
  return found;
}

export function jitGateway(schema: GraphQLSchema): Gateway {
  const compiled = new WeakMap<DocumentNode, Compiled>();
  const compile = (document: DocumentNode, operationName: string | undefined): CompiledQuery | null => {
    let byName = compiled.get(document);
    if (byName === undefined) compiled.set(document, (byName = new Map()));
    let query = byName.get(operationName);
    if (query === undefined) {
      const result = hasNestedVariables(document) ? null : compileQuery(schema, document, operationName);
      query = result !== null && isCompiledQuery(result) ? result : null;
      byName.set(operationName, query);
    }
    return query;
  };
  return {
    async load() {
      return {
        schema,
        executor: async ({ document, operation, request, context }) => {
          const operationName = request.operationName ?? undefined;
          const query = compile(document, operationName);
          const variables = request.variables ?? {};
          // bad variables: graphql-js's own errors (Apollo answers them 400 BAD_USER_INPUT by their form)
          const badVariables = query !== null && operation.variableDefinitions?.length ? 'errors' in getVariableValues(schema, operation.variableDefinitions, variables) : false;
          if (query === null || badVariables) return execute({ schema, document, operationName, variableValues: variables, contextValue: context });
          return (await query.query(undefined, context, variables)) as ExecutionResult;
        },
      };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async stop() {},
  };
}
