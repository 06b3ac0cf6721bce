/**
 * GraphQL over WebSocket (graphql-ws protocol) on /graphql: the same schema, limits and errors as
 * HTTP. The token comes from connectionParams (`Authorization: "Bearer …"`) or the upgrade request,
 * and is authenticated again when each operation starts.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule, getOperationAST, parse, type DocumentNode, type ExecutionArgs, type ExecutionResult, type GraphQLFormattedError, type GraphQLSchema, type ValidationRule } from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import { serveGraphqlWs } from './wsAdapter';
import type { Context as WsContext } from 'graphql-ws';
import { WebSocketServer } from 'ws';
import type { CoreDeps } from '../../core/deps';
import type { ApiError } from '../../core/errors';
import { DEFAULT_MAX_JSON_DEPTH, MAX_GRAPHQL_DOCUMENT_DEPTH, checkJsonValue, graphqlDepthExceeds, tooDeep } from '../jsonText';
import { bearerToken } from '../requestId';
import { admit } from '../../core/rateLimit/admission';
import { createContext, type GraphQLContext } from './context';
import { formatError, withRequestId } from './errors';
import { validateWithLimits } from './limits';
import { now, type RequestObserver } from '../observe';
import { graphqlRecord, observeErrors, observeOperation, observeRefusal, type GraphQLObservation } from './observed';

type SubscribeContext = WsContext<Record<string, unknown> | undefined, Extra>;

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> => typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

export interface GraphQLWsOptions {
  schema: GraphQLSchema;
  deps: CoreDeps;
  rules: ValidationRule[];
  /** Off: __schema and __type are refused, as Apollo refuses them over HTTP. */
  introspection: boolean;
  maxMessageBytes: number;
  /** MAX_JSON_DEPTH: how deep a variable's value may nest (default 1000); the document itself nests at most MAX_GRAPHQL_DOCUMENT_DEPTH. */
  maxJsonDepth?: number;
  reportInternal: (err: unknown) => void;
  /** The client address of a connection (from its upgrade request), for the rate limits. */
  clientOf?: (upgrade: IncomingMessage) => string | null;
  /** Told of each operation once it ran, or once its subscription is set up (metrics, access log). */
  observer?: RequestObserver;
}

function tokenOf(params: Record<string, unknown> | undefined, request: IncomingMessage): string | null {
  const header = params?.Authorization ?? params?.authorization;
  if (typeof header === 'string') return bearerToken(header);
  for (const key of ['token', 'jwt']) if (typeof params?.[key] === 'string') return params[key] as string;
  return bearerToken(request.headers.authorization);
}

/** graphql-ws sends an onSubscribe answer as errors only when it is an array of GraphQLError instances. */
function refuse(errors: readonly GraphQLError[], requestId: string, reportInternal: (err: unknown) => void): GraphQLError[] {
  return errors.map((e) => {
    const [formatted] = withRequestId([formatError(e.toJSON(), e, reportInternal)], requestId);
    return new GraphQLError(formatted.message, { nodes: e.nodes, source: e.source, positions: e.positions, path: e.path, extensions: formatted.extensions });
  });
}

/** (status 400 comes with the code: formatError gives it to GraphQL's own refusals) */
const badRequest = (message: string) => new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } });

/** An error of graphql-js's variable coercion (what Apollo answers 400 BAD_USER_INPUT). */
const isVariableError = (error: GraphQLError) => error.nodes?.length === 1 && error.nodes[0].kind === Kind.VARIABLE_DEFINITION;

/** A parse, validation or variable error with the code Apollo gives it over HTTP, unless it has one (the limits' codes). */
const coded = (error: GraphQLError, code: string) =>
  error.extensions.code !== undefined ? error : new GraphQLError(error.message, { nodes: error.nodes, source: error.source, positions: error.positions, extensions: { ...error.extensions, code } });

/** A request refused before graphql-js sees it (too deep, a number out of range), coded with the catalogue's id. */
const requestError = (error: ApiError) =>
  new GraphQLError(error.message, { extensions: { code: error.id, status: error.status, errorCode: error.code, ...(Object.keys(error.props).length > 0 ? { props: error.props } : {}) } });

/**
 * A subscription's stream that calls `onEnd` once when it ends: it completes, fails, or is
 * returned (the client completes it, or the connection closes).
 */
function endingOnce<T>(iterable: AsyncIterable<T>, onEnd: () => void): AsyncIterableIterator<T> {
  const it = iterable[Symbol.asyncIterator]();
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      onEnd();
    }
  };
  const wrapper: AsyncIterableIterator<T> = {
    next: () =>
      it.next().then(
        (r) => {
          if (r.done === true) end();
          return r;
        },
        (err: unknown) => {
          end();
          throw err;
        },
      ),
    return: (value?: unknown) => {
      end();
      return it.return !== undefined ? it.return(value) : Promise.resolve({ done: true, value: undefined });
    },
    throw: (err: unknown) => {
      end();
      return it.throw !== undefined ? it.throw(err) : Promise.reject(err);
    },
    // (graphql-ws calls return() when the client completes it or the connection closes)
    [Symbol.asyncIterator]: () => wrapper,
  };
  return wrapper;
}

