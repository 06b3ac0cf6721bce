/**
 * GraphQL over HTTP: Apollo Server 5 on express 5 at /graphql. The context carries the caller's
 * bearer token; resolvers authenticate through the core when they run.
 */
import { ApolloServer, HeaderMap, type HTTPGraphQLRequest } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { GraphQLSchema, ValidationRule } from 'graphql';
import type { CoreDeps } from '../../core/deps';
import { ApiError } from '../../core/errors';
import { isPlainObject } from '../../core/args';
import { isJson, readJsonBody } from '../http/readBody';
import { DEFAULT_MAX_JSON_DEPTH, MAX_GRAPHQL_DOCUMENT_DEPTH, graphqlDepthExceeds, jsonTextDepthExceeds, numberOutOfRange, outOfRangeNumber, tooDeep } from '../jsonText';
import { bearerToken, requestIdFrom } from '../requestId';
import { admit } from '../../core/rateLimit/admission';
import type { ClientAddressOf } from '../clientAddress';
import { setRateLimitHeaders } from '../rateLimitHeaders';
import { createContext, type GraphQLContext } from './context';
import { formatError, withRequestId } from './errors';
import { now, type RequestObserver } from '../observe';
import { graphqlRecord, observeErrors, observeOperation, observeRefusal, type GraphQLObservation } from './observed';
import { jitGateway } from './jitExecutor';
import { stringifyAnswer } from './rawJson';

export const GRAPHQL_PATH = '/graphql';

export interface ApolloOptions {
  schema: GraphQLSchema;
  deps: CoreDeps;
  rules: ValidationRule[];
  introspection: boolean;
  maxBodyBytes: number;
  /** MAX_JSON_DEPTH: how deep a variable's value may nest (default 1000); the document itself nests at most MAX_GRAPHQL_DOCUMENT_DEPTH. */
  maxJsonDepth?: number;
  reportInternal: (err: unknown) => void;
  /** The address a request counts against (rate limits); default: the socket's. */
  clientOf?: ClientAddressOf;
  /** Told of each request once answered (metrics, access log). */
  observer?: RequestObserver;
}

