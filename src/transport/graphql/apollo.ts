/**
 * GraphQL over HTTP: Apollo Server 5 on express 5 at /graphql. The context carries the caller's
 * bearer token; resolvers authenticate through the core when they run.
 */
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault, ApolloServerPluginLandingPageProductionDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { GraphQLSchema, ValidationRule } from 'graphql';
import type { CoreDeps } from '../../core/deps';
import { ApiError } from '../../core/errors';
import { bearerToken, requestIdFrom } from '../requestId';
import { createContext, type GraphQLContext } from './context';
import { formatError, withRequestId } from './errors';
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

/** Body-parser failures as GraphQL errors with the catalogue's ids. */
const bodyErrors =
  (limit: number): ErrorRequestHandler =>
  (err, _req, res, next) => {
    const type = (err as { type?: string }).type;
    if (type === undefined) return next(err);
    const error =
      type === 'entity.too.large'
        ? new ApiError('network.http.request_too_large', { limit })
        : new ApiError('network.http.body_parse_failed', { reason: (err as Error).message });
    res.status(error.status).json({ errors: [{ message: error.message, extensions: { code: error.id, status: error.status, requestId: res.locals.requestId } }] });
  };

export function createGraphQLHttp(options: ApolloOptions): GraphQLHttp {
  const landing = !options.landingPage
    ? ApolloServerPluginLandingPageDisabled()
    : options.production
      ? ApolloServerPluginLandingPageProductionDefault({ footer: false })
      : ApolloServerPluginLandingPageLocalDefault({ footer: false, embed: true });
  const server = new ApolloServer<GraphQLContext>({
    schema: options.schema,
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
  let handler: RequestHandler | undefined;
  return {
    server,
    mount(app) {
      const prepare: RequestHandler = (req, res, next) => {
          const requestId = requestIdFrom(req.headers['x-request-id']);
          res.locals.requestId = requestId;
          res.setHeader('X-Request-Id', requestId);
          if (handler === undefined) {
            res.status(503).json({ errors: [{ message: 'GraphQL is starting', extensions: { code: 'services.storage.not_connected', status: 503, requestId } }] });
            return;
          }
          next();
      };
      const run: RequestHandler = (req, res, next) => handler!(req, res, next);
      app.use(GRAPHQL_PATH, prepare, express.json({ limit: options.maxBodyBytes }), bodyErrors(options.maxBodyBytes), run);
    },
    async start() {
      await server.start();
      handler = expressMiddleware(server, {
        context: async ({ req, res }) => createContext(options.deps, bearerToken(req.headers.authorization), res.locals.requestId as string),
      });
    },
    async stop() {
      if (handler !== undefined) await server.stop();
    },
  };
}
