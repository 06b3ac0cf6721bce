/**
 * GET /v4/_openapi: the OpenAPI document (document.ts), public as Kuzzle's /_openapi, serialized
 * once. Like the probes it is not rate limited, counted or logged: it is the same bytes for anyone.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdFrom } from '../../requestId';
import { REST_PREFIX } from '../restHandler';
import type { OpenApiDocument } from './document';

export const OPENAPI_PATH = `${REST_PREFIX}_openapi`;

/** The route: answers GET /v4/_openapi (true), leaves anything else to the next route (false). */
export function createOpenApiRoute(document: OpenApiDocument): (req: IncomingMessage, res: ServerResponse) => boolean {
  const body = Buffer.from(JSON.stringify(document));
  return (req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith(OPENAPI_PATH) || (url.length > OPENAPI_PATH.length && url[OPENAPI_PATH.length] !== '?')) return false;
    if (req.method !== 'GET') return false;
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length, 'X-Request-Id': requestIdFrom(req.headers['x-request-id']) });
    res.end(body);
    return true;
  };
}