export interface GraphQLHttp {
  server: ApolloServer<GraphQLContext>;
  /** Mounts /graphql on the app; the handler answers 503 until start() resolves. */
  mount(app: Express): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The observation of the request a response answers (set by the layer when observed). */
const observationOf = (res: Response): GraphQLObservation | undefined => res.locals.observed as GraphQLObservation | undefined;

/** A request refused before Apollo sees it, as a GraphQL error with the catalogue's id. */
function refuseRequest(res: Response, error: ApiError, requestId: string): void {
  observeRefusal(observationOf(res), error);
  const props = Object.keys(error.props).length > 0 ? { props: error.props } : {};
  res.status(error.status).json({ errors: [{ message: error.message, extensions: { code: error.id, status: error.status, errorCode: error.code, requestId, ...props } }] });
}

/** A body that cannot be read (or was not read to its end). */
function bodyError(res: Response, error: ApiError, requestId: string): void {
  res.setHeader('Connection', 'close'); // what is left of the body may not have been read
  refuseRequest(res, error, requestId);
}

/** A document nested deeper than graphql-js's recursive parser can take: refused before Apollo parses it. */
function refusal(query: unknown, documentDepth: number): ApiError | undefined {
  if (typeof query === 'string' && graphqlDepthExceeds(query, documentDepth)) return tooDeep(documentDepth);
  return undefined;
}

/** A GET's query string (`?query=…&variables=…`, which Apollo reads itself): the document, and the variables as a body's. */
function searchRefusal(url: string, limits: { maxDepth: number; documentDepth: number }): ApiError | undefined {
  const q = url.indexOf('?');
  if (q === -1) return undefined;
  const params = new URLSearchParams(url.slice(q + 1));
  const refused = refusal(params.get('query') ?? undefined, limits.documentDepth);
  if (refused !== undefined) return refused;
  const variables = params.get('variables');
  if (variables !== null) {
    if (jsonTextDepthExceeds(variables, limits.maxDepth + 1)) return tooDeep(limits.maxDepth);
    const number = outOfRangeNumber(variables);
    if (number !== undefined) return numberOutOfRange(number);
  }
  return undefined;
}

/**
 * Apollo's view of an HTTP request. What @as-integrations/express5 does, without parsing the URL
 * again (the query string is all Apollo reads of it).
 */
function apolloRequest(req: Request): HTTPGraphQLRequest {
  const headers = new HeaderMap();
  const all = req.headers;
  for (const key in all) {
    const value = all[key];
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  const url = req.url;
  const q = url.indexOf('?');
  return { method: (req.method ?? 'GET').toUpperCase(), headers, search: q === -1 ? '' : url.slice(q), body: req.body };
}

/**
 * Apollo's answer written with Node's own writeHead and end: express's res.send (content type
 * guessing, ETag and freshness checks, a Buffer copy) costs about 5% of a search request.
 */
async function sendApolloAnswer(res: Response, answer: Awaited<ReturnType<ApolloServer['executeHTTPGraphQLRequest']>>): Promise<void> {
  const headers: string[] = [];
  for (const [key, value] of answer.headers) headers.push(key, value);
  const status = answer.status ?? 200;
  if (answer.body.kind === 'complete') {
    const text = answer.body.string;
    headers.push('Content-Length', String(Buffer.byteLength(text)));
    res.writeHead(status, headers);
    res.end(text);
    return;
  }
  res.writeHead(status, headers); // incremental delivery (@defer): each part as it comes
  for await (const chunk of answer.body.asyncIterator) res.write(chunk);
  res.end();
}

export function createGraphQLHttp(options: ApolloOptions): GraphQLHttp {
  const server = new ApolloServer<GraphQLContext>({
    // the schema, executed by graphql-jit (jitExecutor.ts)
    gateway: jitGateway(options.schema),
    introspection: options.introspection,
    validationRules: options.rules,
    includeStacktraceInErrorResponses: false,
    // stored source texts are copied into answers, not serialized again (rawJson.ts)
    stringifyResult: stringifyAnswer,
    // The composition root owns SIGINT/SIGTERM; Apollo's own handlers would race it and re-raise the signal.
    stopOnTerminationSignals: false,
    plugins: [
      // No Apollo landing page (its Sandbox loads from a CDN): browsers get the gateway's own
      // GraphiQL, served before this handler when the console's IDE is on (transport/console).
      ApolloServerPluginLandingPageDisabled(),
      // no cache hints are used: without this plugin's per-field hook, resolvers run uninstrumented
      ApolloServerPluginCacheControlDisabled(),
      {
        // Every error of an answer carries its requestId, parse and validation errors included.
        // And the operation, its errors, are told to the observer (metrics, access log).
        async requestDidStart({ contextValue }) {
          return {
            async didResolveOperation({ operation }) {
              if (operation !== undefined) observeOperation(contextValue.observed, operation);
            },
            async willSendResponse({ response }) {
              if (response.body.kind === 'single' && response.body.singleResult.errors) {
                response.body.singleResult.errors = withRequestId(response.body.singleResult.errors, contextValue.requestId);
                observeErrors(contextValue.observed, response.body.singleResult.errors);
              }
            },
          };
        },
      },
    ],
    formatError: (formatted, error) => formatError(formatted, error, options.reportInternal),
  });
  const maxDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const limits = { maxDepth, documentDepth: Math.min(maxDepth, MAX_GRAPHQL_DOCUMENT_DEPTH) };
  // a body is {query, variables: {name: value}}: each value may nest maxDepth levels
  const json = { maxDepth, wrapping: 2 };
  const clientOf = options.clientOf ?? ((req: Request) => req.socket.remoteAddress ?? null);
  /** Runs one request through Apollo (set once Apollo has started). */
  let handler: ((req: Request, res: Response, requestId: string) => Promise<void>) | undefined;
  return {
    server,
    mount(app) {
      // One express layer: request id, then the JSON body read as REST reads it (readBody.ts: the
      // same limit and errors), then Apollo. express.json() in layers of its own cost about 150 µs
      // a request more (README, "Decisions").
      // A body that is not JSON (a GET, another type) is left to Apollo, which answers it.
      const graphql: RequestHandler = (req, res, next) => {
        const requestId = requestIdFrom(req.headers['x-request-id']);
        res.setHeader('X-Request-Id', requestId);
        const observer = options.observer;
        if (observer !== undefined) {
          // one record per request, once answered
          const observed: GraphQLObservation = { startedAt: now(), requestId, client: clientOf(req) };
          res.locals.observed = observed;
          res.once('finish', () => observer.request(graphqlRecord(observed, res.statusCode, req.method, GRAPHQL_PATH)));
        }
        const run = handler;
        if (run === undefined) {
          res.status(503).json({ errors: [{ message: 'GraphQL is starting', extensions: { code: 'services.storage.not_connected', status: 503, requestId } }] });
          return;
        }
        const contentType = req.headers['content-type'];
        if (contentType === undefined || !isJson(contentType)) {
          req.body = undefined;
          const refused = searchRefusal(req.url, limits);
          if (refused !== undefined) return refuseRequest(res, refused, requestId);
          run(req, res, requestId).catch(next);
          return;
        }
        readJsonBody(
          req,
          options.maxBodyBytes,
          (body) => {
            if (!body.ok) return bodyError(res, body.error, requestId);
            const refused = isPlainObject(body.body) ? refusal(body.body.query, limits.documentDepth) : undefined;
            if (refused !== undefined) return refuseRequest(res, refused, requestId);
            req.body = body.body;
            run(req, res, requestId).catch(next);
          },
          json,
        );
      };
      app.use(GRAPHQL_PATH, graphql);
    },
    async start() {
      await server.start();
      handler = async (req, res, requestId) => {
        // once per request, before it runs: who calls, and whether they may now (rate limits)
        const jwt = bearerToken(req.headers.authorization);
        const { principal, rate } = await admit(options.deps, jwt, clientOf(req));
        if (rate !== null) setRateLimitHeaders(res, rate);
        if (!principal.ok && principal.error.id === 'api.process.too_many_requests') return refuseRequest(res, principal.error, requestId);
        const context = createContext(options.deps, jwt, requestId, principal);
        const observed = observationOf(res);
        if (observed !== undefined) {
          observed.caller = principal.ok ? principal.value : undefined;
          context.observed = observed;
        }
        await sendApolloAnswer(res, await server.executeHTTPGraphQLRequest({ httpGraphQLRequest: apolloRequest(req), context: async () => context }));
      };
    },
    async stop() {
      if (handler !== undefined) await server.stop();
    },
  };
}
