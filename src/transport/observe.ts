/**
 * What the transports tell of each request they answer: one record per REST request, raw WebSocket
 * message answered, or GraphQL operation (over HTTP or graphql-ws). Metrics and the access log
 * (src/observability) are built from these records; the transports know only this interface.
 */
import { performance } from 'node:perf_hooks';
import { CALLER, type Envelope } from '../core/envelope';
import type { Principal } from '../core/principal';

export type TransportName = 'rest' | 'websocket' | 'graphql';

export interface RequestRecord {
  transport: TransportName;
  /** HTTP requests: the method and the path (without the query string); else undefined. */
  method: string | undefined;
  path: string | undefined;
  /**
   * The operation: controller and action (REST, raw WebSocket); GraphQL: the operation type
   * (`query`, `mutation`, `subscription`) and its root field (`multiple` for several). Undefined
   * when there is none (an unknown route, a message that is not one, a document that is not valid).
   */
  controller: string | undefined;
  action: string | undefined;
  /** Whether controller and action name an operation of the gateway (else what the client wrote, for the log only). */
  known: boolean;
  /** The answer's status (the envelope's; GraphQL: its first error's, else the HTTP status). */
  status: number;
  /** The error's catalogue id (GraphQL: its code), when the answer is one. */
  error: string | undefined;
  /** The rate limit policy that refused the request (429), if one did. */
  limitedBy: string | undefined;
  requestId: string;
  /** The client's address as the rate limits count it. */
  client: string | null;
  /** The authenticated caller, when known. */
  caller: Principal | undefined;
  /** GraphQL: the operation's name, as the client wrote it. */
  operationName: string | undefined;
  /** performance.now() when the request arrived. */
  startedAt: number;
}

export interface RequestObserver {
  /** One request answered (called once the answer is written, or handed to the socket). */
  request(record: RequestRecord): void;
}

/** The start time of a request (performance.now(): a monotonic clock in ms). */
export const now = (): number => performance.now();

/** The record of a request answered with an envelope (REST, raw WebSocket). */
export function envelopeRecord(
  transport: TransportName,
  envelope: Envelope,
  startedAt: number,
  client: string | null,
  method?: string,
  path?: string,
): RequestRecord {
  const error = envelope.error;
  const controller = envelope.controller ?? undefined;
  const action = envelope.action ?? undefined;
  const policy = error?.props?.policy;
  return {
    transport,
    method,
    path,
    controller,
    action,
    known: controller !== undefined && action !== undefined && error?.id !== 'api.process.action_not_found',
    status: envelope.status,
    error: error?.id,
    limitedBy: error?.id === 'api.process.too_many_requests' && typeof policy === 'string' ? policy : undefined,
    requestId: envelope.requestId,
    client,
    caller: envelope[CALLER],
    operationName: undefined,
    startedAt,
  };
}