export function createGraphQLWs({
  schema,
  deps,
  rules,
  introspection,
  maxMessageBytes,
  maxJsonDepth = DEFAULT_MAX_JSON_DEPTH,
  reportInternal,
  clientOf = (upgrade) => upgrade.socket.remoteAddress ?? null,
  observer,
}: GraphQLWsOptions) {
  /** Subscriptions running over every connection. */
  let live = 0;
  const documentDepth = Math.min(maxJsonDepth, MAX_GRAPHQL_DOCUMENT_DEPTH);
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes, perMessageDeflate: false });
  const validate = validateWithLimits(introspection ? rules : [...rules, NoSchemaIntrospectionCustomRule]);
  const format = (errors: readonly (GraphQLFormattedError | GraphQLError)[], requestId: string) =>
    withRequestId(
      errors.map((e) => formatError(e instanceof GraphQLError ? e.toJSON() : e, e, reportInternal)),
      requestId,
    );

  /** An operation's execution arguments, or the errors that refuse it. */
  async function prepare(ctx: SubscribeContext, payload: SubscribePayload, requestId: string, observed: GraphQLObservation | undefined): Promise<ExecutionArgs | GraphQLError[]> {
    // graphql-js's parser recurses: a document nested too deep is refused before it is parsed;
    // variables (parsed by graphql-ws, whose JSON.parse accepts any depth) get a body's limits
    if (typeof payload.query === 'string' && graphqlDepthExceeds(payload.query, documentDepth)) return refuse([requestError(tooDeep(documentDepth))], requestId, reportInternal);
    const unfit = payload.variables == null ? undefined : checkJsonValue(payload.variables, { maxDepth: maxJsonDepth, wrapping: 1 });
    if (unfit !== undefined) return refuse([requestError(unfit)], requestId, reportInternal);
    let document: DocumentNode;
    try {
      document = parse(payload.query);
    } catch (err) {
      return refuse([err instanceof GraphQLError ? coded(err, 'GRAPHQL_PARSE_FAILED') : badRequest(String(err))], requestId, reportInternal);
    }
    const errors = validate(schema, document);
    if (errors.length > 0) return refuse(errors.map((e) => coded(e, 'GRAPHQL_VALIDATION_FAILED')), requestId, reportInternal);
    const operation = getOperationAST(document, payload.operationName);
    if (!operation) return refuse([badRequest('Unable to identify the operation')], requestId, reportInternal);
    if (observed !== undefined) observeOperation(observed, operation);
    // each operation is admitted as a request (authentication and rate limits) when it starts
    const jwt = tokenOf(ctx.connectionParams, ctx.extra.request);
    const { principal } = await admit(deps, jwt, clientOf(ctx.extra.request));
    if (!principal.ok && principal.error.id === 'api.process.too_many_requests') {
      observeRefusal(observed, principal.error);
      return refuse([requestError(principal.error)], requestId, reportInternal);
    }
    const contextValue: GraphQLContext = createContext(deps, jwt, requestId, principal);
    if (observed !== undefined) {
      observed.caller = principal.ok ? principal.value : undefined;
      contextValue.observed = observed;
    }
    return { schema, document, variableValues: payload.variables, operationName: payload.operationName, contextValue };
  }

  const disposable = serveGraphqlWs(
    {
      schema,
      // Parse and validate here, so that even a refused operation's errors carry a requestId.
      async onSubscribe(ctx, _id, payload) {
        const requestId = randomUUID();
        const observed: GraphQLObservation | undefined = observer === undefined ? undefined : { startedAt: now(), requestId, client: clientOf(ctx.extra.request) };
        const prepared = await prepare(ctx, payload, requestId, observed);
        if (Array.isArray(prepared) && observed !== undefined) {
          // refused before it ran: its record now (a rate limit's refusal already noted)
          if (observed.status === undefined) observeErrors(observed, prepared);
          observer!.request(graphqlRecord(observed, 400));
        }
        return prepared;
      },
      onOperation(_ctx, _id, _payload, args, operationResult) {
        // (graphql-ws awaits the execution before it calls this)
        const result = operationResult as ExecutionResult | AsyncIterable<ExecutionResult>;
        const observed = (args.contextValue as GraphQLContext).observed;
        const subscribed = isAsyncIterable(result);
        if (observed !== undefined) {
          if (!subscribed) observeErrors(observed, result.errors);
          observer!.request(graphqlRecord(observed, 200));
        }
        if (!subscribed) return undefined;
        live++;
        return endingOnce(result, () => live--);
      },
      onNext(_ctx, _id, _payload, args, result) {
        if (!result.errors) return result;
        // no data at all: variables refused before anything ran, coded as Apollo codes them over HTTP
        const errors = result.data === undefined ? result.errors.map((e) => (e instanceof GraphQLError && isVariableError(e) ? coded(e, 'BAD_USER_INPUT') : e)) : result.errors;
        return { ...result, errors: format(errors, (args.contextValue as GraphQLContext).requestId) };
      },
    },
    wss,
  );
  return {
    wss,
    /** Subscriptions running now (metrics). */
    get subscriptions(): number {
      return live;
    },
    async close(): Promise<void> {
      for (const client of wss.clients) client.close(1001, 'server shutting down');
      await disposable.dispose();
    },
  };
}
