/**
 * GraphQL over HTTP executed by graphql-jit: each operation is compiled once into a JavaScript
 * function (kept per parsed document: Apollo's document store hands back the same document for the
 * same query text) instead of graphql-js walking the document for every request. Same schema, same
 * resolvers, same results and errors. graphql-js still runs what graphql-jit cannot compile,
 * operations whose variables graphql-jit refused (for graphql-js's error messages), documents
 * with a variable inside a list or object literal: graphql-jit reads such literals when it
 * compiles, before variables exist (a JSON argument `{ids: {values: [$id]}}` would lose $id), and
 * documents whose literals graphql-jit would turn into code (see needsGraphqlJs).
 *
 * Apollo Server 4+ has no executor option: its migration guide points to the `gateway` option,
 * which supplies the schema and an executor (no federation involved).
 */
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { BREAK, execute, visit, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

export type Gateway = ApolloServerOptionsWithGateway<BaseContext>['gateway'];

/** Per document, per operation name: its compiled form, or null when graphql-js runs it. */
type Compiled = Map<string | undefined, CompiledQuery | null>;

/**
 * graphql-jit writes an operation's literal arguments into the JavaScript source of the function
 * it compiles: JSON.stringify's text, then its own markers replaced by code (`"__MAGIC_DATE__…x"`
 * becomes `new Date(x)`, `"__MAGIC_NAN__…"` NaN, …). A client's string holding a marker was thus
 * code run by the server, before any resolver or authentication (graphql-jit 0.8.x). And a literal
 * object key `__proto__` in that source sets the object's prototype instead of being a key.
 * Operations with such literals are not compiled: graphql-js runs them, reading literals as data.
 */
const JIT_MARKER = '__MAGIC_';

/**
 * Whether graphql-js must run the document: a variable inside a list or object literal (see
 * above), a string or enum literal holding graphql-jit's marker, or an object literal key
 * `__proto__`. (graphql-js's visit is iterative.)
 */
export function needsGraphqlJs(document: DocumentNode): boolean {
  let found = false;
  let literalDepth = 0;
  const hit = () => {
    found = true;
    return BREAK;
  };
  const enter = () => void literalDepth++;
  const leave = () => void literalDepth--;
  visit(document, {
    Variable: () => (literalDepth > 0 ? hit() : undefined),
    StringValue: (node) => (node.value.includes(JIT_MARKER) ? hit() : undefined),
    EnumValue: (node) => (node.value.includes(JIT_MARKER) ? hit() : undefined),
    ObjectField: (node) => (node.name.value === '__proto__' || node.name.value.includes(JIT_MARKER) ? hit() : undefined),
    ListValue: { enter, leave },
    ObjectValue: { enter, leave },
  });
  return found;
}

export function jitGateway(schema: GraphQLSchema): Gateway {
  const compiled = new WeakMap<DocumentNode, Compiled>();
  const compile = (document: DocumentNode, operationName: string | undefined): CompiledQuery | null => {
    let byName = compiled.get(document);
    if (byName === undefined) compiled.set(document, (byName = new Map()));
    let query = byName.get(operationName);
    if (query === undefined) {
      const result = needsGraphqlJs(document) ? null : compileQuery(schema, document, operationName);
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
