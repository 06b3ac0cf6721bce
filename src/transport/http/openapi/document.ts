/**
 * The OpenAPI 3.1 document of the REST API (GET /v4/_openapi), made from what the server itself
 * runs: the route table (routes.ts: methods, paths, path parameters) and each operation's contract
 * (core/contract.ts: arguments, body, result, errors, examples; whether it needs a token). Nothing
 * here repeats them: a route or an argument added there is in the document.
 */
import { ADDRESS_ARGS, type JsonSchema } from '../../../core/contract';
import type { Operation } from '../../../core/operation';
import { ROUTES, templateSegments, type RouteDef } from '../routes';
import { REST_PREFIX } from '../restHandler';
import { Components } from './components';
import { errorExamples, HEADERS, operationName, operationResponses, sharedErrorResponses } from './envelopes';
import { probePaths } from './probes';

export const OPENAPI_VERSION = '3.1.0';

export interface OpenApiOptions {
  /** package.json's name and version. */
  name: string;
  version: string;
  /** Every operation the dispatcher runs (core/operations.ts). */
  operations: readonly Operation[];
  /** METRICS: whether and for whom GET /metrics answers. */
  metrics: 'public' | 'admin' | 'off';
  /** The REST routes (default: routes.ts). */
  routes?: readonly RouteDef[];
}

export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, JsonSchema>> };

const DESCRIPTION = `Typed entities searched with the Elasticsearch 8 query DSL, API keys whose token is shown once, strict tenant isolation.

Every /v4 answer is the envelope \`{requestId, status, error, controller, action, collection, index, volatile, result}\`: the HTTP status equals \`status\`; on success \`error\` is null and \`result\` the operation's answer, on failure \`result\` is null and \`error\` is \`{id, code, message, status, props?}\`, its \`id\` one of the closed catalogue (\`ErrorId\`). \`X-Request-Id\` is echoed (else a UUIDv4 is made), in the envelope and as a header.

Authentication: \`Authorization: Bearer <token>\` (a JWT, or an API key's token), except on the operations marked as needing none. A path or method not listed here answers 404 \`api.process.action_not_found\` in the same envelope; \`OPTIONS\` on any path is a browser's CORS preflight (CORS_ORIGINS).

The same operations answer on the raw WebSocket (\`ws://<host>/\`, Kuzzle-style messages \`{controller, action, ...}\`: each operation here names its \`x-controller\` and \`x-action\`) and over GraphQL (\`/graphql\`).`;

const TAGS = [
  { name: 'document', description: 'Entities of one type (the `{collection}`): search, count, read and write.' },
  { name: 'auth', description: "API keys, tokens and the caller's own user." },
  { name: 'server', description: 'About the gateway.' },
  { name: 'probes', description: 'Health probes and metrics, outside /v4.' },
];

const camel = (op: Pick<Operation, 'controller' | 'action'>): string => operationName(op).charAt(0).toLowerCase() + operationName(op).slice(1);

/** GET /v4/_openapi: this document, answered by the HTTP transport (openapi/route.ts). */
const SELF: JsonSchema = {
  operationId: 'serverOpenapi',
  tags: ['server'],
  summary: 'This document',
  description: "The OpenAPI 3.1 contract of the REST API, generated from the routes and operations the gateway serves (not an envelope: the document itself). No token needed, as Kuzzle's `/_openapi`.",
  'x-controller': 'server',
  'x-action': 'openapi',
  security: [],
  parameters: [{ $ref: '#/components/parameters/RequestId' }],
  responses: {
    '200': {
      description: 'The document',
      headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } },
      content: {
        'application/json': {
          schema: { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { const: OPENAPI_VERSION }, info: { type: 'object' }, paths: { type: 'object' } } },
        },
      },
    },
  },
};

