/**
 * GraphQL over HTTP executed by graphql-jit: each operation is compiled once into a JavaScript
 * function (kept per parsed document: Apollo's document store hands back the same document for the
 * same query text) instead of graphql-js walking the document for every request. Same schema, same
 * resolvers, same results and errors. graphql-js still runs what graphql-jit cannot compile,
 * operations whose variables graphql-jit refused (for graphql-js's error messages), and
 * documents with a variable inside a list or object literal: graphql-jit reads such literals when
 * it compiles, before variables exist (a JSON argument `{ids: {values: [$id]}}` would lose $id).
 *
 * Apollo Server 4+ has no executor option: its migration guide points to the `gateway` option,
 * which supplies the schema and an executor (no federation involved).
 */
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { BREAK, Kind, execute, visit, type ASTNode, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
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
        executor: async ({ document, request, context }) => {
          const operationName = request.operationName ?? undefined;
          const query = compile(document, operationName);
          const variables = request.variables ?? {};
          const graphqlJs = () => execute({ schema, document, operationName, variableValues: variables, contextValue: context });
          if (query === null) return graphqlJs();
          const result = (await query.query(undefined, context, variables)) as ExecutionResult;
          // errors and no data at all: the variables were refused before anything ran. graphql-js
          // runs it again for its own errors, which Apollo recognizes and answers 400 BAD_USER_INPUT.
          return result.data === undefined && result.errors !== undefined ? graphqlJs() : result;
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
