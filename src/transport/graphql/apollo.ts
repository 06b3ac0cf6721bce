/**
 * GraphQL over HTTP: Apollo Server 5 on express 5 at /graphql. The context carries the caller's
 * bearer token; resolvers authenticate through the core when they run.
 */
import { ApolloServer, HeaderMap, type HTTPGraphQLRequest } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault, ApolloServerPluginLandingPageProductionDefault } from '@apollo/server/plugin/landingPage/default';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { GraphQLSchema, ValidationRule } from 'graphql';
import type { CoreDeps } from '../../core/deps';
import { ApiError } from '../../core/errors';
import { isJson, readJsonBody } from '../http/readBody';
import { bearerToken, requestIdFrom } from '../requestId';
import { createContext, type GraphQLContext } from './context';
import { formatError, withRequestId } from './errors';
import { jitGateway } from './jitExecutor';
import { stringifyAnswer } from './rawJson';

export const GRAPHQL_PATH = '/graphql';

export interface ApolloOptions {
  schema: GraphQLSchema;
  deps: CoreDeps;
  rules: ValidationRule[];
  introspection: boolean;
  landingPage: boolean;
  production: boolean;
  maxBodyBytes: number;
  reportInternal: (err: unknown) => void;
}

export interface GraphQLHttp {
  server: ApolloServer<GraphQLContext>;
  /** Mounts /graphql on the app; the handler answers 503 until start() resolves. */
  mount(app: Express): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A body that cannot be read, as a GraphQL error with the catalogue's id. */
function bodyError(res: Response, error: ApiError, requestId: string): void {
  res.setHeader('Connection', 'close'); // what is left of the body is not read
  res.status(error.status).json({ errors: [{ message: error.message, extensions: { code: error.id, status: error.status, requestId } }] });
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
  const landing = !options.landingPage
    ? ApolloServerPluginLandingPageDisabled()
    : options.production
      ? ApolloServerPluginLandingPageProductionDefault({ footer: false })
      : ApolloServerPluginLandingPageLocalDefault({ footer: false, embed: true });
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
      landing,
      // no cache hints are used: without this plugin's per-field hook, resolvers run uninstrumented
      ApolloServerPluginCacheControlDisabled(),
      {
        // Every error of an answer carries its requestId, parse and validation errors included.
        async requestDidStart({ contextValue }) {
          return {
            async willSendResponse({ response }) {
              if (response.body.kind === 'single' && response.body.singleResult.errors) {
                response.body.singleResult.errors = withRequestId(response.body.singleResult.errors, contextValue.requestId);
              }
            },
          };
        },
      },
    ],
    formatError: (formatted, error) => formatError(formatted, error, options.reportInternal),
  });
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
        const run = handler;
        if (run === undefined) {
          res.status(503).json({ errors: [{ message: 'GraphQL is starting', extensions: { code: 'services.storage.not_connected', status: 503, requestId } }] });
          return;
        }
        const contentType = req.headers['content-type'];
        if (contentType === undefined || !isJson(contentType)) {
          req.body = undefined;
          run(req, res, requestId).catch(next);
          return;
        }
        readJsonBody(req, options.maxBodyBytes, (body) => {
          if (!body.ok) return bodyError(res, body.error, requestId);
          req.body = body.body;
          run(req, res, requestId).catch(next);
        });
      };
      app.use(GRAPHQL_PATH, graphql);
    },
    async start() {
      await server.start();
      handler = async (req, res, requestId) => {
        const context = createContext(options.deps, bearerToken(req.headers.authorization), requestId);
        await sendApolloAnswer(res, await server.executeHTTPGraphQLRequest({ httpGraphQLRequest: apolloRequest(req), context: async () => context }));
      };
    },
    async stop() {
      if (handler !== undefined) await server.stop();
    },
  };
}