/** The path's parameters, as its template names them. */
function pathParameters(route: RouteDef, components: Components): JsonSchema[] {
  const params: JsonSchema[] = [];
  for (const segment of templateSegments(route.path)) {
    if (!('param' in segment)) continue;
    const arg = ADDRESS_ARGS[segment.param];
    params.push({ name: segment.param, in: 'path', required: true, description: arg.description, schema: components.use(arg.schema), example: arg.example });
  }
  return params;
}

/** Throws when the route and its operation disagree on what addresses a request. */
function checkAddress(route: RouteDef, op: Operation): void {
  const where = `route ${route.method} ${route.path} (${route.controller}:${route.action})`;
  if (op.contract === undefined) throw new Error(`OpenAPI: ${where} has no contract`);
  if (route.path.includes('{collection}') !== op.addressesCollection) throw new Error(`OpenAPI: ${where} and its operation disagree on {collection}`);
  if (route.path.includes('{_id}') !== (op.contract.addressesDocument === true)) throw new Error(`OpenAPI: ${where} and its operation disagree on {_id}`);
}

function operationObject(route: RouteDef, op: Operation, components: Components): JsonSchema {
  checkAddress(route, op);
  const contract = op.contract!;
  const inPath = new Set(templateSegments(route.path).flatMap((s) => ('param' in s ? [s.param as string] : [])));
  const query = Object.entries(contract.args ?? {})
    .filter(([name]) => !inPath.has(name))
    .map(([name, arg]) => ({ name, in: 'query', required: false, description: arg.description, schema: components.use(arg.schema), example: arg.example }));
  const out: JsonSchema = {
    operationId: camel(op),
    tags: [op.controller],
    summary: contract.summary,
    description: `${contract.description}${op.public ? '\n\nNo token needed.' : ''}`,
    'x-controller': op.controller,
    'x-action': op.action,
  };
  if (op.public) out.security = [];
  out.parameters = [...pathParameters(route, components), ...query, { $ref: '#/components/parameters/RequestId' }];
  if (contract.body !== undefined) {
    out.requestBody = {
      required: contract.body.required,
      content: {
        'application/json': { schema: components.use(contract.body.schema), examples: contract.body.examples },
        ...Object.fromEntries(Object.entries(contract.body.alternatives ?? {}).map(([type, { schema, example }]) => [type, { schema, example }])),
      },
    };
  }
  out.responses = operationResponses(op, components, String(ADDRESS_ARGS.collection.example));
  return out;
}

export function buildOpenApiDocument({ name, version, operations, metrics, routes = ROUTES }: OpenApiOptions): OpenApiDocument {
  const byName = new Map(operations.map((op) => [`${op.controller}:${op.action}`, op]));
  const components = new Components();
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = `${REST_PREFIX.slice(0, -1)}${route.path}`;
    const item = (paths[path] ??= {});
    const op = byName.get(`${route.controller}:${route.action}`);
    if (route.controller === 'server' && route.action === 'openapi') item[route.method.toLowerCase()] = SELF;
    else if (op === undefined) throw new Error(`OpenAPI: route ${route.method} ${route.path} names ${route.controller}:${route.action}, which no operation answers`);
    else item[route.method.toLowerCase()] = operationObject(route, op, components);
  }
  Object.assign(paths, probePaths(metrics, components));
  const responses = sharedErrorResponses(components);
  return {
    openapi: OPENAPI_VERSION,
    info: { title: `${name} REST API`, version, description: DESCRIPTION },
    tags: TAGS,
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      schemas: components.schemas,
      responses,
      examples: errorExamples(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "A JWT (HS256 signed with the gateway's secret, or from AUTH_JWKS_URL's identity provider), or an API key's token (POST /v4/api-keys/_create).",
        },
      },
      parameters: {
        RequestId: { name: 'X-Request-Id', in: 'header', required: false, description: 'Echoed in the answer (printable, at most 128 characters); else a UUIDv4 is made.', schema: { type: 'string', maxLength: 128 } },
      },
      headers: HEADERS,
    },
  };
}
